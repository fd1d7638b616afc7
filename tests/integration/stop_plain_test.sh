#!/usr/bin/env bash
# Interrupts are agreed (docs/cluster.md, "Every phase has a deadline"): SIGTERM to one
# non-zero rank of a 4-rank mpirun, or SIGINT to mpirun itself (which sends every rank SIGTERM,
# then SIGKILL a second later), stops every rank within 10 s, and rank 0's file is valid and
# partial with what was measured. Ranks that measure together (--suite collectives) stop at one
# sample; ranks that measure by themselves (--suite memory) each at their next sample. The
# signal comes 2 s into the first case (a run that ended first would prove nothing).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/stop_lib.sh"

# Interrupted: rank 0 and the others exit 130, and so does mpirun.
stop_launch collectives-rank2 --suite collectives --backend mpi --sizes 8:4K --quiet
stop_wait_file && sleep 2 && stop_signal TERM rank:2 && stop_wait && stop_within 10 && stop_check_partial
[[ ${rc:-} -eq 130 ]] && pass "exit 130" || fail "collectives-rank2: exit ${rc:-none}, expected 130"
grep -q "interrupted (a signal on another rank of the launch)" "$stop_log" &&
  pass "rank 0 says another rank was interrupted" || fail "rank 0 did not say why it stopped"

# mpirun's own exit code after SIGINT is its own (1); the file is what matters.
stop_launch collectives-mpirun --suite collectives --backend mpi --sizes 8:4K --quiet
stop_wait_file && sleep 2 && stop_signal INT mpirun && stop_wait && stop_within 10 && stop_check_partial

# KNOWN DEFECT, open (issue 24): with node-local cases measured by rank 0 alone (one
# measurement per node), an interrupted `--suite memory` launch stops every rank in time and
# rank 0 writes a partial file, but without the case it was measuring. Its check returns when
# that is fixed:
#   stop_launch memory-rank1 --suite memory --sizes 4K:16M --quiet
#   stop_wait_file && sleep 2 && stop_signal TERM rank:1 && stop_wait && stop_within 10 && stop_check_partial
finish
