#!/usr/bin/env bash
# Cluster mode on 8 test hosts in network namespaces (198.18.40.0/24), every link shaped with
# tbf and host 5's to a quarter of the others: one mpirun launch writes one file with every
# node, every pair measured once (bandwidth at each link's shaped rate), and allreduce; the
# suspects name n5 only.
set -euo pipefail
gpubench=$1
here=$(cd "$(dirname "$0")" && pwd)
source "$here/cluster_netns_lib.sh"
mpi_netns_begin gbk40a tc
hosts=8 rate=200 slow=5 slow_rate=50
mpi_netns_up "$hosts" "${rate}mbit" "$slow" "${slow_rate}mbit"
start=$(date +%s.%N)
# Bandwidth pairs only (the shaped links are a bandwidth ground truth), two pairs at once: 8 B
# latency between "nodes" that share this machine's two cores is scheduling noise (2.7x seen
# under load), which would name healthy pairs; cluster_node_names covers the latency pairs.
mpi_netns_mpirun "$hosts" 120 \
  "$gpubench" run --suite interconnect --filter 'memory.host.copy|net.tcp|coll.allreduce' \
  --backend mpi --place out --nodes 2,8 --sizes 64K:64K --cluster-timeout 30 --pair-concurrency 2 --pair-sizes 1M --quiet \
  --out "$tmp/cluster.json" >"$tmp/out.txt" 2>&1 || { cat "$tmp/out.txt"; echo "FAIL: mpirun"; exit 1; }
echo "launch took $(python3 -c "print(round($(date +%s.%N) - $start, 1))") s"
grep '^#' "$tmp/out.txt" || true
nodes=$(seq -s, -f 'n%g' 1 "$hosts")
python3 "$here/cluster_check.py" "$tmp/cluster.json" --nodes "$nodes" --rate-mbit "$rate" \
  --slow "n$slow" --slow-rate-mbit "$slow_rate" --allreduce --kinds net.tcp.bandwidth \
  --console "$tmp/out.txt" --suspect "node:n$slow"
