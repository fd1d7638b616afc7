#!/usr/bin/env bash
# A rank killed mid-run makes the self-launched coll.allreduce fail fast with a clear
# message, never hang: the case is failed, the run exits 1 well within --coll-timeout.
set -euo pipefail
gpubench=$1
command -v mpirun >/dev/null || { echo "SKIP: no mpirun in PATH"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s)
"$gpubench" run --suite collectives --filter 'coll\.allreduce$' --backend mpi --ranks 2 --place out \
  --sizes 64K:256M \
  --coll-timeout 60 --quiet --out "$tmp/r.json" >"$tmp/out.txt" 2>&1 &
pid=$!
# The ranks are grandchildren (gpubench -> mpirun -> ranks) whose command line names our
# result file's directory: find one by that, never by a broad name. A rank found can be gone
# by the time it is killed (a loaded machine); then look again while the run goes on.
find_rank() {
  local launcher victim=""
  for _ in $(seq 1 200); do
    launcher=$(ps -o pid= --ppid "$pid" | tr -d ' ' | head -1 || true)
    if [[ -n $launcher ]]; then
      victim=$(ps -o pid=,args= --ppid "$launcher" | awk '/ run --suite collectives/ {print $1}' | tail -1 || true)
    fi
    [[ -n $victim ]] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  echo "$victim"
}
killed=""
for _ in 1 2 3; do
  victim=$(find_rank)
  [[ -n $victim ]] || break
  sleep 1  # let it get into the measurement (the sweep lasts several seconds)
  if kill -9 "$victim" 2>/dev/null; then killed=$victim; break; fi
done
if [[ -z $killed ]]; then
  rc=0
  kill "$pid" 2>/dev/null || true
  wait "$pid" || rc=$?
  cat "$tmp/out.txt"
  echo "FAIL: no live rank process to kill (the run exited $rc)"
  exit 1
fi
rc=0
wait "$pid" || rc=$?
elapsed=$(( $(date +%s) - start ))
cat "$tmp/out.txt"
[[ $rc -eq 1 ]] || { echo "FAIL: exit code $rc, expected 1"; exit 1; }
(( elapsed < 45 )) || { echo "FAIL: took $elapsed s to notice a dead rank"; exit 1; }
python3 - "$tmp/r.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
c = [c for c in doc["results"] if c["benchmark"] == "coll.allreduce" and c["params"]["backend"] == "mpi"][0]
assert c["status"] == "failed", c["status"]
r = c["reason"]
print("reason:", r[:300])
assert "mpirun" in r and ("signal" in r or "exited" in r or "killed" in r), r
PY
echo "ok: failed in $elapsed s"
