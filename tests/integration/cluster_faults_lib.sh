# Planted faults for the cluster tests of issue 35's verdicts (cluster_direction, cluster_matchings,
# cluster_uplink and scripts/cluster-faults-loaded.sh): a host slow on one side only, a slow path,
# a slow uplink between two groups of hosts, CPU-bound load beside the launch, and one launch
# with its console and file kept. Sourced after cluster_netns_lib.sh's hosts are up.
source "$(dirname "${BASH_SOURCE[0]}")/cluster_netns_lib.sh"

# faults_slow_send HOST RATE: only what HOST sends is slowed (tbf on its own link's egress).
faults_slow_send() {
  # shellcheck disable=SC2086 # MPI_NETNS_TBF is several words on purpose
  ip netns exec "$prefix-h$1" tc qdisc replace dev eth0 root tbf rate "$2" $MPI_NETNS_TBF
}

# faults_slow_receive HOST RATE: only what HOST receives is slowed (tbf on the bridge's port
# towards it).
faults_slow_receive() {
  # shellcheck disable=SC2086
  ip netns exec "$prefix-sw" tc qdisc replace dev "p$1" root tbf rate "$2" $MPI_NETNS_TBF
}

# faults_shape_groups "A..." "B..." RATE BASE: every path between a host of group A and a host
# of group B at RATE, both ways (htb, u32 filters on the other group's addresses, on each host's
# link and on the bridge's port towards it); every other path at BASE. Two leaves whose uplink
# is slow, as the hosts see it.
faults_shape_groups() {
  local group_a=$1 group_b=$2 rate=$3 base=$4 h other side ns dev
  _faults_shape_one() {
    local host=$1 others=$2
    for side in host sw; do
      if [[ $side == host ]]; then ns="$prefix-h$host" dev=eth0; else ns="$prefix-sw" dev="p$host"; fi
      ip netns exec "$ns" tc qdisc del dev "$dev" root 2>/dev/null || true
      ip netns exec "$ns" tc qdisc add dev "$dev" root handle 1: htb default 10
      ip netns exec "$ns" tc class add dev "$dev" parent 1: classid 1:10 htb rate "$base" quantum 1514
      ip netns exec "$ns" tc class add dev "$dev" parent 1: classid 1:20 htb rate "$rate" ceil "$rate" quantum 1514
      for other in $others; do
        if [[ $side == host ]]; then
          ip netns exec "$ns" tc filter add dev "$dev" parent 1: protocol ip u32 \
            match ip dst "$MPI_NETNS_NET.$other/32" flowid 1:20
        else
          ip netns exec "$ns" tc filter add dev "$dev" parent 1: protocol ip u32 \
            match ip src "$MPI_NETNS_NET.$other/32" flowid 1:20
        fi
      done
    done
  }
  for h in $group_a; do _faults_shape_one "$h" "$group_b"; done
  for h in $group_b; do _faults_shape_one "$h" "$group_a"; done
}

# faults_load_start N: N CPU-bound processes (`yes`), pinned round the CPUs; faults_load_stop
# ends them (by the pids recorded here).
faults_load_pids=()
faults_load_start() {
  local i
  for ((i = 0; i < $1; i++)); do
    taskset -c $((i % $(nproc))) yes >/dev/null &
    faults_load_pids+=($!)
  done
}
faults_load_stop() {
  local p
  for p in "${faults_load_pids[@]}"; do kill "$p" 2>/dev/null || true; done
  faults_load_pids=()
}

# faults_launch NAME HOSTS LIMIT ARGS...: one cluster launch of `gpubench run ARGS` over hosts
# 1..HOSTS, console in $tmp/NAME.txt and file in $tmp/NAME.json; its time in $faults_took and
# $tmp/NAME.took (for a launch run in the background); returns mpirun's exit code.
faults_launch() {
  local name=$1 hosts=$2 limit=$3 start rc=0
  shift 3
  start=$(date +%s.%N)
  mpi_netns_mpirun "$hosts" "$limit" "$gpubench" run "$@" --out "$tmp/$name.json" \
    >"$tmp/$name.txt" 2>&1 || rc=$?
  faults_took=$(python3 -c "print(round($(date +%s.%N) - $start, 1))")
  echo "took $faults_took" >"$tmp/$name.took"
  return $rc
}
