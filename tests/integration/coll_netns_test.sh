#!/usr/bin/env bash
# coll.allreduce across 4 test hosts in network namespaces (198.18.6.0/24), every link
# shaped by tbf: one mpirun launch measures the nested 1/2/4-node communicators, and the
# large-message busbw stays below the shaped rate and within a sensible fraction of it.
set -euo pipefail
gpubench=$1
here=$(cd "$(dirname "$0")" && pwd)
source "$here/coll_netns_lib.sh"
mpi_netns_begin gbc6 tc
rate_mbit=${COLL_TEST_RATE_MBIT:-300}
mpi_netns_up 4 "${rate_mbit}mbit"
mpi_netns_mpirun 4 180 \
  "$gpubench" run --suite collectives --backend mpi --place out --check --sizes 4M:4M \
  --quiet --out "$tmp/r.json" >"$tmp/out.txt" 2>&1 || { cat "$tmp/out.txt"; echo "FAIL: mpirun"; exit 1; }
rate_gbs=$(python3 -c "print($rate_mbit * 1e6 / 8 / 1e9)")
python3 "$here/coll_check.py" "$tmp/r.json" --nodes 1,2,4 --rate-gbs "$rate_gbs"
