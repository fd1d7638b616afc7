#!/usr/bin/env bash
# Cluster mode with one slow path: 6 test hosts in network namespaces, every link at the same
# rate, and only the path between hosts 2 and 4 slowed to a quarter (htb, a filter on the
# other end's address). Every other pair of hosts 2 and 4 keeps the full rate: the file shows
# one slow pair, and the suspects name the link n2-n4, not a node.
set -euo pipefail
gpubench=$1
here=$(cd "$(dirname "$0")" && pwd)
[[ $(id -u) -eq 0 ]] || { echo "SKIP: needs root to create network namespaces"; exit 77; }
command -v mpirun >/dev/null || { echo "SKIP: no mpirun in PATH"; exit 77; }
command -v tc >/dev/null || { echo "SKIP: no tc (iproute2)"; exit 77; }
source "$here/cluster_netns_lib.sh"
prefix="gbk40b-$$"
hosts=6 rate=200 slow_rate=50
tmp=$(mktemp -d)
cleanup() { cluster_down "$prefix"; rm -rf "$tmp"; }
trap cleanup EXIT
cluster_up "$prefix" "$hosts" "${rate}mbit"
cluster_shape_path "$prefix" 2 4 "${slow_rate}mbit" "${rate}mbit"
cluster_shape_path "$prefix" 4 2 "${slow_rate}mbit" "${rate}mbit"
cluster_rsh_agent "$prefix" "$tmp/agent"
start=$(date +%s.%N)
# Bandwidth only (the shaped path is a bandwidth ground truth), two pairs at once: 8 B latency
# between "nodes" that share this machine's two cores is scheduling noise (up to 2x under load).
cluster_mpirun "$prefix" "$tmp" "$hosts" 120 \
  "$gpubench" run --suite network --filter 'net.tcp' --cluster-timeout 30 --pair-concurrency 2 --pair-sizes 1M --quiet \
  --out "$tmp/cluster.json" >"$tmp/out.txt" 2>&1 || { cat "$tmp/out.txt"; echo "FAIL: mpirun"; exit 1; }
echo "launch took $(python3 -c "print(round($(date +%s.%N) - $start, 1))") s"
grep '^#' "$tmp/out.txt" || true
nodes=$(seq -s, -f 'n%g' 1 "$hosts")
python3 "$here/cluster_check.py" "$tmp/cluster.json" --nodes "$nodes" --rate-mbit "$rate" \
  --slow-link n2,n4 --slow-rate-mbit "$slow_rate" --kinds net.tcp.bandwidth \
  --console "$tmp/out.txt" --suspect "link:n2,n4"
