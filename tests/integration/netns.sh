# Two test hosts in network namespaces joined by a bridge (itself in a third namespace), with
# addresses in 198.18.0.0/15 only: source it, then `netns_up`; everything is removed on exit.
# Skips the whole test (exit 77) with the reason when not root or namespaces are unavailable.
NETNS_TAG="gpb$$"
NS_SRV="${NETNS_TAG}-srv"
NS_CLI="${NETNS_TAG}-cli"
NS_SW="${NETNS_TAG}-sw"
SRV_ADDR=198.18.0.1
CLI_ADDR=198.18.0.2

netns_skip() { echo "SKIP: $*"; exit 77; }

netns_down() {
  local ns
  for ns in "$NS_SRV" "$NS_CLI" "$NS_SW"; do ip netns del "$ns" 2>/dev/null || true; done
}

netns_up() {
  [[ $(id -u) -eq 0 ]] || netns_skip "needs root to create network namespaces"
  command -v ip >/dev/null || netns_skip "needs iproute2 (ip)"
  ip netns add "$NS_SW" 2>/dev/null || netns_skip "cannot create network namespaces here"
  trap 'netns_down; rm -rf "$TEST_TMP"' EXIT
  ip netns add "$NS_SRV"
  ip netns add "$NS_CLI"
  ip -n "$NS_SW" link add br0 type bridge
  ip -n "$NS_SW" link set br0 up
  local side ns addr
  for side in srv cli; do
    ns=$NS_SRV addr=$SRV_ADDR
    [[ $side == cli ]] && ns=$NS_CLI addr=$CLI_ADDR
    ip -n "$NS_SW" link add "p-$side" type veth peer name eth0 netns "$ns"
    ip -n "$NS_SW" link set "p-$side" master br0 up
    ip -n "$ns" addr add "$addr/24" dev eth0
    ip -n "$ns" link set eth0 up
    ip -n "$ns" link set lo up
  done
}

# serve_in_srv LOGFILE ARGS...: starts `gpubench serve` in the server namespace, waits until it
# listens, sets SERVER_PID.
serve_in_srv() {
  local log=$1
  shift
  ip netns exec "$NS_SRV" "$GPUBENCH" serve --bind "$SRV_ADDR" "$@" >"$log.out" 2>"$log" &
  SERVER_PID=$!
  for _ in $(seq 1 100); do
    grep -q "serving" "$log.out" 2>/dev/null && return 0
    sleep 0.05
  done
  fail "gpubench serve did not start: $(cat "$log")"
  return 1
}
