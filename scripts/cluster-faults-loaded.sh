#!/usr/bin/env bash
# Issue 35's planted faults, several launches of each (a check script, not a CTest test; root):
# the namespace hosts of the cluster tests (tests/integration/cluster_netns_lib.sh, mpirun, one
# rank per host), CPU-bound `yes` processes pinned beside the launch, and LAUNCHES launches of
# each scenario, printing per launch what the verdict named and how many launches of each named
# the right thing and nothing else (the issue's bar: 3 of 3):
#   send      6 hosts at RATE, host 4 slow to send only (tbf at SLOW_RATE on its egress): node n4, "send"
#   receive   the same on its receiving side (tbf on the bridge's port towards it): node n4, "receive"
#   host      8 hosts, --pairs matchings:3, host 5 at SLOW_RATE both ways: node n5
#   link      8 hosts, --pairs matchings:3, one planned pair slowed both ways (htb): that link
#   uplink    6 hosts, --topology with two leaves (n1-n3, n4-n6), every path between them at
#             SLOW_RATE (no load): an uplink, no node or link
# Each launch runs what an operator runs (ARGS, default: --suite interconnect --filter
# 'memory.host.copy|net.tcp' --sizes 4K:4M, the default pair sizes). Exit 0 when every launch
# named the right thing, 1 otherwise, 77 when it cannot run (not root, no mpirun or tc).
# Usage (root): scripts/cluster-faults-loaded.sh [path/to/gpubench]
#   LAUNCHES=3 LOAD=1 RATE=200mbit SLOW_RATE=50mbit SCENARIOS="send receive host link uplink"
#   ARGS="..." (environment); KEEP=DIR keeps each launch's console and file there.
set -euo pipefail
gpubench=$(realpath "${1:-build/gpubench}")
launches=${LAUNCHES:-3}
load=${LOAD:-1}
rate=${RATE:-200mbit}
slow_rate=${SLOW_RATE:-50mbit}
scenarios=${SCENARIOS:-send receive host link uplink}
read -r -a run_args <<<"${ARGS:---suite interconnect --filter memory.host.copy|net.tcp --sizes 4K:4M}"
here=$(cd "$(dirname "$0")" && pwd)
checker="$here/../tests/integration/cluster_verdict_check.py"
# shellcheck source=../tests/integration/cluster_faults_lib.sh
source "$here/../tests/integration/cluster_faults_lib.sh"
# shellcheck disable=SC2034 # read by the library's functions
MPI_NETNS_NET=198.18.45  # the cluster tests' family (198.18.40.0/21), a /24 of this script's own
command -v python3 >/dev/null || mpi_netns_skip "no python3"
mpi_netns_begin gbfl tc
trap 'faults_load_stop; mpi_netns_down; rm -rf "$tmp"' EXIT

# planned_link FILE: "A B" (host numbers) of a pair in the last round of the file's pair list.
planned_link() {
  python3 - "$1" 2>/dev/null <<'PY' || true
import json, sys
pl = json.load(open(sys.argv[1]))["cluster"]["pair_list"]
last = max(r for _, _, r in pl)
a, b, _ = next(p for p in pl if p[2] == last)
print(a + 1, b + 1)
PY
}

summary=()
failed=0
for scenario in $scenarios; do
  hosts=6 extra=() good=0
  case $scenario in
    send | receive) mpi_netns_up 6 "$rate" ;;
    host) hosts=8 extra=(--pairs matchings:3); mpi_netns_up 8 "$rate" 5 "$slow_rate" ;;
    link) hosts=8 extra=(--pairs matchings:3); mpi_netns_up 8 "$rate" ;;
    uplink)
      mpi_netns_up 6 "$rate"
      faults_shape_groups "1 2 3" "4 5 6" "$slow_rate" "$rate"
      printf 'SwitchName=leaf1 Nodes=n[1-3]\nSwitchName=leaf2 Nodes=n[4-6]\nSwitchName=spine Switches=leaf[1-2]\n' \
        >"$tmp/topology.conf"
      extra=(--topology "$tmp/topology.conf")
      ;;
    *) echo "unknown scenario '$scenario' (send, receive, host, link, uplink)" >&2; exit 2 ;;
  esac
  [[ $scenario == send ]] && faults_slow_send 4 "$slow_rate"
  [[ $scenario == receive ]] && faults_slow_receive 4 "$slow_rate"
  [[ $scenario != uplink ]] && faults_load_start "$load"
  echo "($scenario) $hosts hosts at $rate; load average $(cut -d' ' -f1-3 /proc/loadavg)"
  for ((l = 1; l <= launches; l++)); do
    name="$scenario-$l"
    if [[ $scenario == link ]]; then
      # A fresh link each launch, on fresh hosts (the last launch's link is not slow any more):
      # a pair of the plan's last round, slowed once the plan is in the file (seconds before
      # that round).
      if ((l > 1)); then
        mpi_netns_down
        mpi_netns_up "$hosts" "$rate"
      fi
      rm -f "$tmp/$name.json"
      faults_launch "$name" "$hosts" 300 "${run_args[@]}" "${extra[@]}" &
      launcher=$!
      link=""
      for _ in $(seq 1 600); do
        link=$(planned_link "$tmp/$name.json")
        [[ -n $link ]] && break
        sleep 0.05
      done
      read -r a b <<<"${link:-0 0}"
      [[ $a != 0 ]] && cluster_shape_path "$a" "$b" "$slow_rate" "$rate" && cluster_shape_path "$b" "$a" "$slow_rate" "$rate"
      rc=0
      wait "$launcher" || rc=$?
      expect="link:n$a,n$b"
    else
      rc=0
      faults_launch "$name" "$hosts" 300 "${run_args[@]}" "${extra[@]}" || rc=$?
      case $scenario in
        send | receive) expect="node:n4:$scenario" ;;
        host) expect="node:n5" ;;
        uplink) expect="uplink" ;;
      esac
    fi
    took=$(sed -n 's/^took //p' "$tmp/$name.took" 2>/dev/null || echo "?")
    [[ -n ${KEEP:-} ]] && mkdir -p "$KEEP" && cp "$tmp/$name.txt" "$tmp/$name.json" "$KEEP/" 2>/dev/null
    verdict=FAIL
    if [[ $rc == 0 ]] && python3 "$checker" "$tmp/$name.txt" --expect "$expect" --quiet >"$tmp/$name.check"; then
      verdict=pass
      good=$((good + 1))
    fi
    printf '(%s) launch %d/%d: %6s s  expected %-16s %s  %s\n' "$scenario" "$l" "$launches" "$took" \
      "$expect" "$(head -1 "$tmp/$name.check" 2>/dev/null)" "$verdict"
    [[ $rc == 0 ]] || echo "    mpirun exited $rc"
    if [[ $verdict == FAIL ]]; then
      grep -E '^# (suspect|unconfirmed|cluster: re-measuring)' "$tmp/$name.txt" | cut -c1-240 | sed 's/^/    /' || true
    fi
  done
  faults_load_stop
  mpi_netns_down
  summary+=("($scenario) $good of $launches named the right thing")
  [[ $good == "$launches" ]] || failed=1
done
printf '%s\n' "${summary[@]}"
if [[ $failed != 0 ]]; then
  echo "FAIL: not every launch named the right thing"
  exit 1
fi
echo "PASS: every launch named the planted fault, nothing else"
