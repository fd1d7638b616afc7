# Helpers for the cluster-mode tests: test hosts in network namespaces (198.18.40.0/24, inside
# 198.18.40.0/21) on a bridge in a switch namespace, each link shaped with tbf (both ways), an
# rsh agent that enters a host's namespace and names the node, and cleanup. Sourced by the
# cluster_*_test.sh scripts; every namespace name carries the caller's unique prefix.

# cluster_up PREFIX N RATE [SLOW_HOST SLOW_RATE]: hosts PREFIX-h1..hN at 198.18.40.1..N; every
# host's link both ways at RATE (e.g. 200mbit), host SLOW_HOST's at SLOW_RATE.
cluster_up() {
  local prefix=$1 n=$2 rate=$3 slow=${4:-0} slow_rate=${5:-} i r
  ip netns add "$prefix-sw"
  ip -n "$prefix-sw" link add br0 type bridge
  ip -n "$prefix-sw" link set br0 up
  ip -n "$prefix-sw" link set lo up
  for ((i = 1; i <= n; i++)); do
    ip netns add "$prefix-h$i"
    ip link add eth0 netns "$prefix-h$i" type veth peer name "p$i" netns "$prefix-sw"
    ip -n "$prefix-sw" link set "p$i" master br0 up
    ip -n "$prefix-h$i" addr add "198.18.40.$i/24" dev eth0
    ip -n "$prefix-h$i" link set eth0 up
    ip -n "$prefix-h$i" link set lo up
    r=$rate
    [[ $i -eq $slow ]] && r=$slow_rate
    if [[ -n $r ]]; then
      ip netns exec "$prefix-h$i" tc qdisc add dev eth0 root tbf rate "$r" burst 64kb latency 50ms
      ip netns exec "$prefix-sw" tc qdisc add dev "p$i" root tbf rate "$r" burst 64kb latency 50ms
    fi
  done
}

# cluster_shape_path PREFIX FROM TO RATE BASE: only the path from host FROM to host TO is
# slowed to RATE (htb on FROM's link, a u32 filter on TO's address; other traffic at BASE).
cluster_shape_path() {
  local prefix=$1 from=$2 to=$3 rate=$4 base=$5 ns dev
  for side in host sw; do
    if [[ $side == host ]]; then ns="$prefix-h$from" dev=eth0 dst="198.18.40.$to"; else
      ns="$prefix-sw" dev="p$from" dst="198.18.40.$from"; fi
    ip netns exec "$ns" tc qdisc del dev "$dev" root 2>/dev/null || true
    ip netns exec "$ns" tc qdisc add dev "$dev" root handle 1: htb default 10
    ip netns exec "$ns" tc class add dev "$dev" parent 1: classid 1:10 htb rate "$base" quantum 1514
    ip netns exec "$ns" tc class add dev "$dev" parent 1: classid 1:20 htb rate "$rate" ceil "$rate" quantum 1514
    if [[ $side == host ]]; then
      ip netns exec "$ns" tc filter add dev "$dev" parent 1: protocol ip u32 \
        match ip dst "$dst/32" flowid 1:20
    else
      # Towards FROM, from TO: the same path the other way.
      ip netns exec "$ns" tc filter add dev "$dev" parent 1: protocol ip u32 \
        match ip src "198.18.40.$to/32" flowid 1:20
    fi
  done
}

cluster_down() {
  local prefix=$1 ns
  for ns in $(ip netns list | awk '{print $1}' | grep "^$prefix-" || true); do
    ip netns pids "$ns" 2>/dev/null | xargs -r kill -9 2>/dev/null || true
    ip netns del "$ns" 2>/dev/null || true
  done
}

# cluster_rsh_agent PREFIX PATH: `agent [opts] 198.18.40.I command...` runs the command in
# namespace PREFIX-hI as node "nI" (GPUBENCH_NODE_NAME, the test-only node name: the
# namespaces share one hostname) with an Open MPI session directory of that host's own.
cluster_rsh_agent() {
  local prefix=$1 path=$2 tmpbase
  tmpbase="$(dirname "$path")/session"
  cat >"$path" <<AGENT
#!/usr/bin/env bash
while [[ \$1 == -* ]]; do shift; done
host=\$1; shift
i=\${host##*.}
mkdir -p "$tmpbase/h\$i"
exec ip netns exec "$prefix-h\$i" env OMPI_MCA_orte_tmpdir_base="$tmpbase/h\$i" \
  GPUBENCH_NODE_NAME="n\$i" /bin/sh -c "\$*"
AGENT
  chmod +x "$path"
}

# cluster_mpirun PREFIX TMP NP TIMEOUT ARGS...: gpubench under mpirun from host 1 (node n1),
# one rank per host, Open MPI over TCP on the test network.
cluster_mpirun() {
  local prefix=$1 tmp=$2 np=$3 limit=$4 i
  shift 4
  : >"$tmp/hosts"
  for ((i = 1; i <= np; i++)); do echo "198.18.40.$i slots=1" >>"$tmp/hosts"; done
  # mpirun keeps the default session directory: an OMPI_MCA_ variable in its environment would
  # be passed on to every daemon and override the agent's per-host directory.
  timeout "$limit" ip netns exec "$prefix-h1" env GPUBENCH_NODE_NAME=n1 \
    mpirun --allow-run-as-root -np "$np" --hostfile "$tmp/hosts" --map-by ppr:1:node \
    --mca plm_rsh_agent "$tmp/agent" --mca oob_tcp_if_include 198.18.40.0/24 \
    --mca btl_tcp_if_include 198.18.40.0/24 --mca pml ob1 --mca btl self,vader,tcp \
    --mca mpi_yield_when_idle 1 "$@"
}
