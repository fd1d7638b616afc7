# Runs inside a soft-RoCE guest (see vm.sh), as `bash guest.sh ROLE` with GPUBENCH, OUT (the
# writable result share, which both guests mount) set. Roles:
#   a  rxe0 on one end of a veth pair (198.18.0.1/24): the net.rdma.* cases in loopback with
#      --rdma-cm off (4 KiB); then rxe0 moved to the NIC (198.18.1.1/24), `gpubench serve` for
#      host B's cases, and an ssh server (dropbear) for B's mpirun, until B is done.
#   b  at the same time as A's loopback, the same in its own veth pair with --rdma-cm on; then
#      rxe0 on its NIC (198.18.1.2/24): every net.rdma.* case across the wire at 2 B, 64 B,
#      2 KiB, 64 KiB and 1 MiB, twice (--rdma-cm off with polled completions, --rdma-cm on with
#      completion events), inline posts up to 64 B; a client killed in the middle of a point
#      (A's server must take the next within 2 s); eth0 taken down in the middle of a point
#      (the case must fail naming IBV_EVENT_PORT_ERR); then coll.allreduce over both guests
#      under mpirun, once with UCX on rxe0 and once with Open MPI's TCP btl.
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
loopback() { # loopback off|on: the net.rdma.* cases through rxe0 on a veth pair, at 4 KiB
  ip link add veth0 type veth peer name veth1
  ip addr add 198.18.0.1/24 dev veth0
  ip addr add 198.18.0.2/24 dev veth1
  ip link set veth0 up
  ip link set veth1 up
  step "rxe0 on veth0" rxe_on veth0 || return 1
  step "loopback --rdma-cm $1" "$GPUBENCH" "${rdma_args[@]}" --sizes 4K --rdma-cm "$1" \
    --out "$OUT/loopback-cm-$1.json"
  rdma link delete rxe0
  ip link delete veth0
}
session_up() { # waits up to 60 s for this guest's control connection to A's server
  local i
  for ((i = 0; i < 300; i++)); do
    ss -Htn state established '( dport = :18515 )' | grep -q . && return 0
    sleep 0.2
  done
  echo "no control connection to A"
  return 1
}
# One bandwidth case towards A; with `&`, $! must be gpubench's own pid (killed_client).
case_args=(run --suite network --filter '^net\.rdma\.bandwidth$' --quiet --no-store --rdma-iters 100
  --io-timeout 30 --peer 198.18.1.1:18515)
