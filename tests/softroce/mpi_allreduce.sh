# Runs in soft-RoCE guest B (guest.sh): coll.allreduce on host buffers across the two guests,
# one rank on each, started by mpirun here with ssh (dropbear's client; A runs its server) as
# Open MPI's rsh agent. `bash mpi_allreduce.sh ucx|tcp`:
#   ucx  pml ucx with UCX_TLS=rc_verbs,ud_verbs,self on rxe0 only. UCX_LOG_LEVEL=info makes UCX
#        print each endpoint's lanes ("ep_cfg[1]: tag(rc_verbs/rxe0:1)"), its own word on what
#        carried the data. UCX_IB_GID_INDEX=0, the IPv6 link-local GID: with the IPv4 one
#        (index 1, UCX's choice) UCX 1.13's ud_verbs on rxe loses its endpoints after a few
#        packets ("UD endpoint ... unhandled timeout error"); rc_verbs needs ud_verbs to connect.
#   tcp  pml ob1 with btls tcp and self on eth0; btl_base_verbose makes Open MPI say which btl
#        reaches each peer ("Using tcp btl for send to ... on node guest-a").
# Writes OUT/coll-T.json (the result), OUT/coll-T.log (mpirun's output) and OUT/coll-T.counters
# (rxe0's sent and received packet counters of both guests before and after), which
# check_coll.py compares.
set -u
transport=$1
agent=$OUT/ssh-agent.sh # in the shared folder: A's daemon reads the same MCA parameters
cat >"$agent" <<AGENT
#!/bin/sh
# Open MPI calls it as "agent [options] HOST COMMAND...": the options are ssh's, not dbclient's.
while [ "\${1#-}" != "\$1" ]; do shift; done
host=\$1
shift
exec dbclient -y -y -i $OUT/ssh-client-key "\$host" "\$*"
AGENT
chmod +x "$agent"

counters() { # counters LABEL: "LABEL HOST SENT RECEIVED" for both guests
  local c=/sys/class/infiniband/rxe0/ports/1/hw_counters
  echo "$1 guest-b $(cat $c/sent_pkts) $(cat $c/rcvd_pkts)"
  echo "$1 guest-a $("$agent" 198.18.1.1 "cat $c/sent_pkts $c/rcvd_pkts" 2>/dev/null | tr '\n' ' ')"
}

common=(--allow-run-as-root -np 2 --host 198.18.1.2,198.18.1.1 --mca plm_rsh_agent "$agent"
  --mca oob_tcp_if_include eth0)
case $transport in
  ucx) args=(--mca pml ucx --mca osc ^ucx -x UCX_TLS=rc_verbs,ud_verbs,self
    -x UCX_NET_DEVICES=rxe0:1 -x UCX_IB_GID_INDEX=0 -x UCX_LOG_LEVEL=info) ;;
  tcp) args=(--mca pml ob1 --mca btl tcp,self --mca btl_tcp_if_include eth0
    --mca btl_base_verbose 100) ;;
  *) echo "usage: mpi_allreduce.sh ucx|tcp"; exit 2 ;;
esac
counters before >"$OUT/coll-$transport.counters"
timeout 240 mpirun "${common[@]}" "${args[@]}" "$GPUBENCH" run --suite collectives --backend mpi \
  --filter '^coll\.allreduce$' --no-store --nodes 2 --check --sizes 4K:1M:16 --coll-timeout 60 --quiet \
  --out "$OUT/coll-$transport.json" >"$OUT/coll-$transport.log" 2>&1
rc=$?
counters after >>"$OUT/coll-$transport.counters"
cat "$OUT/coll-$transport.counters"
exit $rc
