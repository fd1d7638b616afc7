# Sourced by the cluster tests that stand N "nodes" up as N ranks on this one machine over
# loopback (no root): each rank gets its own test-only node name, v0, v1, ... (all of them the
# one name in $GPUBENCH_NODE_NAME when the test sets it: one node of N ranks). Sets `tmp` (removed
# on exit) and defines loopback_mpirun NP LIMIT_S COMMAND...; skips (77) without mpirun.
command -v mpirun >/dev/null || { echo "SKIP: no mpirun in PATH"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/rank.sh" <<'RANK'
#!/bin/sh
GPUBENCH_NODE_NAME="${GPUBENCH_NODE_NAME:-v${OMPI_COMM_WORLD_RANK:-${PMIX_RANK}}}" exec "$@"
RANK
chmod +x "$tmp/rank.sh"

loopback_mpirun() {
  local np=$1 limit=$2 root=()
  shift 2
  [[ $(id -u) -eq 0 ]] && root=(--allow-run-as-root)
  timeout "$limit" mpirun "${root[@]}" -np "$np" --oversubscribe --mca pml ob1 --mca btl self,tcp \
    --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo --mca mpi_yield_when_idle 1 \
    "$tmp/rank.sh" "$@"
}
