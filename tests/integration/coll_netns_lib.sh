# Helpers for the coll.allreduce integration tests: a cluster of test hosts in network
# namespaces (198.18.0.0/15 only) joined by a bridge in a switch namespace, an rsh agent
# that enters a host's namespace so mpirun can start ranks "on" it, and cleanup.
# Sourced by the test scripts; every name carries a unique prefix.

# netns_cluster_up PREFIX N RATE: hosts PREFIX-h1..hN at 198.18.6.1..N; RATE (e.g. 200mbit)
# shapes both directions of every host's link with tbf, "" leaves links unshaped.
netns_cluster_up() {
  local prefix=$1 n=$2 rate=$3 i
  ip netns add "$prefix-sw"
  ip -n "$prefix-sw" link add br0 type bridge
  ip -n "$prefix-sw" link set br0 up
  ip -n "$prefix-sw" link set lo up
  for ((i = 1; i <= n; i++)); do
    ip netns add "$prefix-h$i"
    ip link add eth0 netns "$prefix-h$i" type veth peer name "p$i" netns "$prefix-sw"
    ip -n "$prefix-sw" link set "p$i" master br0 up
    ip -n "$prefix-h$i" addr add "198.18.6.$i/24" dev eth0
    ip -n "$prefix-h$i" link set eth0 up
    ip -n "$prefix-h$i" link set lo up
    if [[ -n $rate ]]; then
      ip netns exec "$prefix-h$i" tc qdisc add dev eth0 root tbf rate "$rate" burst 256kb latency 100ms
      ip netns exec "$prefix-sw" tc qdisc add dev "p$i" root tbf rate "$rate" burst 256kb latency 100ms
    fi
  done
}

netns_cluster_down() {
  local prefix=$1 ns
  for ns in $(ip netns list | awk '{print $1}' | grep "^$prefix-" || true); do
    ip netns pids "$ns" 2>/dev/null | xargs -r kill -9 2>/dev/null || true
    ip netns del "$ns" 2>/dev/null || true
  done
}

# Writes an rsh agent for mpirun: `agent [opts] 198.18.6.I command...` runs the command in
# namespace PREFIX-hI, with Open MPI's session directory in a folder of that host's own: the
# hosts share one /tmp and one hostname, and daemons creating the same session directory at
# once fail now and then ("mkdir ... File exists"), which separate machines never do.
netns_rsh_agent() {
  local prefix=$1 path=$2 tmpbase
  tmpbase="$(dirname "$path")/session"
  cat >"$path" <<AGENT
#!/usr/bin/env bash
while [[ \$1 == -* ]]; do shift; done
host=\$1; shift
mkdir -p "$tmpbase/h\${host##*.}"
exec ip netns exec "$prefix-h\${host##*.}" env OMPI_MCA_orte_tmpdir_base="$tmpbase/h\${host##*.}" \
  /bin/sh -c "\$*"
AGENT
  chmod +x "$path"
}
