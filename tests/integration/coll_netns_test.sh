#!/usr/bin/env bash
# Every collective (allreduce, all-gather, reduce-scatter, all-to-all, broadcast, send/recv)
# across 4 test hosts in network namespaces (198.18.6.0/24), every link shaped by tbf: one
# mpirun launch measures the nested 1/2/4-node communicators with the data check, and the
# large-message busbw stays below the shaped rate and above a tenth of it. (A tenth: Open
# MPI 4.1's reduce-scatter of 4 MiB over TCP reaches about a fifth of the link, and a plain
# MPI_Reduce_scatter_block loop measures the same: scripts/coll_overhead.sh.)
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
python3 "$here/coll_check.py" "$tmp/r.json" --nodes 1,2,4 --rate-gbs "$rate_gbs" --min-fraction 0.1
