# A real Slurm cluster of network-namespace hosts for the Slurm tests (slurm_*_test.sh):
# munged, slurmctld and one slurmd per host, started and stopped by the test. Source it, then
#   slurm_begin NAME   skip (exit 77, with the reason) when it cannot run; trap that cleans up
#   slurm_up N         hosts n1..nN, every node idle in Slurm
#   slurm_srun LIMIT ARGS...   srun ARGS on the cluster (from the login host), ended after LIMIT s
#   slurm_node_pid I COMM      the pid of a process named COMM on host nI ("" when none)
#
# Layout (everything per run: two runs at once never meet):
#   network  198.18.88.0/24 on a bridge in namespace $prefix-sw; host nI (namespace $prefix-hI)
#            at .I, the login host ($prefix-c, slurmctld and srun) at .254. Every daemon and
#            srun live in the test's own namespaces, so Slurm's usual ports are free there and
#            the root namespace gets no address or route.
#   hosts    each slurmd runs in its host's network namespace with its own hostname (UTS
#            namespace: gpubench's node name is the hostname) and its own mount namespace.
#   files    config, munge key and socket, logs, pid files, spool, state: under $slurm_dir.
#   cleanup  daemons stopped by the pids recorded when they started, then whatever still runs
#            in the test's namespaces (slurmstepd, tasks) by pid; namespaces and files removed.
SLURM_NET=198.18.88
SLURM_DAEMONS=()  # pid files of what slurm_up started, stopped in reverse order

slurm_skip() {
  echo "SKIP: $*"
  exit 77
}

# slurm_begin NAME: sets `prefix` (NAME-PID, every namespace starts with it), `slurm_dir` and
# the EXIT trap, after checking that this machine can run a namespace cluster.
slurm_begin() {
  local name=$1 c
  [[ $(id -u) -eq 0 ]] || slurm_skip "needs root (network namespaces, slurmd)"
  for c in slurmctld slurmd srun sinfo scancel munged ip unshare setsid mount python3; do
    command -v "$c" >/dev/null || slurm_skip "no $c in PATH (scripts/setup.sh --tests installs slurmctld, slurmd, slurm-client and munge)"
  done
  prefix="$name-$$"
  # A short base: Unix socket paths (munge, PMIx under the spool) must stay under 108 bytes.
  slurm_dir=$(mktemp -d "/tmp/$name.XXXXXX")
  trap 'slurm_down' EXIT
  trap 'exit 143' TERM  # so that the EXIT trap cleans up
  trap 'exit 130' INT
  ip netns add "$prefix-sw" 2>/dev/null || slurm_skip "cannot create network namespaces here"
  # slurmd 22.05 detects a cgroup version even with proctrack/linuxproc and task/none; inside a
  # namespace host it is given a tmpfs on /sys/fs/cgroup with an empty named v1 hierarchy of
  # this run. Can this kernel and this container do that?
  unshare --mount sh -c "mount -t tmpfs -o size=64k gpubench-slurm /sys/fs/cgroup &&
    mkdir /sys/fs/cgroup/systemd && mount -t cgroup -o none,name=$prefix gpubench-slurm /sys/fs/cgroup/systemd" \
    2>"$slurm_dir/cgroup.err" ||
    slurm_skip "cannot mount a named cgroup v1 hierarchy in a mount namespace (slurmd 22.05 needs one): $(head -c 200 "$slurm_dir/cgroup.err")"
}

# slurm_start PIDFILE LOG COMMAND...: COMMAND in a new session, its pid recorded (setsid,
# ip netns exec and unshare exec: the recorded pid is the daemon's own).
slurm_start() {
  local pidfile=$1 log=$2
  shift 2
  setsid "$@" </dev/null >"$log" 2>&1 &
  echo $! >"$pidfile"
  SLURM_DAEMONS+=("$pidfile")
}

