#!/usr/bin/env bash
# Cluster mode with a rank that stops answering: 4 test hosts in network namespaces; once the
# pair rounds have begun, host 3's gpubench is stopped (SIGSTOP). Rank 0 marks n3 stalled after
# the cluster timeout and goes on with the rounds without it (its later pairs not measured, each
# saying why), names it as a suspect, and ends the job (MPI_Abort) after writing the file: within
# the timeout, the rounds left (3 s each at most here) and 8 s for MPI_Abort to end every rank;
# never a hang. n3's rank, let go on once it is left out, waits for that end.
set -euo pipefail
gpubench=$1
here=$(cd "$(dirname "$0")" && pwd)
source "$here/cluster_netns_lib.sh"
mpi_netns_begin gbk40c tc
hosts=4 timeout_s=10
mpi_netns_up "$hosts" "200mbit"
mpi_netns_mpirun "$hosts" 90 \
  "$gpubench" run --suite network --filter 'net.tcp' --cluster-timeout "$timeout_s" \
  --out "$tmp/cluster.json" 2>&1 | while IFS= read -r l; do echo "$(date +%T.%N | cut -c1-10) $l"; done >"$tmp/out.txt" &
launcher=$!
# Wait for the first finished pair round, then stop host 3's rank.
for _ in $(seq 1 600); do
  grep -q '"rounds": *[1-9]' "$tmp/cluster.json" 2>/dev/null && break
  kill -0 "$launcher" 2>/dev/null || break
  sleep 0.05
done
victim=""
for pid in $(ip netns pids "$prefix-h3"); do
  [[ $(cat "/proc/$pid/comm" 2>/dev/null) == gpubench ]] && victim=$pid
done
[[ -n $victim ]] || { cat "$tmp/out.txt"; echo "FAIL: no gpubench rank on host 3"; exit 1; }
kill -STOP "$victim"
stopped=$(date +%s.%N); echo "stopped at $(date +%T.%N)"
# Once rank 0 has left n3 out, n3's rank is let go on: it must take the word that it is out
# and wait for the job's end, not end the job itself for want of a command.
for _ in $(seq 1 600); do
  grep -q "stopped answering" "$tmp/out.txt" 2>/dev/null && break
  kill -0 "$launcher" 2>/dev/null || break
  sleep 0.05
done
kill -CONT "$victim" 2>/dev/null || true
rc=0
wait "$launcher" || rc=$?
took=$(python3 -c "print(round($(date +%s.%N) - $stopped, 1))")
echo "mpirun ended ${took} s after the stop (rc $rc, cluster timeout ${timeout_s} s)"
[[ $rc -ne 0 && $rc -ne 124 ]] || { cat "$tmp/out.txt"; echo "FAIL: rc $rc (0: no abort; 124: hung)"; exit 1; }
python3 -c "import sys; sys.exit(0 if $took <= $timeout_s + 2 * 3 + 8 else 1)" ||
  { cat "$tmp/out.txt"; echo "FAIL: took ${took} s"; exit 1; }
grep -q "stopped answering" "$tmp/out.txt" || { cat "$tmp/out.txt"; echo "FAIL: no message naming the node"; exit 1; }
grep -q "rank 2: answered too late and was left out of the launch" "$tmp/out.txt" ||
  { cat "$tmp/out.txt"; echo "FAIL: n3's rank, let go on, did not say it was left out"; exit 1; }
! grep -q "rank 2: .*aborting the MPI job" "$tmp/out.txt" ||
  { cat "$tmp/out.txt"; echo "FAIL: n3's rank ended the job"; exit 1; }
grep -q "^.\{11\}# suspect node n3: .*stopped answering" "$tmp/out.txt" ||
  { cat "$tmp/out.txt"; echo "FAIL: the verdict does not name n3 as stopped"; exit 1; }
python3 "$here/cluster_check.py" "$tmp/cluster.json" --nodes n1,n2,n3,n4 --stalled n3 --went-on
