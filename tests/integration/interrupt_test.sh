#!/usr/bin/env bash
# SIGINT mid-run: the run stops between samples, exits 130, and leaves a valid result file
# with status "partial" holding what was measured.
source "$(dirname "$0")/lib.sh"
set -e

file="$TEST_TMP/partial.json"
"$GPUBENCH" run --suite memory --quiet --sizes 4K:64M --out "$file" >"$TEST_TMP/out" 2>"$TEST_TMP/err" &
pid=$!
# Wait until the first case is on disk (the file is rewritten after every case).
for _ in $(seq 1 300); do
  if [[ -s $file ]] && grep -q '"benchmark"' "$file" 2>/dev/null; then break; fi
  sleep 0.1
done
kill -INT "$pid"
set +e
wait "$pid"
code=$?
set -e
[[ $code -eq 130 ]] && pass "exit 130 after SIGINT" || fail "exit $code after SIGINT, expected 130"
validate "$file"
py=$(schema_python)
"$py" - "$file" <<'PY' && pass "file says partial and keeps measured points" || fail "partial file wrong"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["run"]["status"] == "partial", d["run"]["status"]
assert sum(len(c["points"]) for c in d["results"]) > 0, "no points kept"
PY
expect_contains "$(cat "$TEST_TMP/err")" "interrupted" "tells the user it was interrupted"
finish
