#!/usr/bin/env bash
# A real run: `gpubench --suite memory` (the short form) writes a schema-valid result file;
# benchmarks that cannot run here are recorded as skipped with their reason.
source "$(dirname "$0")/lib.sh"
set -e

file="$TEST_TMP/memory.json"
expect_exit 0 "gpubench --suite memory --quick" -- \
  "$GPUBENCH" --suite memory --quick --quiet --sizes 4K:1M --out "$file"
expect_contains "$out" "memory.host.copy" "summary table names the benchmark"
expect_contains "$out" "GB/s" "summary table has units"
validate "$file"
py=$(schema_python)
"$py" - "$file" <<'PY' && pass "memory results are complete and consistent" || fail "memory results inconsistent"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["run"]["status"] == "complete", d["run"]["status"]
cases = [c for c in d["results"] if c["benchmark"] == "memory.host.copy"]
assert cases and all(c["status"] == "ok" for c in cases), cases
for c in cases:
    sizes = [p["bytes"] for p in c["points"]]
    assert sizes == [4096 * 2**i for i in range(9)], sizes
    for p in c["points"]:
        assert len(p["samples"]) == p["stats"]["count"] >= 10
        assert p["stats"]["min"] <= p["stats"]["median"] <= p["stats"]["max"]
        assert p["stats"]["median"] > 0.05, "implausibly slow memcpy"
PY

file="$TEST_TMP/gpu.json"
expect_exit 0 "gpu suite with nothing to run still succeeds" -- \
  "$GPUBENCH" run --suite gpu --quiet --out "$file"
validate "$file"
"$py" - "$file" <<'PY' && pass "unavailable benchmarks are skipped with a reason" || fail "skips lack reasons"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["results"], "no results"
for c in d["results"]:
    if c["status"] == "skipped":
        assert len(c["reason"]) > 5, c
PY
finish