# slurm_stop PIDFILE: TERM, up to 10 s, then KILL; only the pid this test recorded.
slurm_stop() {
  local pidfile=$1 pid
  [[ -s $pidfile ]] || return 0
  pid=$(tr -dc 0-9 <"$pidfile")
  rm -f "$pidfile"
  [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 50); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.2
  done
  kill -KILL "$pid" 2>/dev/null || true
}

slurm_write_conf() {
  local n=$1 i nodes=""
  : >"$slurm_dir/plugstack.conf"
  cat >"$slurm_dir/slurm.conf" <<EOF
# A test cluster of network-namespace hosts (tests/integration/slurm_lib.sh), run $$.
ClusterName=gpb$$
SlurmctldHost=ctl($SLURM_NET.254)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$slurm_dir/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$slurm_dir/ctld
SlurmctldPidFile=$slurm_dir/ctld/slurmctld.pid
SlurmctldLogFile=$slurm_dir/ctld/slurmctld.log
SlurmdSpoolDir=$slurm_dir/%n/spool
SlurmdPidFile=$slurm_dir/%n/slurmd.pid
SlurmdLogFile=$slurm_dir/%n/slurmd.log
TmpFS=$slurm_dir/%n/tmp
PlugStackConfig=$slurm_dir/plugstack.conf
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MailProg=/bin/true
InactiveLimit=0
KillWait=5
MinJobAge=10
SlurmctldDebug=info
SlurmdDebug=info
EOF
  for ((i = 1; i <= n; i++)); do
    echo "NodeName=n$i NodeHostname=n$i NodeAddr=$SLURM_NET.$i CPUs=$(nproc) RealMemory=1000 State=UNKNOWN" \
      >>"$slurm_dir/slurm.conf"
    nodes+="${nodes:+,}n$i"
  done
  echo "PartitionName=test Nodes=$nodes Default=YES MaxTime=INFINITE State=UP" >>"$slurm_dir/slurm.conf"
}

# slurm_netns NAME ADDR PORT: a host on the test's bridge (PORT: its veth in the switch).
slurm_netns() {
  local ns=$1 addr=$2 port=$3
  ip netns add "$ns"
  ip link add eth0 netns "$ns" type veth peer name "$port" netns "$prefix-sw"
  ip -n "$prefix-sw" link set "$port" master br0 up
  ip -n "$ns" addr add "$addr/24" dev eth0
  ip -n "$ns" link set eth0 up
  ip -n "$ns" link set lo up
}

slurm_up() {
  local n=$1 i t idle
  export SLURM_CONF=$slurm_dir/slurm.conf
  mkdir -p "$slurm_dir/munge" "$slurm_dir/ctld"
  chmod 0700 "$slurm_dir/munge"
  dd if=/dev/urandom of="$slurm_dir/munge/munge.key" bs=1024 count=1 status=none
  chmod 0400 "$slurm_dir/munge/munge.key"
  slurm_start "$slurm_dir/munge/munged.pid" "$slurm_dir/munge/munged.out" \
    munged --foreground --force --socket="$slurm_dir/munge/munge.socket" \
    --key-file="$slurm_dir/munge/munge.key" --log-file="$slurm_dir/munge/munged.log" \
    --seed-file="$slurm_dir/munge/munged.seed" --pid-file="$slurm_dir/munge/munged.pidfile"

  ip -n "$prefix-sw" link add br0 type bridge
  ip -n "$prefix-sw" link set br0 up
  slurm_netns "$prefix-c" "$SLURM_NET.254" pc
  for ((i = 1; i <= n; i++)); do
    slurm_netns "$prefix-h$i" "$SLURM_NET.$i" "p$i"
    mkdir -p "$slurm_dir/n$i/spool" "$slurm_dir/n$i/tmp"
  done
  slurm_write_conf "$n"

  for _ in $(seq 1 50); do
    [[ -S $slurm_dir/munge/munge.socket ]] && break
    sleep 0.1
  done
  slurm_start "$slurm_dir/ctld/run.pid" "$slurm_dir/ctld/slurmctld.out" \
    ip netns exec "$prefix-c" unshare --uts sh -c "hostname ctl && exec slurmctld -D -i -f '$SLURM_CONF'"
  for ((i = 1; i <= n; i++)); do
    slurm_start "$slurm_dir/n$i/run.pid" "$slurm_dir/n$i/slurmd.out" \
      ip netns exec "$prefix-h$i" unshare --uts sh -c \
      "mount -t tmpfs -o size=64k,mode=755 gpubench-slurm /sys/fs/cgroup &&
       mkdir /sys/fs/cgroup/systemd &&
       mount -t cgroup -o none,name=$prefix gpubench-slurm /sys/fs/cgroup/systemd &&
       hostname n$i && exec slurmd -D -N n$i -f '$SLURM_CONF'"
  done
  local start=$SECONDS f
  while ((SECONDS - start < 60)); do
    idle=$(slurm_client 5 sinfo -h -N -o '%T' 2>/dev/null | grep -c '^idle' || true)
    [[ $idle -eq $n ]] && { echo "slurm: $n nodes idle after $((SECONDS - start)) s"; return 0; }
    for f in "${SLURM_DAEMONS[@]}"; do
      kill -0 "$(cat "$f")" 2>/dev/null || { slurm_logs; echo "FAIL: a daemon ($f) exited"; exit 1; }
    done
    sleep 0.2
  done
  slurm_logs
  echo "FAIL: $idle of $n nodes idle after 60 s"
  exit 1
}