one_case() { # one_case OUT_FILE gpubench-run-options...
  "$GPUBENCH" "${case_args[@]}" --out "$@"
}
killed_client() { # a client killed 5 s into its session (about 20 s of points, 64 KiB to
  local pid         # 1 MiB): A's server takes the next client within 2 s
  "$GPUBENCH" "${case_args[@]}" --out "$OUT/killed.json" --rdma-op send --rdma-direction bidir \
    --sizes 64K:1M:2 --rdma-cm on --rdma-completion event &
  pid=$!
  session_up && sleep 5
  python3 "$(dirname "$0")/free_after_kill.py" "$pid" 198.18.1.1 18515 \
    "$("$GPUBENCH" --version | head -1 | cut -d' ' -f2)" 2
  local rc=$?
  wait "$pid"
  return $rc
}
port_down() { # eth0 (rxe0's port) down for 3 s in the middle of a point: the case fails naming
  local pid  # the port's asynchronous event; the link comes back for what follows
  one_case "$OUT/port-down.json" --rdma-op write --rdma-direction uni --sizes 64K:8M:2 &
  pid=$!
  session_up && sleep 5
  ip link set eth0 down
  sleep 3
  ip link set eth0 up
  local i
  for ((i = 0; i < 450; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
  kill -0 "$pid" 2>/dev/null && { echo "the client still runs 90 s later"; kill "$pid"; }
  wait "$pid"
  echo "the client exited $? (1: the case failed, as it should)"
  rdma link show rxe0/1
}
nic_up() { # nic_up ADDRESS/PREFIX
  ip addr add "$1" dev eth0
  ip link set eth0 up
}

# The init's PATH is busybox's; the host's tools (ip, rdma, mpirun, dropbear) are in the usual
# places of the shared root.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root
ip link set lo up
# Half a second per point: under emulation a point's overhead (calibration, warm-up, the control
# session) is seconds; what this test checks is that every case runs, not its samples' count.
rdma_args=(run --suite network --filter '^net\.rdma\.' --quiet --no-store --rdma-iters 100 --io-timeout 30
  --point-timeout 0.5)
case $role in
  a)
    hostname guest-a # mpirun and gpubench tell the nodes apart by host name
    # Each guest runs one connection mode in loopback, both at once (one emulated CPU each).
    loopback off || exit 1
    # Host A of the two-host cases.
    nic_up 198.18.1.1/24
    step "rxe0 on eth0" rxe_on eth0 || exit "$status"
    "$GPUBENCH" serve --bind 198.18.1.1 --port 18515 --io-timeout 60 >"$OUT/serve.log" 2>&1 &
    serve=$!
    # B's mpirun starts its daemon here over ssh: B's key, the host key made on the host.
    mkdir -p /root/.ssh /run
    chmod 700 /root/.ssh
    dropbearkey -y -f "$OUT/ssh-client-key" | grep '^ssh-' >/root/.ssh/authorized_keys
    chmod 600 /root/.ssh/authorized_keys
    step "ssh server" dropbear -r "$OUT/ssh-host-key" -s -p 198.18.1.1:22 -P /run/dropbear.pid
    for ((i = 0; i < 50; i++)); do
      grep -q serving "$OUT/serve.log" && break
      sleep 0.2
    done
    touch "$OUT/serve.ready"
    step "host B done" wait_for_file "$OUT/b.done" 500
    kill "$serve" "$(cat /run/dropbear.pid)"
    wait "$serve"
    ;;
  b)
    hostname guest-b
    loopback on
    nic_up 198.18.1.2/24
    rxe_ok=0
    step "rxe0 on eth0" rxe_on eth0 && rxe_ok=1
    # Host A serves once its loopback cases are done.
    if ((rxe_ok)) && step "host A serving" wait_for_file "$OUT/serve.ready" 240; then
      step "two hosts, manual connection, polled" "$GPUBENCH" "${rdma_args[@]}" \
        --peer 198.18.1.1:18515 --sizes 2:1M:32 --rdma-inline 64 \
        --out "$OUT/two-hosts-manual-poll.json"
      step "two hosts, rdma_cm, completion events" "$GPUBENCH" "${rdma_args[@]}" \
        --peer 198.18.1.1:18515 --sizes 2:1M:32 --rdma-inline 64 --rdma-cm on \
        --rdma-completion event --out "$OUT/two-hosts-cm-event.json"
      step "client killed mid-point" killed_client
      step "port down mid-point" port_down
      for transport in ucx tcp; do
        step "allreduce over $transport" bash "$(dirname "$0")/mpi_allreduce.sh" "$transport"
      done
    fi
    touch "$OUT/b.done"
    ;;
  loop-a) # scripts/softroce-send-loop.sh: host A only serves
    hostname guest-a
    nic_up 198.18.1.1/24
    step "rxe0 on eth0" rxe_on eth0 || exit "$status"
    "$GPUBENCH" serve --bind 198.18.1.1 --port 18515 --io-timeout 60 >"$OUT/serve.log" 2>&1 &
    serve=$!
    touch "$OUT/serve.ready"
    step "host B done" wait_for_file "$OUT/b.done" 3000
    kill "$serve"
    wait "$serve"
    ;;
  loop-b) # scripts/softroce-send-loop.sh: LOOP runs of send bandwidth, rdma_cm, events
    hostname guest-b
    nic_up 198.18.1.2/24
    if step "rxe0 on eth0" rxe_on eth0 && step "host A serving" wait_for_file "$OUT/serve.ready" 240
    then
      for ((i = 1; i <= ${LOOP:-20}; i++)); do
        step "send loop $i" one_case "$OUT/send-$i.json" --rdma-op send --rdma-direction uni \
          --sizes 1M:8M --rdma-cm on --rdma-completion event --point-timeout 0.5
      done
    fi
    touch "$OUT/b.done"
    ;;
  *)
    echo "unknown role $role"
    exit 2
    ;;
esac
exit "$status"
