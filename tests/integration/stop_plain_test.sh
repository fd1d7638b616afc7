#!/usr/bin/env bash
# Interrupts are agreed (docs/cluster.md, "Every phase has a deadline"): SIGTERM to one
# non-zero rank of a 4-rank mpirun, or SIGINT to mpirun itself (which sends every rank SIGTERM,
# then SIGKILL a second later), stops every rank within 10 s, and rank 0's file is valid and
# partial with what was measured. Ranks that measure together (--suite collectives) stop at one
# sample; ranks that measure by themselves (--suite memory) each at their next sample. The
# signal comes 2 s after the run began; the sizes make every run last well past it on an idle
# machine (a run that ended first would prove nothing, and says so).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/stop_lib.sh"

# Interrupted: rank 0 and the others exit 130, and so does mpirun.
stop_launch collectives-rank2 --suite collectives --backend mpi --sizes 1M:128M --quiet
stop_wait_file && sleep 2 && stop_signal TERM rank:2 && stop_wait && stop_within 10 && stop_check_partial
[[ ${rc:-} -eq 130 ]] && pass "exit 130" || fail "collectives-rank2: exit ${rc:-none}, expected 130"
grep -q "interrupted (a signal on another rank of the launch)" "$stop_log" &&
  pass "rank 0 says another rank was interrupted" || fail "rank 0 did not say why it stopped"

# mpirun's own exit code after SIGINT is its own (1); the file is what matters.
stop_launch collectives-mpirun --suite collectives --backend mpi --sizes 1M:128M --quiet
stop_wait_file && sleep 2 && stop_signal INT mpirun && stop_wait && stop_within 10 && stop_check_partial

# Ranks that measure by themselves. Four test-only nodes (cluster mode's local phase, every node
# at once): rank 0 keeps every node's case as far as it got, the interrupted rank's too.
stop_launch memory-nodes --suite memory --sizes 4K:64M --quiet
stop_wait_file && sleep 2 && stop_signal TERM rank:1 && stop_wait && stop_within 10 && stop_check_partial
python3 - "$stop_file" <<'PY' && pass "memory-nodes: every node's case is kept" ||
import json, sys
nodes = json.load(open(sys.argv[1]))["cluster"]["nodes"]
assert len(nodes) == 4, nodes
for n in nodes:
    assert any(c["benchmark"] == "memory.host.copy" for c in n.get("results", [])), n["name"]
PY
  fail "memory-nodes: a node's measurements are missing from rank 0's file"

# One node of four ranks: rank 0 measures for the node (one measurement per node) while the
# others wait; its case in progress is kept. Sizes up to 1 GiB keep it busy past the signal.
GPUBENCH_NODE_NAME=one stop_launch memory-one-node --suite memory --sizes 4K:1G --quiet
stop_wait_file && sleep 2 && stop_signal TERM rank:1 && stop_wait && stop_within 10 && stop_check_partial
finish