slurm_logs() {
  local f
  for f in "$slurm_dir"/munge/munged.log "$slurm_dir"/ctld/slurmctld.{out,log} "$slurm_dir"/n*/slurmd.{out,log}; do
    [[ -s $f ]] && { echo "--- $f"; tail -n 15 "$f"; }
  done
  slurm_client 5 sinfo -N 2>&1 || true
}

# slurm_client LIMIT COMMAND...: a Slurm client command (srun, sinfo, scancel...) on the login
# host with the test's config; TERM after LIMIT s (srun then cancels its step), KILL 10 s later.
slurm_client() {
  local limit=$1
  shift
  timeout -k 10 "$limit" ip netns exec "$prefix-c" env -u GPUBENCH_NODE_NAME SLURM_CONF="$SLURM_CONF" "$@"
}

# slurm_srun LIMIT ARGS...: srun ARGS on the cluster.
slurm_srun() {
  local limit=$1
  shift
  slurm_client "$limit" srun "$@"
}

# slurm_node_pid I COMM: a process named COMM in host nI's namespace.
slurm_node_pid() {
  local pid
  for pid in $(ip netns pids "$prefix-h$1" 2>/dev/null); do
    [[ $(cat "/proc/$pid/comm" 2>/dev/null) == "$2" ]] && { echo "$pid"; return 0; }
  done
  return 0
}

slurm_down() {
  local ns i pids f start=$SECONDS
  if [[ -n ${SLURM_CONF:-} && -s $slurm_dir/ctld/run.pid ]]; then
    slurm_client 10 scancel --quiet --user=root 2>/dev/null || true
  fi
  for ((i = ${#SLURM_DAEMONS[@]} - 1; i >= 0; i--)); do
    f=${SLURM_DAEMONS[$i]}
    [[ $f == */munge/* ]] || slurm_stop "$f"
  done
  # What still runs in the test's namespaces (slurmstepd, tasks) was started through this cluster.
  for ns in $(ip netns list | awk '{print $1}' | grep "^$prefix-" || true); do
    for i in 1 2 3; do
      pids=$(ip netns pids "$ns" 2>/dev/null | tr '\n' ' ')
      [[ -z $pids ]] && break
      # shellcheck disable=SC2086 # a list of pids
      kill -KILL $pids 2>/dev/null || true
      sleep 0.2
    done
    ip netns del "$ns" 2>/dev/null || true
  done
  [[ -n ${slurm_dir:-} ]] && slurm_stop "$slurm_dir/munge/munged.pid"
  [[ -n ${slurm_dir:-} ]] && rm -rf "$slurm_dir"
  echo "slurm: down in $((SECONDS - start)) s"
  return 0
}
