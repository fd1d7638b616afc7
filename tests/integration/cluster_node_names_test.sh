#!/usr/bin/env bash
# The test-only node name: 8 ranks on this one machine, each with its own GPUBENCH_NODE_NAME,
# stand for 8 nodes (over loopback, no root needed): every node and every pair in one file.
set -euo pipefail
gpubench=$1
here=$(cd "$(dirname "$0")" && pwd)
source "$here/loopback_ranks_lib.sh"
start=$(date +%s.%N)
loopback_mpirun 8 120 "$gpubench" run --suite network --filter 'net.tcp' --cluster-timeout 30 \
  --quiet --out "$tmp/cluster.json" >"$tmp/out.txt" 2>&1 || { cat "$tmp/out.txt"; echo "FAIL: mpirun"; exit 1; }
echo "launch took $(python3 -c "print(round($(date +%s.%N) - $start, 1))") s"
python3 "$here/cluster_check.py" "$tmp/cluster.json" --nodes v0,v1,v2,v3,v4,v5,v6,v7
