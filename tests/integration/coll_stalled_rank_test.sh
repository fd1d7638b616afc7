#!/usr/bin/env bash
# A rank that stops (SIGSTOP: hung, not dead, so mpirun does not notice) ends the whole MPI
# job through the watchdog's MPI_Abort within --coll-timeout, never a hang: once when the
# stopped rank sits outside the sub-communicator under test (the others wait for it at the
# world barrier after the case), once when it is a member (its peers wait in a collective).
# Three test hosts in network namespaces, one rank each (two ranks in one namespace crash
# Open MPI 4.1 here: the namespaces share a hostname and /tmp); --nodes 2,3, so rank 2 on h3
# is idle during the 2-node cases.
set -euo pipefail
gpubench=$1
here=$(cd "$(dirname "$0")" && pwd)
source "$here/coll_netns_lib.sh"
MPI_NETNS_BTL=self,tcp
mpi_netns_begin gbc7
limit=5
mpi_netns_up 3 ""

# The pid of world rank $2 among the gpubench processes of namespace $1.
rank_pid() {
  local ns=$1 want=$2 pid
  for pid in $(ip netns pids "$ns"); do
    [[ -r /proc/$pid/cmdline ]] || continue
    tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q "gpubench.* run --suite collectives" || continue
    tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$want" &&
      { echo "$pid"; return 0; }
  done
  return 1
}

# run_case NAME NS RANK: starts the launch, stops world rank RANK (in namespace NS) once rank
# 0 has recorded the first case, and checks the job ends through MPI_Abort in time.
run_case() {
  local name=$1 ns=$2 rank=$3 out="$tmp/$1.txt" result="$tmp/$1.json" pid victim="" rc=0
  local start elapsed
  start=$(date +%s)
  mpi_netns_mpirun 3 120 \
    "$gpubench" run --suite collectives --backend mpi --nodes 2,3 --place both --sizes 8:1M \
    --coll-timeout "$limit" --quiet --out "$result" >"$out" 2>&1 &
  pid=$!
  for _ in $(seq 1 600); do
    if [[ -s $result ]] && python3 - "$result" <<'PY'
import json, sys
try:
    doc = json.load(open(sys.argv[1]))
except Exception:
    sys.exit(1)
sys.exit(0 if any(c["status"] in ("ok", "skipped", "failed") for c in doc["results"]) else 1)
PY
    then
      victim=$(rank_pid "$ns" "$rank" || true)
      break
    fi
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if [[ -z $victim ]]; then
    kill "$pid" 2>/dev/null || true
    wait "$pid" || true
    cat "$out"
    echo "FAIL ($name): rank $rank never found after the first case"
    exit 1
  fi
  kill -STOP "$victim"
  start=$(date +%s)  # from the stop: the limit is what a hung rank may cost
  wait "$pid" || rc=$?
  elapsed=$(($(date +%s) - start))
  sed 's/^/  | /' "$out" | tail -15
  [[ $rc -ne 0 ]] || { echo "FAIL ($name): the job exited 0 with a stopped rank"; exit 1; }
  [[ $rc -ne 124 ]] || { echo "FAIL ($name): the job hung until timeout(1) killed it"; exit 1; }
  grep -q "aborting the MPI job" "$out" ||
    { echo "FAIL ($name): no rank said it aborts the job"; exit 1; }
  # mpirun says so, or, when Open MPI 4.1 loses its own help message ("ORTE_ERROR_LOG: Data
  # unpack would read past end of buffer ... show_help.c", seen once in CI), exits with the
  # code gpubench aborts with (3).
  grep -qi "MPI_ABORT" "$out" || [[ $rc -eq 3 ]] ||
    { echo "FAIL ($name): mpirun did not report MPI_Abort (exit $rc)"; exit 1; }
  ((elapsed < 60)) || { echo "FAIL ($name): took $elapsed s after the stop"; exit 1; }
  echo "ok ($name): rank $rank stopped, the job ended through MPI_Abort (exit $rc) $elapsed s later"
}

run_case outside "$prefix-h3" 2
run_case member "$prefix-h2" 1
