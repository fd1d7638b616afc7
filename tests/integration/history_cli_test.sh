#!/usr/bin/env bash
# The results store end to end on SQLite (docs/history.md), on synthetic runs of known shape
# (history_runs.py): `store add`, `history` finding a planted 10 % step at its run and a
# fingerprint event as an event, `compare --history` failing the first run after the step and
# passing the one before, too little history said, a store from a newer gpubench refused,
# `run` adding its result beside its file unless --no-store, bad input exit 2. About 10 s.
set -euo pipefail
here=$(dirname "$0")
source "$here/lib.sh"
command -v python3 >/dev/null || { echo "SKIP: python3 writes the synthetic runs (scripts/setup.sh --tests)"; exit 77; }
command -v jq >/dev/null || { echo "SKIP: jq reads history's JSON (scripts/setup.sh --tests)"; exit 77; }
command -v sqlite3 >/dev/null || { echo "SKIP: sqlite3 plays a newer gpubench (scripts/setup.sh --tests)"; exit 77; }
G=$GPUBENCH
T=$TEST_TMP

# 20 runs, 0.5 % noise, 10 % lower from run 11 on; the kernel changes at run 18.
python3 "$here/history_runs.py" "$T/runs" 20 --step 11 --factor 0.9 --event 18
expect_exit 0 "store add of the first 10 runs" -- "$G" store add --store "$T/s.db" "$T"/runs/run-00{1..9}.json "$T/runs/run-010.json"
expect_contains "$out" "10 runs added" "store add counts what it added"
expect_exit 0 "run 10 against runs 1-9 passes" -- "$G" compare --history "$T/s.db" "$T/runs/run-010.json"
expect_contains "$out" "SAME" "run 10 is the same as its history"
expect_exit 1 "run 11, the first after the step, fails the gate" -- "$G" compare --history "$T/s.db" "$T/runs/run-011.json" --format json
[[ $(jq '[.rows[] | select(.verdict == "SLOWER")] | length' <<<"$out") == 2 ]] && pass "both sizes of run 11 are SLOWER" || fail "run 11: $out"

