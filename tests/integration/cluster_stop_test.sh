#!/usr/bin/env bash
# Cluster mode's allreduce phase keeps the promises of the rest (docs/cluster.md, "Every phase
# has a deadline"): 4 loopback ranks with test-only node names, 3 pair rounds, then allreduce.
# In that phase, SIGTERM to one non-zero rank or SIGINT to mpirun stops every rank within 10 s
# with rank 0's partial file; and a rank that stops answering (SIGSTOP) ends the job within
# --cluster-timeout (5 s; plus 8 s for MPI_Abort to end every rank), as in the pair rounds: the
# collectives' stall limit is the cluster timeout when --coll-timeout is not given.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/stop_lib.sh"
args=(--suite interconnect --filter 'net.tcp.latency|coll.allreduce' --backend mpi --sizes 1M:256M)

# Interrupted once the pair rounds are done (the allreduce sweep lasts several seconds).
stop_launch allreduce-rank2 "${args[@]}" --cluster-timeout 30
stop_wait_line "pair round 3/3 done" && sleep 1 && stop_signal TERM rank:2 && stop_wait &&
  stop_within 10 && stop_check_partial
[[ ${rc:-} -eq 130 ]] && pass "exit 130" || fail "allreduce-rank2: exit ${rc:-none}, expected 130"
# The pair rounds all done, and the allreduce phase's cases as far as it got.
python3 - "$stop_file" <<'PY' && pass "every pair round kept, and the allreduce cases so far" ||
import json, sys
d = json.load(open(sys.argv[1]))
cl = d["cluster"]
assert cl["schedule"]["rounds"] == 3, cl["schedule"]
lat = [m for m in cl["pairs"] if m["benchmark"] == "net.tcp.latency"]
assert lat and all(v is not None for v in lat[0]["median"]) and len(lat[0]["median"]) == 6, lat
assert any(c["benchmark"] == "coll.allreduce" for c in d["results"]), "no allreduce case"
PY
  fail "allreduce-rank2: the partial file lacks the pair rounds or the allreduce cases"

stop_launch allreduce-mpirun "${args[@]}" --cluster-timeout 30
stop_wait_line "pair round 3/3 done" && sleep 1 && stop_signal INT mpirun && stop_wait &&
  stop_within 10 && stop_check_partial

timeout_s=5
stop_launch allreduce-stalled "${args[@]}" --cluster-timeout "$timeout_s"
stop_wait_line "pair round 3/3 done" && sleep 1 && stop_signal STOP rank:3 && stop_wait &&
  stop_within $((timeout_s + 8)) && stop_check_partial
[[ ${rc:-0} -ne 0 ]] && pass "a stalled rank is a failed job (rc $rc)" || fail "allreduce-stalled: exit 0"
grep -q "no progress for $timeout_s s" "$stop_log" && pass "a rank names the stall" ||
  fail "allreduce-stalled: no rank said 'no progress for $timeout_s s'"
finish
