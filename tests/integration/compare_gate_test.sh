#!/usr/bin/env bash
# `gpubench compare` as a CI job uses it: exit codes, verdicts, every output format, reference
# files, and one real run compared with itself and with a copy made 50% slower.
# Usage: compare_gate_test.sh GPUBENCH GOLDEN_DIR [RESULT_SCHEMA]
set -uo pipefail
gpubench=$(realpath "$1")
golden=$2
schema=${3:+$(realpath "$3")}
here=$(dirname "$(realpath "$0")")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# expect CODE DESCRIPTION -- ARGS...: runs gpubench compare ARGS, keeps stdout/stderr.
expect() {
  local want=$1 what=$2
  shift 3
  "$gpubench" compare "$@" >"$work/out" 2>"$work/err"
  local got=$?
  [[ $got == "$want" ]] || fail "$what: exit $got, expected $want; stderr: $(cat "$work/err")"
}

has() { grep -q -- "$1" "$work/$2" || fail "expected '$1' in $2: $(head -c 2000 "$work/$2")"; }

cd "$golden" || exit 1

# The golden files are what a run writes: valid against the result schema.
if [[ -n $schema ]]; then
  py=/usr/bin/python3   # Debian's, with python3-jsonschema (scripts/setup.sh --tests), as lib.sh's validate
  [[ -x $py ]] || py=python3
  for f in base.json slower.json noisy.json changed.json; do
    "$py" "$here/validate_result.py" "$schema" "$f" || fail "$f does not match the result schema"
  done
fi

expect 0 "identical files" -- base.json base.json
has "PASS: no regression" out

expect 1 "one case 20% slower" -- base.json slower.json
has "FAIL: 1 regression" out
[[ $(grep -c '^SLOWER' "$work/out") == 1 ]] || fail "exactly one SLOWER row expected"
grep '^SLOWER' "$work/out" | grep -q 'net.tcp.latency' || fail "the slower case is net.tcp.latency"

expect 0 "per-benchmark threshold" -- base.json slower.json --threshold net.tcp.latency=25%
expect 0 "prefix threshold" -- base.json slower.json --threshold 'net.*=25%'
expect 1 "global threshold does not cover 20%" -- base.json slower.json --threshold 10%
expect 0 "options before the files" -- --threshold 25% --threshold net.tcp.latency=25% base.json slower.json

expect 0 "noisy shifted median" -- base.json noisy.json
grep '^NOISY' "$work/out" | grep -q 'memory.host.copy' || fail "memory.host.copy @ 1 MiB is NOISY"

expect 1 "added, removed, lost" -- base.json changed.json
has '^LOST' out
has '^REMOVED' out
has '^ADDED' out
expect 1 "removed fails with --fail-on-removed" -- base.json changed.json --fail-on-removed
[[ $(grep -c '^REMOVED' "$work/out") == 1 ]] || fail "one REMOVED row expected"

# Every format, checked by a parser that is not ours.
expect 1 "json format" -- base.json slower.json --format json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["regressed"] and d["counts"]["SLOWER"]==1' \
  "$work/out" || fail "json output"
expect 1 "junit format to a file" -- base.json changed.json --format junit --out "$work/junit.xml"
python3 - "$work/junit.xml" <<'PY' || fail "junit output is not well-formed or miscounted"
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
cases = root.findall("./testsuite/testcase")
assert root.tag == "testsuites" and len(cases) == int(root.get("tests")), "testcase count"
assert len(root.findall("./testsuite/testcase/failure")) == 1, "one failure (LOST)"
PY
expect 1 "markdown format" -- base.json slower.json --format md
has '^| \*\*SLOWER\*\* |' out

# Reference files.
expect 0 "within reference bounds" -- base.json --references references.json
expect 1 "outside reference bounds" -- slower.json --references references.json
has "above the upper bound 33" out
expect 1 "baseline and references together" -- base.json slower.json --references references.json
printf '{"schema": "gpubench.references/1", "systems": [{"label": "ci", "references": [
  {"benchmark": "net.tcp.latency", "unit": "us", "expected": 30, "lower": 40}]}]}' >"$work/bad.json"
expect 2 "bound on the wrong side" -- base.json --references "$work/bad.json" --system ci
has "systems\[0\].references\[0\].lower: 40 is above expected 30" err
printf '{"schema": "gpubench.references/1", "systems": [' >"$work/truncated.json"
expect 2 "truncated reference file" -- base.json --references "$work/truncated.json"
has "not valid JSON" err
printf '{"schema": "gpubench.references/1", "systems": [{"label": "ci", "references": [
  {"benchmark": "net.tcp.latencyy", "unit": "us", "expected": 30, "upper": 40}]}]}' >"$work/typo.json"
expect 2 "unknown benchmark id" -- base.json --references "$work/typo.json" --system ci
has "unknown benchmark id 'net.tcp.latencyy'" err

# Bad usage.
expect 2 "one file without references" -- base.json
expect 2 "bad threshold" -- base.json base.json --threshold fast
expect 2 "unknown format" -- base.json base.json --format xml
expect 2 "missing file" -- base.json "$work/none.json"
expect 2 "unwritable --out" -- base.json base.json --out "$work/err/out.txt"  # err is a file
"$gpubench" compare --help >"$work/out" 2>&1
has "Exit codes: 0 no regression; 1 a regression" out

# A real run, as CI would make it: compared with itself it passes; made 50% slower it fails.
if "$gpubench" run --suite memory --filter 'memory.host.copy' --sizes 4K:8K --quick --quiet \
  --out "$work/run.json" >/dev/null 2>"$work/err"; then
  expect 0 "a real run against itself" -- "$work/run.json" "$work/run.json"
  python3 - "$work/run.json" "$work/halved.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for c in d["results"]:
    for p in c["points"]:
        p["samples"] = [v / 2 for v in p["samples"]]
        p["stats"] = {k: (v / 2 if k not in ("count", "cv") and v is not None else v)
                      for k, v in p["stats"].items()}
json.dump(d, open(sys.argv[2], "w"))
PY
  expect 1 "a real run made 50% slower" -- "$work/run.json" "$work/halved.json"
  has "^SLOWER" out
else
  fail "gpubench run failed: $(cat "$work/err")"
fi

((failures == 0)) && echo "compare gate: all checks passed"
exit $((failures > 0))