expect_exit 0 "store add of all 20 (the first 10 again)" -- "$G" store add --store "$T/s.db" "$T"/runs/*.json
expect_contains "$out" "10 runs added, 10 already there; 20 runs" "a run added twice is kept once"
expect_exit 0 "history" -- "$G" history --store "$T/s.db" --format json
[[ $(jq '.series_count' <<<"$out") == 2 ]] || fail "history: two series expected: $out"
runs=$(jq -c '[.series[].changes[].run]' <<<"$out")
[[ $runs == "[11,11]" ]] && pass "history finds the step at run 11 in both series" || fail "changes at $runs, expected [11,11]"
events=$(jq -c '[.series[].events[] | [.run, .changes[0]]]' <<<"$out")
expect_contains "$events" '[18,"kernel: 6.1.0-test -> 6.5.0-test"]' "the kernel change is an event at run 18, not a change"
expect_exit 0 "history as text" -- "$G" history --store "$T/s.db" --filter '@65536 '
expect_contains "$out" "change at run 11 (run-011" "text names the run of the change"
expect_contains "$out" "GB/s (-" "text gives the change in %"
expect_exit 0 "history --since after the step" -- "$G" history --store "$T/s.db" --since 2026-11-01T00:12:00Z --format json
[[ $(jq '[.series[].changes[]] | length' <<<"$out") == 0 ]] && pass "--since leaves the step out" || fail "--since: $out"

# Run 20 is in the store: it is left out of its own history, which is runs 18-19 of its kernel.
expect_exit 0 "too little history is said, not judged" -- "$G" compare --history "$T/s.db" "$T/runs/run-020.json"
expect_contains "$out" "history too short: 2 runs in its segment, 5 needed" "the gate says the history is too short"
python3 "$here/history_runs.py" "$T/other" 1 --host node-b
expect_exit 0 "a new series has no history" -- "$G" compare --history "$T/s.db" "$T/other/run-001.json"
expect_contains "$out" "ADDED" "a new series is ADDED"

# Other tools' output is stored as `gpubench import` reads it; the same log twice is one run.
imp="$here/../golden/import"
expect_exit 0 "store add of nccl-tests and iperf3 output" -- "$G" store add --store "$T/imports.db" "$imp/nccl-allreduce-1node.txt" "$imp/iperf3-reverse.json"
expect_contains "$out" "2 runs added" "each tool's output is a run"
expect_exit 0 "the same nccl-tests log again" -- "$G" store add --store "$T/imports.db" "$imp/nccl-allreduce-1node.txt"
expect_contains "$out" "0 runs added, 1 already there" "an imported log added twice is kept once"
expect_exit 2 "store add of a file no importer reads" -- "$G" store add --store "$T/imports.db" "$here/history_runs.py"

# The trend section: alone, and beside a result file; nothing fetched from the network.
expect_exit 0 "report --history alone" -- "$G" report --history "$T/s.db" --html "$T/trend.html"
html=$(cat "$T/trend.html")
expect_contains "$html" "Trends in the results store" "the report has the trend section"
expect_contains "$html" "<td>run-011</td>" "its table lists the change at run 11"
if [[ $html != *"not drawn:"* ]]; then
  # One chart per series; cairo's SVG draws text as glyphs, so the marks are counted by their
  # colours: a change red, an event grey, each once in the plot and once in the legend.
  [[ $(grep -o "<svg" <<<"$html" | wc -l) == 2 ]] && pass "a chart per series that changed" || fail "charts: $(grep -o "<svg" <<<"$html" | wc -l), expected 2"
  [[ $(grep -o "stroke:rgb(80%,10%,10%)" <<<"$html" | wc -l) == 4 ]] && pass "each chart marks its change" || fail "change marks: $(grep -o "stroke:rgb(80%,10%,10%)" <<<"$html" | wc -l), expected 4"
  [[ $(grep -o "stroke:rgb(35%,35%,35%)" <<<"$html" | wc -l) == 4 ]] && pass "each chart marks its event" || fail "event marks: $(grep -o "stroke:rgb(35%,35%,35%)" <<<"$html" | wc -l), expected 4"
fi
if grep -qE '(src|href)="(https?:)?//' "$T/trend.html"; then fail "the trend report loads something from the network"; else pass "the trend report works offline"; fi
expect_exit 0 "report with a result file and --history" -- "$G" report "$T/runs/run-001.json" --history "$T/s.db" --html "$T/both.html"
expect_contains "$(cat "$T/both.html")" "Trends in the results store" "the trend section follows the run's report"

# A store from a newer gpubench.
cp "$T/s.db" "$T/newer.db"
sqlite3 "$T/newer.db" "UPDATE gpubench_store SET value = '99' WHERE name = 'schema_version'; UPDATE gpubench_store SET value = '9.0.0' WHERE name = 'written_by';"
expect_exit 2 "a store from a newer gpubench is refused" -- "$G" history --store "$T/newer.db"
expect_contains "$err" "schema version 99 (written by gpubench 9.0.0)" "the refusal names the version and its writer"

# run adds its result beside its file; --no-store does not.
expect_exit 0 "run stores by default" -- "$G" run --suite memory --filter memory.host.copy --quick --quiet --sizes 4K:8K --out "$T/r/one.json"
expect_contains "$out" "# stored:" "run says where it stored"
expect_exit 0 "store info" -- "$G" store info --store "$T/r/gpubench.db"
expect_contains "$out" "runs: 1" "the run is in gpubench.db beside its file"
expect_exit 0 "run --no-store" -- "$G" run --suite memory --filter memory.host.copy --quick --quiet --sizes 4K:8K --out "$T/n/one.json" --no-store
[[ ! -e $T/n/gpubench.db ]] && pass "--no-store writes no store" || fail "--no-store wrote $T/n/gpubench.db"
# A store that cannot be opened (here a folder where the file would be): the default one is a
# warning and the run keeps its exit code; one the user named fails the run. The file is kept.
mkdir -p "$T/u/gpubench.db"
expect_exit 0 "a default store that cannot be written leaves a good run's exit code" -- "$G" run --suite memory --filter memory.host.copy --quick --quiet --sizes 4K:8K --out "$T/u/one.json"
expect_contains "$err" "warning: storing the result in" "the default store's failure is a warning"
[[ -s $T/u/one.json ]] && pass "the result file is kept" || fail "no result file $T/u/one.json"
expect_exit 1 "a named store that cannot be written fails the run" -- "$G" run --suite memory --filter memory.host.copy --quick --quiet --sizes 4K:8K --out "$T/u/two.json" --store "$T/u/gpubench.db"

# Bad input: exit 2 with a message, never a crash.
expect_exit 2 "store add of a missing file" -- "$G" store add --store "$T/s.db" "$T/missing.json"
expect_exit 2 "history of a store that does not exist" -- "$G" history --store "$T/none/gpubench.db"
expect_contains "$err" "no results store at" "a missing store is named, not created"
[[ ! -e $T/none ]] && pass "reading a missing store creates nothing" || fail "history created $T/none"
expect_exit 2 "a store that is a folder" -- "$G" history --store "$T"
expect_exit 2 "--since that is no date" -- "$G" history --store "$T/s.db" --since yesterday
expect_exit 2 "--max-p out of range" -- "$G" history --store "$T/s.db" --max-p 2
expect_exit 2 "compare --history with a BASE too" -- "$G" compare --history "$T/s.db" "$T/runs/run-001.json" "$T/runs/run-002.json"
expect_exit 2 "an unreachable PostgreSQL" -- "$G" history --store "postgresql:///none?host=$T/no-such-socket-dir"
expect_contains "$err" "cannot connect" "the PostgreSQL error says it could not connect"
finish
