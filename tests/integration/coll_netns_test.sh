#!/usr/bin/env bash
# coll.allreduce across 4 test hosts in network namespaces (198.18.6.0/24), every link
# shaped by tbf: one mpirun launch measures the nested 1/2/4-node communicators, and the
# large-message busbw stays below the shaped rate and within a sensible fraction of it.
set -euo pipefail
gpubench=$1
here=$(cd "$(dirname "$0")" && pwd)
[[ $(id -u) -eq 0 ]] || { echo "SKIP: needs root to create network namespaces"; exit 77; }
command -v mpirun >/dev/null || { echo "SKIP: no mpirun in PATH"; exit 77; }
command -v tc >/dev/null || { echo "SKIP: no tc (iproute2)"; exit 77; }
source "$here/coll_netns_lib.sh"
prefix="gbc6-$$"
rate_mbit=${COLL_TEST_RATE_MBIT:-300}
tmp=$(mktemp -d)
cleanup() { netns_cluster_down "$prefix"; rm -rf "$tmp"; }
trap cleanup EXIT
netns_cluster_up "$prefix" 4 "${rate_mbit}mbit"
netns_rsh_agent "$prefix" "$tmp/agent"
printf '198.18.6.%d slots=1\n' 1 2 3 4 >"$tmp/hosts"
# The ranks busy-poll; on a small machine they must yield or the 4 "nodes" starve each other.
timeout 180 ip netns exec "$prefix-h1" mpirun --allow-run-as-root -np 4 --hostfile "$tmp/hosts" \
  --mca plm_rsh_agent "$tmp/agent" --mca oob_tcp_if_include 198.18.6.0/24 \
  --mca btl_tcp_if_include 198.18.6.0/24 --mca pml ob1 --mca btl self,vader,tcp \
  --mca mpi_yield_when_idle 1 \
  "$gpubench" run --suite collectives --backend mpi --place out --check --sizes 4M:4M \
  --quiet --out "$tmp/r.json" >"$tmp/out.txt" 2>&1 || { cat "$tmp/out.txt"; echo "FAIL: mpirun"; exit 1; }
rate_gbs=$(python3 -c "print($rate_mbit * 1e6 / 8 / 1e9)")
python3 "$here/coll_check.py" "$tmp/r.json" --nodes 1,2,4 --rate-gbs "$rate_gbs"
