#!/usr/bin/env bash
# gpubench under a real Slurm: one cluster of 4 network-namespace hosts (slurm_lib.sh,
# 198.18.88.0/24), every launch through srun with the flags of docs/cluster.md:
#   refused   srun --mpi=none -N 2: every task exits 2 with the reason and the srun --mpi that
#             works with this build's MPI (the launches below use that plugin), no result file;
#             the other plugin, where MPI_Init fails with it, leaves no result file either
#   coll      --suite collectives --quick on 4 nodes: allreduce at 1, 2 and 4 nodes, data
#             checked; only world rank 0 writes its --out
#   cluster   --suite interconnect --quick: every node (named by its hostname) and every pair
#   killed    one task killed mid-run: with --kill-on-bad-exit=1 the step ends within 15 s;
#             without it, gpubench's own watchdog ends it (--coll-timeout, --cluster-timeout)
set -euo pipefail
gpubench=$1
here=$(cd "$(dirname "$0")" && pwd)
source "$here/slurm_lib.sh"
slurm_begin gbs88
slurm_up 4
# Open MPI over TCP on the hosts' network (docs/collectives.md#slurm); busy-polling ranks on
# "nodes" that share this machine's cores must yield. One PMIx fence algorithm for every
# fence: with Slurm's default (ring for MPI_Init's data exchange, tree for its barrier) about
# one launch in 12 lost a task to a segfault inside MPI_Init here (docs/collectives.md#slurm).
export OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader,tcp OMPI_MCA_btl_tcp_if_include=$SLURM_NET.0/24 \
  OMPI_MCA_mpi_yield_when_idle=1 SLURM_PMIX_FENCE=tree
out=$slurm_dir/out
mkdir -p "$out"
since() { python3 -c "import sys; print(round($(date +%s.%N) - float(sys.argv[1]), 1))" "$1"; }
fail() {
  echo "FAIL: $*"
  exit 1
}
srun_line=(-N 4 --ntasks-per-node=1)  # then --mpi=PLUGIN (the hint), and --kill-on-bad-exit=1

# --- refused: a step without a PMI -----------------------------------------------------------
t=$(date +%s.%N)
rc=0
slurm_srun 30 -N 2 --ntasks-per-node=1 --mpi=none \
  "$gpubench" run --suite collectives --quick --out "$out/refused.json" >"$out/refused.txt" 2>&1 || rc=$?
cat "$out/refused.txt"
[[ $rc -eq 2 ]] || fail "srun --mpi=none: exit $rc, expected 2 from the tasks"
[[ $(grep -c 'srun started 2 tasks without a PMI' "$out/refused.txt") -eq 2 ]] ||
  fail "not every task said why it refused"
grep -q 'nothing was run, no result file written' "$out/refused.txt" || fail "the refusal does not say that no file is written"
[[ ! -e $out/refused.json ]] || fail "a refused launch wrote $out/refused.json: $(head -c 300 "$out/refused.json")"
plugin=$(grep -o 'use srun --mpi=[a-z0-9]*' "$out/refused.txt" | head -1 | cut -d= -f2)
[[ -n $plugin ]] || fail "the refusal names no srun --mpi plugin"
echo "ok: refused in $(since "$t") s; the hint names --mpi=$plugin"
slurm_client 10 srun --mpi=list 2>&1 | grep -qw "$plugin" ||
  slurm_skip "this Slurm has no --mpi=$plugin plugin, which the MPI library of this build needs"
srun_line+=(--mpi="$plugin")
kobe=--kill-on-bad-exit=1
# The other plugin: where MPI_Init fails with it (Open MPI without Slurm's PMI), no file.
other=pmi2
[[ $plugin == pmi2 ]] && other=pmix
rc=0
slurm_srun 30 -N 2 --ntasks-per-node=1 --mpi="$other" \
  "$gpubench" run --suite collectives --quick --sizes 8:8 --out "$out/other.json" >"$out/other.txt" 2>&1 || rc=$?
if [[ $rc -ne 0 ]]; then
  [[ ! -e $out/other.json ]] || fail "a launch that failed in MPI_Init (--mpi=$other) wrote $out/other.json"
  echo "ok: --mpi=$other fails (exit $rc) and leaves no result file"
else
  echo "note: --mpi=$other works with this MPI too"
fi

# --- coll: allreduce from 1 to 4 nodes ---------------------------------------------------------
# Each task gets its own --out (by its Slurm rank): only rank 0's may exist afterwards.
t=$(date +%s.%N)
slurm_srun 90 "${srun_line[@]}" "$kobe" sh -c 'exec "$0" run --suite collectives --quick --backend mpi \
  --place out --check --sizes 64K:64K --quiet --out "$1/coll.$SLURM_PROCID.json"' "$gpubench" "$out" \
  >"$out/coll.txt" 2>&1 || { cat "$out/coll.txt"; fail "srun collectives"; }
