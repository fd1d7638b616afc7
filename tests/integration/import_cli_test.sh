#!/usr/bin/env bash
# `gpubench import`, and report and compare given other tools' output directly: exit codes,
# the file written (valid against the result schema) or not written (bad input: exit 2 naming
# the file and line), the side-by-side report of an imported run and a gpubench run, and
# compare's "one value, no significance test".
# Usage: import_cli_test.sh GPUBENCH GOLDEN_DIR RESULT_SCHEMA
set -uo pipefail
gpubench=$(realpath "$1")
golden=$(realpath "$2")
schema=$(realpath "$3")
here=$(dirname "$(realpath "$0")")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
has() { grep -q -- "$1" "$2" || fail "expected '$1' in $2: $(head -c 1500 "$2")"; }
py=/usr/bin/python3   # Debian's, with python3-jsonschema (scripts/setup.sh --tests)
[[ -x $py ]] || py=python3

imp=$golden/import
cd "$work" || exit 1

# Several formats into one result file.
"$gpubench" import "$imp/nccl-allgather-interleaved.txt" "$imp/nvbandwidth-v08.txt" \
  "$imp/perftest-read-lat.txt" "$imp/iperf3-reverse.json" "$imp/nvbandwidth.json" \
  --out run.json 2>err || fail "import of five good files: exit $?: $(cat err)"
has '"imported": true' run.json
has '"tool": "nccl-tests"' run.json
"$py" "$here/validate_result.py" "$schema" run.json || fail "run.json does not match the schema"

# The shapes of issue 36: bidirectional matrices, a session of perftest runs, a message-rate
# run, UDP with its cap, an iperf3 error (a failed case, exit 0: the import worked), a failed
# data check, nccl-tests' and perftest's JSON; the file written matches the schema.
"$gpubench" import "$imp/nvbandwidth-bidir-v010.txt" "$imp/perftest-session.txt" \
  "$imp/iperf3-udp-capped.json" "$imp/iperf3-error.json" "$imp/nccl-info-wrong-periter.txt" \
  "$imp/nccl-tests-periter.json" "$imp/perftest-old.json" --out more.json 2>err ||
  fail "import of issue 36's shapes: exit $?: $(cat err)"
has '"message_rate"' more.json
has '"rate_capped": true' more.json
has 'iperf3 reported: unable to connect' more.json
has '"measured": "total"' more.json
"$py" "$here/validate_result.py" "$schema" more.json || fail "more.json does not match the schema"
"$gpubench" import "$imp/nccl-allgather-ambiguous.txt" --out bad.json 2>err
[[ $? == 2 ]] || fail "an ambiguous table: exit $?, expected 2"
has "all_gather and alltoall fit the table" err
"$gpubench" import "$imp/nccl-sendrecv-headerless.txt" --out sr.json 2>err ||
  fail "a table that fits sendrecv only: exit $?: $(cat err)"
has "inferred from the table" sr.json

# Bad input: exit 2 naming file and line, nothing written, even beside a good file.
"$gpubench" import "$imp/nvbandwidth-v08.txt" "$imp/nccl-truncated.txt" --op all_reduce \
  --out bad.json 2>err
[[ $? == 2 ]] || fail "a truncated table: exit $?, expected 2"
has "nccl-truncated.txt:11: expected a table row" err
[[ ! -e bad.json ]] || fail "bad.json was written although an input was bad"
"$gpubench" import "$imp/nvbandwidth-truncated.txt" --out bad.json 2>err
[[ $? == 2 ]] || fail "a cut matrix: exit $?, expected 2"
has "nvbandwidth-truncated.txt:11: expected matrix row 1" err
"$gpubench" import "$imp/nccl-old-alltoall.txt" --out bad.json 2>err
[[ $? == 2 ]] || fail "a log naming no operation: exit $?, expected 2"
has "with --op" err
"$gpubench" import "$imp/nccl-old-alltoall.txt" --op nonsense --out bad.json 2>err
[[ $? == 2 ]] || fail "--op nonsense: exit $?, expected 2"
printf 'hello\n' >notes.txt
"$gpubench" import notes.txt --out bad.json 2>err
[[ $? == 2 ]] || fail "an unknown format: exit $?, expected 2"
has "notes.txt: expected a gpubench result file or the output of" err
"$gpubench" import "$golden/reports/gpu-h100.json" --out bad.json 2>err
[[ $? == 2 ]] || fail "a gpubench result file given to import: exit $?, expected 2"
[[ ! -e bad.json ]] || fail "bad.json was written"

# report takes the tools' output directly, beside a gpubench run: side by side.
"$gpubench" report "$imp/nvbandwidth-v08.txt" "$golden/reports/gpu-h100.json" --md side.md \
  2>err || fail "report of an nvbandwidth log beside a gpubench run: exit $?: $(cat err)"
has "imported from nvbandwidth v0.8" side.md
has "dgx-h100-a" side.md
has "The runs side by side" side.md
"$gpubench" report "$imp/nccl-old-alltoall.txt" --op alltoall --md a2a.md 2>err ||
  fail "report --op of a log naming no operation: exit $?: $(cat err)"
has "All-to-all nccl (1 nodes)" a2a.md
"$gpubench" report "$imp/nccl-truncated.txt" --md x.md 2>err
[[ $? == 2 ]] || fail "report of a truncated log: exit $?, expected 2"

# compare: one printed value per point is no sample set; a change beyond the threshold is
# reported, not judged significant, and fails no gate.
sed 's/1300.0    3.23    2.42/1300.0    3.23    1.42/' "$imp/nccl-allgather-interleaved.txt" >slower.txt
"$gpubench" compare "$imp/nccl-allgather-interleaved.txt" slower.txt >out 2>err
[[ $? == 0 ]] || fail "compare of two imported logs: exit $?, expected 0: $(cat err)"
has "one value, no significance test" out
"$gpubench" compare "$imp/nccl-allgather-interleaved.txt" notes.txt >out 2>err
[[ $? == 2 ]] || fail "compare against an unknown format: exit $?, expected 2"

[[ $failures == 0 ]] && echo "PASS: import_cli" && exit 0
echo "$failures failure(s)"
exit 1
