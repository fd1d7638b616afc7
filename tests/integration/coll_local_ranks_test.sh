#!/usr/bin/env bash
# coll.allreduce self-launched on 1, 2 and 4 local ranks (oversubscribed), the data check on
# by default: the reduced data is right and busbw = algbw * 2(n-1)/n; one rank is skipped (no
# bus bandwidth), and `mpirun -np 1` never prints a bandwidth either. A corruption planted on
# one rank (the test hook GPUBENCH_TEST_CORRUPT_CHECK) fails every collective's case naming
# that rank and element, and --no-check runs no check at all.
set -euo pipefail
gpubench=$1
here=$(cd "$(dirname "$0")" && pwd)
command -v mpirun >/dev/null || { echo "SKIP: no mpirun in PATH"; exit 77; }
"$gpubench" list --suite collectives | grep -q "available" || { echo "SKIP: coll.allreduce unavailable in this build"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for ranks in 1 2 4; do
  place=out
  [[ $ranks -eq 2 ]] && place=both
  "$gpubench" run --suite collectives --backend mpi --ranks "$ranks" --place "$place" \
    --sizes 8:1K --quiet --out "$tmp/r$ranks.json" >"$tmp/out$ranks.txt" 2>&1 || {
    cat "$tmp/out$ranks.txt"; echo "FAIL: gpubench run with $ranks ranks"; exit 1; }
  python3 "$here/coll_check.py" "$tmp/r$ranks.json" --ranks "$ranks"
done

# Launched by mpirun with one rank: the cases are skipped with the reason, no GB/s printed.
as_root=()
[[ $(id -u) -eq 0 ]] && as_root=(--allow-run-as-root)
timeout 120 mpirun "${as_root[@]}" -np 1 "$gpubench" run --suite collectives --backend mpi \
  --sizes 8:1K --out "$tmp/np1.json" >"$tmp/np1.txt" 2>&1 || {
  cat "$tmp/np1.txt"; echo "FAIL: mpirun -np 1"; exit 1; }
if grep -q "GB/s" "$tmp/np1.txt"; then
  cat "$tmp/np1.txt"; echo "FAIL: mpirun -np 1 printed a bandwidth"; exit 1
fi
grep -q "no bus bandwidth" "$tmp/np1.txt" || {
  cat "$tmp/np1.txt"; echo "FAIL: mpirun -np 1 did not say why it measured nothing"; exit 1; }
python3 "$here/coll_check.py" "$tmp/np1.json" --ranks 1
echo "ok: mpirun -np 1 skipped with the reason"

# One element flipped on rank 1 after the checked call: each collective's case fails, exit 1,
# and its reason names the rank and the element.
set +e
GPUBENCH_TEST_CORRUPT_CHECK=1:3 "$gpubench" run --suite collectives --backend mpi --ranks 2 \
  --sizes 1K:1K --quiet --out "$tmp/bad.json" >"$tmp/bad.txt" 2>&1
rc=$?
set -e
[[ $rc -eq 1 ]] || { cat "$tmp/bad.txt"; echo "FAIL: a planted corruption exited $rc, expected 1"; exit 1; }
python3 - "$tmp/bad.json" <<'PY' || { cat "$tmp/bad.txt"; exit 1; }
import json, sys
cases = [c for c in json.load(open(sys.argv[1]))["results"] if c["kind"]["path"] == "collective"]
ops = sorted(c["kind"]["operation"] for c in cases)
if len(ops) != 6:
    sys.exit(f"FAIL: {ops}: expected the six collectives")
for c in cases:
    why = c.get("reason", "")
    if c["status"] != "failed" or "data check failed" not in why or "rank 1, element 3 " not in why:
        sys.exit(f"FAIL: {c['kind']['operation']} is {c['status']}: {why!r}, expected a failed "
                 "data check naming rank 1, element 3")
print(f"ok: a corrupted element failed all {len(ops)} collectives naming rank 1, element 3")
PY
# --no-check: the hook is read by the check alone, so the cases measure and say nothing of it.
GPUBENCH_TEST_CORRUPT_CHECK=1:3 "$gpubench" run --suite collectives --backend mpi --ranks 2 \
  --no-check --filter '^coll\.allreduce$' --sizes 1K:1K --quiet --out "$tmp/nocheck.json" \
  >"$tmp/nocheck.txt" 2>&1 || { cat "$tmp/nocheck.txt"; echo "FAIL: --no-check"; exit 1; }
python3 - "$tmp/nocheck.json" <<'PY'
import json, sys
c = [c for c in json.load(open(sys.argv[1]))["results"] if c["kind"]["path"] == "collective"][0]
if c["status"] != "ok" or any("check" in p["extra"] for p in c["points"]):
    sys.exit(f"FAIL: --no-check: {c['status']} {c.get('reason')}, points {c['points']}")
print("ok: --no-check runs no data check")
PY
# Both switches: a contradiction, exit 2.
set +e
"$gpubench" run --suite collectives --backend mpi --check --no-check --sizes 1K:1K --quiet \
  --out "$tmp/both.json" >"$tmp/both.txt" 2>&1
rc=$?
set -e
[[ $rc -eq 2 ]] && grep -q -- "--check and --no-check" "$tmp/both.txt" ||
  { cat "$tmp/both.txt"; echo "FAIL: --check --no-check exited $rc, expected 2 with the reason"; exit 1; }
echo "ok: --check --no-check refused"
