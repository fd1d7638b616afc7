#!/usr/bin/env bash
# The store on a real PostgreSQL server the test starts and stops (Debian's postgresql, a unix
# socket in a temporary folder, as nobody when root): the schema created, runs added, history
# finding a planted step at its run, compare --history failing the run after it, two writers of
# 100 runs each losing nothing. Skipped with the reason when no server can start. About 15 s.
set -euo pipefail
here=$(dirname "$0")
source "$here/lib.sh"
source "$here/history_lib.sh"
command -v python3 >/dev/null || { echo "SKIP: python3 writes the synthetic runs (scripts/setup.sh --tests)"; exit 77; }
command -v jq >/dev/null || { echo "SKIP: jq reads history's JSON (scripts/setup.sh --tests)"; exit 77; }
if "$GPUBENCH" store info --store "postgresql:///x?host=/nonexistent" 2>&1 | grep -q "built without PostgreSQL"; then
  echo "SKIP: this gpubench was built without PostgreSQL (libpq-dev)"; exit 77
fi
trap 'pg_stop; rm -rf "$TEST_TMP"' EXIT
pg_start "$TEST_TMP/pg" || { echo "SKIP: $PG_WHY"; exit 77; }
G=$GPUBENCH

python3 "$here/history_runs.py" "$TEST_TMP/runs" 16 --step 9 --factor 0.9
expect_exit 0 "store add of runs 1-8" -- "$G" store add --store "$PG_URI" "$TEST_TMP"/runs/run-00[1-8].json
expect_contains "$out" "PostgreSQL database postgres" "the store is the PostgreSQL database"
expect_exit 1 "run 9, the first after the step, fails the gate" -- "$G" compare --history "$PG_URI" "$TEST_TMP/runs/run-009.json"
expect_contains "$out" "SLOWER" "run 9 is SLOWER"
expect_exit 0 "store add of all 16" -- "$G" store add --store "$PG_URI" "$TEST_TMP"/runs/*.json
expect_exit 0 "history" -- "$G" history --store "$PG_URI" --format json
runs=$(jq -c '[.series[].changes[].run]' <<<"$out")
[[ $runs == "[9,9]" ]] && pass "history finds the step at run 9 in both series" || fail "changes at $runs, expected [9,9]"

# Two writers on a database of their own, so the counts are theirs alone.
"$PG_BIN/createdb" -h "$TEST_TMP/pg" -U gpubench writers || fail "createdb writers"
two_writers "postgresql:///writers?host=$TEST_TMP/pg&user=gpubench" "$TEST_TMP/w"
finish
