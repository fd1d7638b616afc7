#!/usr/bin/env bash
# coll.allreduce self-launched on 1, 2 and 4 local ranks (oversubscribed) with --check: the
# reduced data is right and busbw = algbw * 2(n-1)/n.
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
