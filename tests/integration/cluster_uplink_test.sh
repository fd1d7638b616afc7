#!/usr/bin/env bash
# Cluster mode with the fabric's shape (issue 35): 6 test hosts at 200 Mbit/s, a topology file
# (Slurm's topology.conf syntax) with two leaves, n1-n3 and n4-n6, under one spine, and every
# path between the two groups slowed to 50 Mbit/s both ways (htb): a slow uplink, as the hosts
# see it. The file records each node's leaf; the verdict names the uplink, not a node or a link.
set -euo pipefail
gpubench=$1
here=$(cd "$(dirname "$0")" && pwd)
source "$here/cluster_faults_lib.sh"
MPI_NETNS_NET=198.18.43
command -v python3 >/dev/null || mpi_netns_skip "no python3"
mpi_netns_begin gbk43 tc
hosts=6
mpi_netns_up "$hosts" 200mbit
faults_shape_groups "1 2 3" "4 5 6" 50mbit 200mbit
cat >"$tmp/topology.conf" <<'TOPO'
# two leaves under one spine
SwitchName=leaf1 Nodes=n[1-3]
SwitchName=leaf2 Nodes=n[4-6]
SwitchName=spine Switches=leaf[1-2]
TOPO
faults_launch uplink "$hosts" 120 --suite network --filter 'net.tcp.bandwidth' --pair-sizes 1M \
  --cluster-timeout 30 --topology "$tmp/topology.conf" ||
  { cat "$tmp/uplink.txt"; echo "FAIL: the launch exited $?"; exit 1; }
echo "launch took $faults_took s"
grep -E '^# cluster: (re-measuring|second look|the topology|[0-9]+ nodes)' "$tmp/uplink.txt" || true
python3 - "$tmp/uplink.json" <<'PY'
import json, sys
cl = json.load(open(sys.argv[1]))["cluster"]
names = [n["name"] for n in cl["nodes"]]
leaves = dict(zip(names, cl.get("leaves", [])))
want = {f"n{i}": "leaf1" if i <= 3 else "leaf2" for i in range(1, 7)}
assert leaves == want, f"leaves {leaves}, expected {want}"
print("ok: each node's leaf recorded")
PY
python3 "$here/cluster_verdict_check.py" "$tmp/uplink.txt" --expect uplink
