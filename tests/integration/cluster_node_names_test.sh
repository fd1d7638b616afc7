#!/usr/bin/env bash
# The test-only node name: 8 ranks on this one machine, each with its own GPUBENCH_NODE_NAME,
# stand for 8 nodes (over loopback, no root needed): every node and every pair in one file.
set -euo pipefail
gpubench=$1
here=$(cd "$(dirname "$0")" && pwd)
command -v mpirun >/dev/null || { echo "SKIP: no mpirun in PATH"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=()
[[ $(id -u) -eq 0 ]] && root=(--allow-run-as-root)
cat >"$tmp/rank.sh" <<'RANK'
#!/bin/sh
GPUBENCH_NODE_NAME="v${OMPI_COMM_WORLD_RANK:-${PMIX_RANK}}" exec "$@"
RANK
chmod +x "$tmp/rank.sh"
start=$(date +%s.%N)
timeout 120 mpirun "${root[@]}" -np 8 --oversubscribe --mca pml ob1 --mca btl self,tcp \
  --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo --mca mpi_yield_when_idle 1 \
  "$tmp/rank.sh" "$gpubench" run --suite network --filter 'net.tcp' --cluster-timeout 30 \
  --quiet --out "$tmp/cluster.json" >"$tmp/out.txt" 2>&1 || { cat "$tmp/out.txt"; echo "FAIL: mpirun"; exit 1; }
echo "launch took $(python3 -c "print(round($(date +%s.%N) - $start, 1))") s"
python3 "$here/cluster_check.py" "$tmp/cluster.json" --nodes v0,v1,v2,v3,v4,v5,v6,v7
