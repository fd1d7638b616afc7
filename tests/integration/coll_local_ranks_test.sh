#!/usr/bin/env bash
# coll.allreduce self-launched on 1, 2 and 4 local ranks (oversubscribed) with --check: the
# reduced data is right and busbw = algbw * 2(n-1)/n; one rank is skipped (no bus
# bandwidth), and `mpirun -np 1` never prints a bandwidth either.
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
  "$gpubench" run --suite collectives --backend mpi --ranks "$ranks" --check --place "$place" \
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
