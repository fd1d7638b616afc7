#!/usr/bin/env bash
# An interrupt while every rank is inside one long collective call, which nothing can
# interrupt (docs/cluster.md, "Every phase has a deadline"): 3 test hosts in network namespaces
# with 10 Mbit/s links, where one 16 MiB allreduce takes about 20 s. The run cannot stop at a
# sample boundary in time, so the interrupted rank ends the job after its grace (3.5 s; rank 0:
# 3 s) with MPI_Abort, and rank 0, which mpirun sends SIGTERM first, writes its partial file at
# once. Signalled: rank 1 alone; then every rank (what srun does with a Ctrl-C).
set -uo pipefail
export GPUBENCH=$1 SCHEMA=$2
here=$(cd "$(dirname "$0")" && pwd)
source "$here/lib.sh"
source "$here/mpi_netns_lib.sh"
MPI_NETNS_NET=198.18.48
MPI_NETNS_TBF="burst 64kb latency 100ms"
MPI_NETNS_BTL=self,tcp
mpi_netns_begin gbst
trap 'mpi_netns_down; rm -rf "$tmp" "$TEST_TMP"' EXIT
mpi_netns_up 3 10mbit

# The pids of gpubench world ranks $@ in this test's namespaces.
rank_pids() {
  local ns p r
  for ns in "$prefix-h1" "$prefix-h2" "$prefix-h3"; do
    for p in $(ip netns pids "$ns"); do
      tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | grep -q "gpubench run --suite collectives" || continue
      for r in "$@"; do
        tr '\0' '\n' <"/proc/$p/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$r" && echo "$p"
      done
    done
  done
}

# long_case NAME RANK...: starts the launch; 3 s into the 3-host case (inside its first
# 16 MiB allreduce) sends SIGTERM to the given ranks; checks the end and rank 0's file.
long_case() {
  local name=$1 file="$tmp/$1.json" log="$tmp/$1.txt" pid pids t0 rc=0 took
  shift
  mpi_netns_mpirun 3 120 "$GPUBENCH" run --suite collectives --backend mpi --nodes 1,3 \
    --place out --sizes 16M:16M --quiet --out "$file" >"$log" 2>&1 &
  pid=$!
  for _ in $(seq 1 900); do
    python3 -c "import json,sys; sys.exit(0 if json.load(open('$file'))['results'] else 1)" \
      2>/dev/null && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  sleep 3
  pids=$(rank_pids "$@")
  [[ -n $pids ]] || { sed 's/^/  | /' "$log" | tail; fail "$name: ranks $* not found"; return; }
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086 # one pid a word
  kill -TERM $pids
  wait "$pid" || rc=$?
  took=$(python3 -c "print(round($(date +%s.%N) - $t0, 1))")
  echo "$name: mpirun ended ${took} s after SIGTERM to rank(s) $* (rc $rc)"
  if [[ $rc -eq 124 ]] || ! python3 -c "import sys; sys.exit(0 if $took < 10 else 1)"; then
    sed 's/^/  | /' "$log" | tail -20
    fail "$name: took ${took} s (rc $rc), expected under 10 s"
  else
    pass "$name: every rank stopped within 10 s (${took} s)"
  fi
  [[ $rc -eq 130 ]] && pass "$name: MPI_Abort's code 130" || fail "$name: exit $rc, expected 130"
  grep -q "did not stop within" "$log" && pass "$name: a rank says why it ends the job" ||
    fail "$name: no rank said it ends the job"
  validate "$file"
  python3 - "$file" <<'PY' && pass "$name: rank 0's file is partial" || fail "$name: rank 0's file is not partial"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["run"]["status"] == "partial" and d["run"]["finished"], d["run"]
assert d["results"], "nothing kept"
PY
}

long_case rank1 1
long_case every-rank 0 1 2
finish
