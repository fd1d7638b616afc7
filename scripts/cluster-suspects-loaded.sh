#!/usr/bin/env bash
# Cluster suspects on a loaded machine (a check script, not a CTest test): six namespace hosts
# of the cluster tests (tests/integration/cluster_netns_lib.sh: mpirun, one rank per host,
# GPUBENCH_NODE_NAME n1..n6), CPU-bound `yes` processes pinned beside the launch, and LAUNCHES
# cluster launches in a row for each of two planted faults:
#   (a) a slow host: host 4's link at SLOW_RATE, every other link at RATE;
#   (b) a slow link: only the path n2-n5 at SLOW_RATE (htb, cluster_shape_path), the rest at RATE.
# Each launch runs what an operator runs (memory.host.copy over --sizes 4K:4M, TCP latency and
# bandwidth pairs at the default 8 B and 1 MiB) and prints what it named, what it measured
# again and did not name, and its time. Pass: the planted host (a) or link (b) named in every
# launch, nothing else named (no healthy node, no healthy link). Exit 0 on pass, 1 on a failed
# launch, 77 when it cannot run (not root, no mpirun or tc).
# Usage (root): scripts/cluster-suspects-loaded.sh [path/to/gpubench]
#   LAUNCHES=5 LOAD=2 RATE=200mbit SLOW_RATE=40mbit SCENARIOS="host link" (environment);
#   KEEP=DIR keeps each launch's console and result file there.
set -euo pipefail
gpubench=$(realpath "${1:-build/gpubench}")
launches=${LAUNCHES:-5}
load=${LOAD:-2}
rate=${RATE:-200mbit}
slow_rate=${SLOW_RATE:-40mbit}
scenarios=${SCENARIOS:-host link}
hosts=6 slow_host=4 link_a=2 link_b=5
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../tests/integration/cluster_netns_lib.sh
source "$here/../tests/integration/cluster_netns_lib.sh"
# shellcheck disable=SC2034 # read by the library's functions
MPI_NETNS_NET=198.18.46  # the cluster tests' family (198.18.40.0/21), a /24 of this script's own
command -v python3 >/dev/null || mpi_netns_skip "no python3"
mpi_netns_begin gbsl tc

load_pids=()
stop_load() {
  local p
  for p in "${load_pids[@]}"; do kill "$p" 2>/dev/null || true; done
  load_pids=()
}
trap 'stop_load; mpi_netns_down; rm -rf "$tmp"' EXIT
for ((i = 0; i < load; i++)); do
  taskset -c $((i % $(nproc))) yes >/dev/null &
  load_pids+=($!)
done
echo "load: $load pinned 'yes' process(es) on $(nproc) CPU(s); load average $(cut -d' ' -f1-3 /proc/loadavg)"

# named OUT: the console's named suspects, one a line ("node n4", "link n2-n5").
named() {
  sed -n 's/^# suspect \(node\|link\) \([^:]*\):.*/\1 \2/p' "$1" | sed 's/ - /-/'
}
unconfirmed() {
  sed -n 's/^# unconfirmed \(node\|link\) \([^:]*\):.*/\1 \2/p' "$1" | sed 's/ - /-/'
}

failed=0
summary=()
run_scenario() {
  local scenario=$1 expect=$2 l out start took got rest remeasured
  for ((l = 1; l <= launches; l++)); do
    out="$tmp/$scenario-$l.txt"
    start=$(date +%s.%N)
    mpi_netns_mpirun "$hosts" 300 \
      "$gpubench" run --suite interconnect --filter 'memory.host.copy|net.tcp' --sizes 4K:4M \
      --cluster-timeout 60 --out "$tmp/$scenario-$l.json" >"$out" 2>&1 ||
      { cat "$out"; echo "FAIL: launch $l of ($scenario) did not finish"; exit 1; }
    took=$(python3 -c "print(round($(date +%s.%N) - $start, 1))")
    [[ -n ${KEEP:-} ]] && mkdir -p "$KEEP" && cp "$out" "$tmp/$scenario-$l.json" "$KEEP/"
    got=$(named "$out" | paste -sd, -)
    rest=$(unconfirmed "$out" | paste -sd, -)
    remeasured=$(sed -n 's/^# cluster: \(re-measuring .*\)/\1/p' "$out")
    local verdict=pass
    [[ $got == "$expect" ]] || { verdict=FAIL; failed=1; }
    printf '(%s) launch %d/%d: %5.1f s  named: %-14s unconfirmed: %-30s %s\n' "$scenario" "$l" \
      "$launches" "$took" "${got:-none}" "${rest:-none}" "$verdict"
    [[ -n $remeasured ]] && echo "    $remeasured"
    grep -E '^# (suspect|unconfirmed) ' "$out" | cut -c1-240 | sed 's/^/    /'
    summary+=("($scenario) $l: ${took} s, named ${got:-none}, $verdict")
  done
}

for scenario in $scenarios; do
  case $scenario in
    host)
      mpi_netns_up "$hosts" "$rate" "$slow_host" "$slow_rate"
      echo "(host) n$slow_host's link at $slow_rate, the others at $rate"
      run_scenario host "node n$slow_host"
      ;;
    link)
      mpi_netns_up "$hosts" "$rate"
      cluster_shape_path "$link_a" "$link_b" "$slow_rate" "$rate"
      cluster_shape_path "$link_b" "$link_a" "$slow_rate" "$rate"
      echo "(link) only n$link_a-n$link_b at $slow_rate, every link at $rate"
      run_scenario link "link n$link_a-n$link_b"
      ;;
    *) echo "unknown scenario '$scenario' (host, link)" >&2; exit 2 ;;
  esac
  mpi_netns_down
done
stop_load
printf '%s\n' "${summary[@]}"
if [[ $failed != 0 ]]; then
  echo "FAIL: see the launches marked FAIL"
  exit 1
fi
echo "PASS: the planted fault named in every launch, nothing else"