echo "collectives: $(since "$t") s"
python3 "$here/coll_check.py" "$out/coll.0.json" --nodes 1,2,4
written=$(cd "$out" && ls coll.*.json | tr '\n' ' ')
[[ $written == "coll.0.json " ]] || fail "result files written: $written (only world rank 0 writes --out)"
python3 - "$out/coll.0.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["system"]["host"] == "n1", d["system"]["host"]  # rank 0's node, by its hostname
assert d["run"]["status"] == "complete", d["run"]["status"]
hosts = [c["context"]["launch"]["hosts"] for c in d["results"] if c["status"] == "ok"]
assert ["n1", "n2", "n3", "n4"] in hosts, hosts
print("ok: written by rank 0 on n1; the 4-node case ran on n1..n4")
PY
# The hint named what works with this MPI (the launch above used it); for Open MPI, pmix.
mpi=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["system"]["software"]["mpi"])' "$out/coll.0.json")
[[ $mpi != "Open MPI"* || $plugin == pmix ]] || fail "$mpi: the hint names --mpi=$plugin, expected pmix"

# --- cluster: every node, every pair -----------------------------------------------------------
t=$(date +%s.%N)
slurm_srun 120 "${srun_line[@]}" "$kobe" "$gpubench" run --suite interconnect --quick --sizes 64K:64K \
  --pair-sizes 8,64K --backend mpi --place out --out "$out/cluster.json" >"$out/cluster.txt" 2>&1 ||
  { cat "$out/cluster.txt"; fail "srun interconnect"; }
echo "cluster launch: $(since "$t") s"
grep '^# cluster\|^# suspect' "$out/cluster.txt" || true
python3 "$here/cluster_check.py" "$out/cluster.json" --nodes n1,n2,n3,n4 --allreduce

# --- killed: one task killed mid-run -----------------------------------------------------------
# kill_task NAME FILE_READY LIMIT SRUN_ARGS...: starts the launch, waits until rank 0's file
# says the run is under way (FILE_READY: a grep pattern; rank 0 writes the file once MPI is
# up and the cases are planned), kills host n3's gpubench, and sets
# `ended` (seconds from the kill to srun's end) and `rc`.
kill_task() {
  local name=$1 ready=$2 limit=$3 srun_pid victim="" k
  shift 3
  slurm_srun "$limit" "$@" --out "$out/$name.json" >"$out/$name.txt" 2>&1 &
  srun_pid=$!
  for _ in $(seq 1 1200); do
    grep -q "$ready" "$out/$name.json" 2>/dev/null && break
    kill -0 "$srun_pid" 2>/dev/null || break
    sleep 0.05
  done
  victim=$(slurm_node_pid 3 gpubench)
  [[ -n $victim ]] || { cat "$out/$name.txt"; fail "$name: no gpubench task on n3"; }
  kill -KILL "$victim"
  k=$(date +%s.%N)
  rc=0
  wait "$srun_pid" || rc=$?
  ended=$(since "$k")
  echo "$name: srun ended $ended s after the kill (exit $rc)"
  # (137 is srun's own code for a task killed by SIGKILL; a hang shows as the time, checked by
  # the caller against a bound far below LIMIT.)
  [[ $rc -ne 0 && $rc -ne 124 ]] || { cat "$out/$name.txt"; fail "$name: exit $rc (0: the kill went unseen; 124: srun hung and was ended by the test)"; }
}
within() { python3 -c "import sys; sys.exit(0 if $1 <= $2 else 1)"; }
# The 4-node case only: every rank is a member, so the others stall on the dead one at once.
coll_run=("$gpubench" run --suite collectives --quick --backend mpi --place out --nodes 4
  --sizes 64K:4M --quiet)

# With --kill-on-bad-exit=1 Slurm ends the step (KillWait=5 in slurm_lib.sh's config).
kill_task killed_kobe '"run"' 60 "${srun_line[@]}" "$kobe" "${coll_run[@]}" --coll-timeout 60
within "$ended" 15 || { cat "$out/killed_kobe.txt"; fail "the step took $ended s to end after a task died"; }

# Without it, the ranks waiting on the dead one abort the job after --coll-timeout.
coll_timeout=5
kill_task killed_coll '"run"' 60 "${srun_line[@]}" "${coll_run[@]}" --coll-timeout "$coll_timeout"
within "$ended" $((2 * coll_timeout + 15)) || { cat "$out/killed_coll.txt"; fail "took $ended s"; }
grep -q "no progress for $coll_timeout s" "$out/killed_coll.txt" ||
  { cat "$out/killed_coll.txt"; fail "gpubench's watchdog did not say why it ended the job"; }

# Cluster mode: rank 0 marks the node stalled after --cluster-timeout and ends the job.
cluster_timeout=5
kill_task killed_cluster '"rounds": *[1-9]' 60 "${srun_line[@]}" \
  "$gpubench" run --suite network --pair-sizes 8,64K --cluster-timeout "$cluster_timeout"
within "$ended" $((cluster_timeout + 15)) || { cat "$out/killed_cluster.txt"; fail "took $ended s"; }
grep -q "stopped answering" "$out/killed_cluster.txt" || { cat "$out/killed_cluster.txt"; fail "no message naming the node"; }
python3 "$here/cluster_check.py" "$out/killed_cluster.json" --nodes n1,n2,n3,n4 --stalled n3
echo "ok: Slurm launches"
