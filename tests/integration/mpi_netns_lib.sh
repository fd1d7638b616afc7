# Test hosts for the MPI integration tests (coll_*, cluster_*): hosts in network namespaces on a
# bridge in a switch namespace, links optionally shaped with tbf, an rsh agent through which
# mpirun starts a rank "on" a host, and cleanup on every exit. Sourced by a family's file
# (coll_netns_lib.sh, cluster_netns_lib.sh), which sets its own /24 inside 198.18.0.0/15 and
# its own tbf, so the families never collide:
#   MPI_NETNS_NET         the hosts' /24 without the last byte ("198.18.6": hosts .1 to .N)
#   MPI_NETNS_TBF         tbf's burst and latency ("burst 64kb latency 50ms")
#   MPI_NETNS_NODE_NAMES  "yes": host I's ranks and mpirun get GPUBENCH_NODE_NAME=nI (the
#                         test-only node name: the namespaces share one hostname)
#   MPI_NETNS_BTL         Open MPI's byte transfer layers (self,vader,tcp)
#   MPI_NETNS_MAP_BY      mpirun's --map-by, or "" for Open MPI's default
MPI_NETNS_NET=""
MPI_NETNS_TBF=""
MPI_NETNS_NODE_NAMES=""
MPI_NETNS_BTL="self,vader,tcp"
MPI_NETNS_MAP_BY=""

mpi_netns_skip() { echo "SKIP: $*"; exit 77; }

# mpi_netns_begin NAME [tc]: skips (exit 77, with the reason) when not root, without mpirun, or,
# with "tc" (a test that shapes links), without tc. Then sets the test's `prefix` (NAME-PID:
# every namespace of the test starts with it) and `tmp` (a new folder), and a trap that
# removes the namespaces (killing what runs in them) and the folder on every exit.
mpi_netns_begin() {
  local name=$1 need_tc=${2:-}
  [[ -n $MPI_NETNS_NET && -n $MPI_NETNS_TBF ]] || { echo "FAIL: the family sets MPI_NETNS_NET and MPI_NETNS_TBF"; exit 1; }
  [[ $(id -u) -eq 0 ]] || mpi_netns_skip "needs root to create network namespaces"
  command -v mpirun >/dev/null || mpi_netns_skip "no mpirun in PATH"
  if [[ $need_tc == tc ]]; then command -v tc >/dev/null || mpi_netns_skip "no tc (iproute2)"; fi
  prefix="$name-$$"
  tmp=$(mktemp -d)
  trap 'mpi_netns_down; rm -rf "$tmp"' EXIT
}

# mpi_netns_up N RATE [SLOW_HOST SLOW_RATE]: hosts $prefix-h1..hN at $MPI_NETNS_NET.1..N on a
# bridge in $prefix-sw; every host's link shaped both ways at RATE (e.g. 200mbit; "" leaves
# the links unshaped), host SLOW_HOST's at SLOW_RATE. Writes the rsh agent to $tmp/agent.
mpi_netns_up() {
  local n=$1 rate=$2 slow=${3:-0} slow_rate=${4:-} i r
  ip netns add "$prefix-sw"
  ip -n "$prefix-sw" link add br0 type bridge
  ip -n "$prefix-sw" link set br0 up
  ip -n "$prefix-sw" link set lo up
  for ((i = 1; i <= n; i++)); do
    ip netns add "$prefix-h$i"
    ip link add eth0 netns "$prefix-h$i" type veth peer name "p$i" netns "$prefix-sw"
    ip -n "$prefix-sw" link set "p$i" master br0 up
    ip -n "$prefix-h$i" addr add "$MPI_NETNS_NET.$i/24" dev eth0
    ip -n "$prefix-h$i" link set eth0 up
    ip -n "$prefix-h$i" link set lo up
    r=$rate
    [[ $i -eq $slow ]] && r=$slow_rate
    if [[ -n $r ]]; then
      # shellcheck disable=SC2086 # MPI_NETNS_TBF is several words on purpose
      ip netns exec "$prefix-h$i" tc qdisc add dev eth0 root tbf rate "$r" $MPI_NETNS_TBF
      # shellcheck disable=SC2086
      ip netns exec "$prefix-sw" tc qdisc add dev "p$i" root tbf rate "$r" $MPI_NETNS_TBF
    fi
  done
  mpi_netns_rsh_agent "$tmp/agent"
}

# Removes every namespace of the test, killing what still runs in it (veths and the bridge go
# with their namespaces).
mpi_netns_down() {
  local ns
  for ns in $(ip netns list | awk '{print $1}' | grep "^$prefix-" || true); do
    ip netns pids "$ns" 2>/dev/null | xargs -r kill -9 2>/dev/null || true
    ip netns del "$ns" 2>/dev/null || true
  done
}

# mpi_netns_rsh_agent PATH: `agent [opts] $MPI_NETNS_NET.I command...` runs the command in
# namespace $prefix-hI with an Open MPI session directory of that host's own: the hosts share
# one /tmp and one hostname, and daemons creating the same session directory at once fail now
# and then ("mkdir ... File exists"), which separate machines never do.
mpi_netns_rsh_agent() {
  local path=$1 tmpbase node_env=""
  tmpbase="$(dirname "$path")/session"
  # shellcheck disable=SC2016 # $i is the agent's, expanded when it runs
  [[ $MPI_NETNS_NODE_NAMES == yes ]] && node_env='GPUBENCH_NODE_NAME="n$i" '
  cat >"$path" <<AGENT
#!/usr/bin/env bash
while [[ \$1 == -* ]]; do shift; done
host=\$1; shift
i=\${host##*.}
mkdir -p "$tmpbase/h\$i"
exec ip netns exec "$prefix-h\$i" env OMPI_MCA_orte_tmpdir_base="$tmpbase/h\$i" \
  ${node_env}/bin/sh -c "\$*"
AGENT
  chmod +x "$path"
}

# mpi_netns_mpirun NP TIMEOUT COMMAND...: COMMAND under mpirun started on host 1, one rank per
# host (hosts 1..NP), Open MPI over TCP on the test network; ends it after TIMEOUT seconds.
mpi_netns_mpirun() {
  local np=$1 limit=$2 i
  shift 2
  local env_args=() map_args=()
  [[ $MPI_NETNS_NODE_NAMES == yes ]] && env_args=(GPUBENCH_NODE_NAME=n1)
  [[ -n $MPI_NETNS_MAP_BY ]] && map_args=(--map-by "$MPI_NETNS_MAP_BY")
  : >"$tmp/hosts"
  for ((i = 1; i <= np; i++)); do echo "$MPI_NETNS_NET.$i slots=1" >>"$tmp/hosts"; done
  # mpirun keeps the default session directory: an OMPI_MCA_ variable in its environment would
  # be passed on to every daemon and override the agent's per-host directory.
  # The ranks busy-poll; on a small machine they must yield or the "nodes" starve each other.
  timeout "$limit" ip netns exec "$prefix-h1" env "${env_args[@]}" \
    mpirun --allow-run-as-root -np "$np" --hostfile "$tmp/hosts" "${map_args[@]}" \
    --mca plm_rsh_agent "$tmp/agent" --mca oob_tcp_if_include "$MPI_NETNS_NET.0/24" \
    --mca btl_tcp_if_include "$MPI_NETNS_NET.0/24" --mca pml ob1 --mca btl "$MPI_NETNS_BTL" \
    --mca mpi_yield_when_idle 1 "$@"
}
