#!/usr/bin/env bash
# Cluster mode, a host slow one way only (issue 35): 6 test hosts at 200 Mbit/s, one CPU-bound
# process beside the launch, and host 4 slowed to 50 Mbit/s on its sending side only (tbf on its
# own link's egress); then, in a second launch, on its receiving side only (tbf on the bridge's
# port towards it). Every pair's bandwidth is measured both ways, each way its own figure: the
# verdict names n4 with the slow way ("send", then "receive") and no link.
set -euo pipefail
gpubench=$1
here=$(cd "$(dirname "$0")" && pwd)
source "$here/cluster_faults_lib.sh"
MPI_NETNS_NET=198.18.41
command -v python3 >/dev/null || mpi_netns_skip "no python3"
mpi_netns_begin gbk41 tc
trap 'faults_load_stop; mpi_netns_down; rm -rf "$tmp"' EXIT
hosts=6 slow=4
mpi_netns_up "$hosts" 200mbit
faults_load_start 1
# Bandwidth pairs only: the shaped links are the ground truth (latency between "nodes" that
# share two cores is scheduling noise).
args=(--suite network --filter 'net.tcp.bandwidth' --pair-sizes 1M --cluster-timeout 30)
failed=0
for way in send receive; do
  if [[ $way == send ]]; then
    faults_slow_send "$slow" 50mbit
  else
    faults_slow_send "$slow" 200mbit
    faults_slow_receive "$slow" 50mbit
  fi
  faults_launch "$way" "$hosts" 120 "${args[@]}" ||
    { cat "$tmp/$way.txt"; echo "FAIL: the $way launch exited $?"; exit 1; }
  echo "($way) launch took $faults_took s"
  grep -E '^# cluster: (re-measuring|second look|[0-9]+ nodes)' "$tmp/$way.txt" || true
  python3 "$here/cluster_verdict_check.py" "$tmp/$way.txt" --expect "node:n$slow:$way" || failed=1
done
[[ $failed == 0 ]] || { echo "FAIL: see above"; exit 1; }
