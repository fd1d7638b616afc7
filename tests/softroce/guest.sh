# Runs inside a soft-RoCE guest (see vm.sh), as `bash guest.sh ROLE` with GPUBENCH, OUT (the
# writable result share) and CASE_ARGS set. Roles:
#   loopback  rxe0 on one end of a veth pair (198.18.0.1/24), the net.rdma.* cases in loopback
#             with --rdma-cm off and on, and with --rdma-completion event; then, as host A of
#             the two-host case, rxe0 moved to the NIC (198.18.1.1/24) and `gpubench serve`
#             until host B is done.
#   peer      host B: rxe0 on its NIC (198.18.1.2/24), the cases (one way and both ways) with
#             --peer 198.18.1.1.
# Every step's output goes to OUT/ROLE.log; results to OUT/*.json. Exit status: the first failure.
set -u
role=$1
log=$OUT/$role.log
exec >>"$log" 2>&1
status=0
step() { # step NAME command...: runs it, records a failure, keeps going
  local name=$1 t0=$SECONDS
  shift
  echo "=== $name: $*"
  "$@"
  local rc=$?
  echo "=== $name: exit $rc after $((SECONDS - t0)) s"
  ((rc == 0)) || { ((status == 0)) && status=$rc; echo "$name" >>"$OUT/$role.failed"; }
  return $rc
}
wait_for_file() { # wait_for_file PATH SECONDS
  local i
  for ((i = 0; i < $2 * 5; i++)); do [[ -e $1 ]] && return 0; sleep 0.2; done
  echo "no $1 after $2 s"
  return 1
}
rxe_on() { # rxe_on NETDEV: rxe0 on that netdev, ACTIVE
  rdma link add rxe0 type rxe netdev "$1" || return 1
  rdma link show rxe0/1
  ibv_devinfo -d rxe0 | grep -E 'state|active_mtu|link_layer'
}

export HOME=/tmp
ip link set lo up
case $role in
  loopback)
    ip link add veth0 type veth peer name veth1
    ip addr add 198.18.0.1/24 dev veth0
    ip addr add 198.18.0.2/24 dev veth1
    ip link set veth0 up
    ip link set veth1 up
    step "rxe0 on veth0" rxe_on veth0 || exit 1
    for cm in off on; do
      # shellcheck disable=SC2086 # CASE_ARGS is a list of options
      step "loopback --rdma-cm $cm" "$GPUBENCH" run --suite network --filter '^net\.rdma\.' \
        --quiet --rdma-cm "$cm" $CASE_ARGS --out "$OUT/loopback-cm-$cm.json"
    done
    # shellcheck disable=SC2086
    step "loopback --rdma-completion event" "$GPUBENCH" run --suite network \
      --filter '^net\.rdma\.' --quiet --rdma-completion event $CASE_ARGS \
      --out "$OUT/loopback-event.json"
    # Host A of the two-host case.
    rdma link delete rxe0
    ip addr add 198.18.1.1/24 dev eth0
    ip link set eth0 up
    step "rxe0 on eth0" rxe_on eth0 || exit "$status"
    "$GPUBENCH" serve --bind 198.18.1.1 --port 18515 --io-timeout 60 >"$OUT/serve.log" 2>&1 &
    serve=$!
    for ((i = 0; i < 50; i++)); do
      grep -q serving "$OUT/serve.log" && break
      sleep 0.2
    done
    touch "$OUT/serve.ready"
    step "host B done" wait_for_file "$OUT/peer.done" 200
    kill "$serve"
    wait "$serve"
    ;;
  peer)
    ip addr add 198.18.1.2/24 dev eth0
    ip link set eth0 up
    rxe_ok=0
    step "rxe0 on eth0" rxe_on eth0 && rxe_ok=1
    # Host A runs the loopback cases first.
    if ((rxe_ok)) && step "host A serving" wait_for_file "$OUT/serve.ready" 240; then
      # shellcheck disable=SC2086
      step "two hosts" "$GPUBENCH" run --suite network --filter '^net\.rdma\.' --quiet \
        --peer 198.18.1.1:18515 $CASE_ARGS --out "$OUT/two-hosts.json"
    fi
    touch "$OUT/peer.done"
    ;;
  *)
    echo "unknown role $role"
    exit 2
    ;;
esac
exit "$status"
