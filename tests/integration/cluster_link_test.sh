#!/usr/bin/env bash
# Cluster mode with one slow path: 6 test hosts in network namespaces, every link at the same
# rate, and only the path between hosts 2 and 4 slowed to a quarter (htb, a filter on the
# other end's address). Every other pair of hosts 2 and 4 keeps the full rate: the file shows
# one slow pair, and the suspects name the link n2-n4, not a node; with --fail-on-suspect the
# launch exits 1 once the file is written.
set -euo pipefail
gpubench=$1
here=$(cd "$(dirname "$0")" && pwd)
source "$here/cluster_netns_lib.sh"
mpi_netns_begin gbk40b tc
hosts=6 rate=200 slow_rate=50
mpi_netns_up "$hosts" "${rate}mbit"
cluster_shape_path 2 4 "${slow_rate}mbit" "${rate}mbit"
cluster_shape_path 4 2 "${slow_rate}mbit" "${rate}mbit"
start=$(date +%s.%N)
# Bandwidth only (the shaped path is a bandwidth ground truth), two pairs at once: 8 B latency
# between "nodes" that share this machine's two cores is scheduling noise (up to 2x under load).
rc=0
mpi_netns_mpirun "$hosts" 120 \
  "$gpubench" run --suite network --filter 'net.tcp' --cluster-timeout 30 --pair-concurrency 2 --pair-sizes 1M --quiet \
  --fail-on-suspect --out "$tmp/cluster.json" >"$tmp/out.txt" 2>&1 || rc=$?
[[ $rc == 1 ]] || { cat "$tmp/out.txt"; echo "FAIL: mpirun exited $rc, expected 1 (--fail-on-suspect, a slow link)"; exit 1; }
echo "launch took $(python3 -c "print(round($(date +%s.%N) - $start, 1))") s"
grep '^#' "$tmp/out.txt" || true
nodes=$(seq -s, -f 'n%g' 1 "$hosts")
python3 "$here/cluster_check.py" "$tmp/cluster.json" --nodes "$nodes" --rate-mbit "$rate" \
  --slow-link n2,n4 --slow-rate-mbit "$slow_rate" --kinds net.tcp.bandwidth \
  --console "$tmp/out.txt" --suspect "link:n2,n4"
