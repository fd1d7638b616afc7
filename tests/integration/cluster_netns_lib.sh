# The cluster-mode tests' hosts (mpi_netns_lib.sh): 198.18.40.0/24 (inside 198.18.40.0/21),
# tbf with a 64 kB burst, host I named node "nI", one rank per host; and slowing one path.
source "$(dirname "${BASH_SOURCE[0]}")/mpi_netns_lib.sh"
MPI_NETNS_NET=198.18.40
MPI_NETNS_TBF="burst 64kb latency 50ms"
MPI_NETNS_NODE_NAMES=yes
MPI_NETNS_MAP_BY=ppr:1:node

# cluster_shape_path FROM TO RATE BASE: only the path from host FROM to host TO is slowed to
# RATE (htb on FROM's link, a u32 filter on TO's address; other traffic at BASE).
cluster_shape_path() {
  local from=$1 to=$2 rate=$3 base=$4 side ns dev
  for side in host sw; do
    if [[ $side == host ]]; then ns="$prefix-h$from" dev=eth0; else ns="$prefix-sw" dev="p$from"; fi
    ip netns exec "$ns" tc qdisc del dev "$dev" root 2>/dev/null || true
    ip netns exec "$ns" tc qdisc add dev "$dev" root handle 1: htb default 10
    ip netns exec "$ns" tc class add dev "$dev" parent 1: classid 1:10 htb rate "$base" quantum 1514
    ip netns exec "$ns" tc class add dev "$dev" parent 1: classid 1:20 htb rate "$rate" ceil "$rate" quantum 1514
    if [[ $side == host ]]; then
      ip netns exec "$ns" tc filter add dev "$dev" parent 1: protocol ip u32 \
        match ip dst "$MPI_NETNS_NET.$to/32" flowid 1:20
    else
      # Towards FROM, from TO: the same path the other way.
      ip netns exec "$ns" tc filter add dev "$dev" parent 1: protocol ip u32 \
        match ip src "$MPI_NETNS_NET.$to/32" flowid 1:20
    fi
  done
}
