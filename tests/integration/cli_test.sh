#!/usr/bin/env bash
# The command line: version, help, list, and usage errors (exit 2 with a clear message).
source "$(dirname "$0")/lib.sh"
set -e

expect_exit 0 "--version" -- "$GPUBENCH" --version
expect_contains "$out" "gpubench " "--version names the tool"
expect_exit 0 "--help" -- "$GPUBENCH" --help
expect_contains "$out" "Exit codes" "--help documents exit codes"
expect_exit 0 "list" -- "$GPUBENCH" list
for id in memory.host.copy gpu.h2d gpu.d2h gpu.bidir gpu.p2p.bandwidth gpu.p2p.latency \
  gpu.host.latency net.tcp.latency net.tcp.bandwidth net.rdma.latency net.rdma.bandwidth coll.allreduce; do
  expect_contains "$out" "$id" "list shows $id"
done
expect_exit 0 "list --suite memory" -- "$GPUBENCH" list --suite memory
[[ $out != *"gpu.h2d"* ]] && pass "list --suite memory leaves gpu out" || fail "list --suite memory shows gpu.h2d"

expect_exit 2 "no subcommand" -- "$GPUBENCH" || true
expect_exit 2 "run without --suite" -- "$GPUBENCH" run || true
expect_contains "$err" "--suite" "names the missing option"
expect_exit 2 "unknown suite" -- "$GPUBENCH" run --suite nosuch || true
expect_contains "$err" "unknown suite 'nosuch'" "names the bad suite"
expect_exit 2 "bad filter regex" -- "$GPUBENCH" run --suite memory --filter '(' || true
expect_contains "$err" "not a valid regular expression" "explains the bad regex"
expect_exit 2 "filter matching nothing" -- "$GPUBENCH" run --suite memory --filter nomatch || true
expect_exit 2 "bad sizes" -- "$GPUBENCH" run --suite memory --sizes 64M:4K || true
expect_contains "$err" "minimum is above the maximum" "explains the bad size range"
expect_exit 2 "unknown subcommand" -- "$GPUBENCH" frobnicate || true
expect_exit 2 "unknown option" -- "$GPUBENCH" run --suite memory --no-such-option || true
# Options are checked whether or not their benchmark runs (memory runs neither TCP nor allreduce).
expect_exit 2 "bad --busy-poll, its benchmark filtered out" -- "$GPUBENCH" run --suite memory --busy-poll x || true
expect_contains "$err" "--busy-poll" "names --busy-poll"
expect_exit 2 "bad --dtype, its benchmark filtered out" -- "$GPUBENCH" run --suite memory --dtype xxx || true
expect_contains "$err" "xxx" "names the bad dtype"
# An --out that cannot be written is bad usage (2), found before anything runs.
touch "$TEST_TMP/plainfile"
expect_exit 2 "unwritable --out" -- "$GPUBENCH" run --suite memory --quick --out "$TEST_TMP/plainfile/r.json" || true
expect_contains "$err" "--out" "names --out"
[[ $out != *"memory.host.copy"* ]] && pass "nothing ran before the --out error" || fail "a benchmark ran before the --out error: $out"

# An srun step without a PMI (as Slurm's variables say): refused before anything runs, whatever
# the selection, and no result file.
expect_exit 2 "srun without a PMI" -- env SLURM_PROCID=1 SLURM_STEP_NUM_TASKS=4 SLURM_NTASKS=4 \
  "$GPUBENCH" run --suite memory --quick --out "$TEST_TMP/nopmi.json" || true
expect_contains "$err" "nothing was run, no result file written" "says nothing was written"
[[ ! -e $TEST_TMP/nopmi.json ]] && pass "no result file without a PMI" || fail "a result file was written without a PMI"

# report and compare read result files with one strict reader.
printf '{"schema": "gpubench.result/1", "schema": "gpubench.result/1"}' >"$TEST_TMP/dup.json"
expect_exit 2 "report: duplicate key" -- "$GPUBENCH" report "$TEST_TMP/dup.json" --csv - || true
expect_contains "$err" "duplicate key 'schema'" "report names the duplicate key"
expect_exit 2 "compare: duplicate key" -- "$GPUBENCH" compare "$TEST_TMP/dup.json" "$TEST_TMP/dup.json" || true
expect_contains "$err" "duplicate key 'schema'" "compare names the duplicate key"
mkdir -p "$TEST_TMP/adir"
expect_exit 2 "report: a directory" -- "$GPUBENCH" report "$TEST_TMP/adir" --csv - || true
expect_contains "$err" "is a directory" "says it is a directory"
# The training projection's model and strategy are checked before any file is read.
expect_exit 2 "report: unknown strategy" -- "$GPUBENCH" report "$TEST_TMP/adir" --strategy pipeline || true
expect_contains "$err" "--strategy 'pipeline'" "names the strategy option"
expect_exit 2 "report: moe without its shape" -- "$GPUBENCH" report "$TEST_TMP/adir" --strategy moe || true
expect_contains "$err" "needs --moe-layers" "says what moe needs"
finish
