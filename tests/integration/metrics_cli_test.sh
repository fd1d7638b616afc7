#!/usr/bin/env bash
# gpubench run --metrics: a real run's OpenMetrics file, read by Prometheus' own parsers (the
# OpenMetrics one and the text-format one node_exporter's textfile collector uses), holds the
# median of every point of the result file in base units. A --metrics path that cannot be
# written is exit 2 before anything runs. Skipped (77) without python3-prometheus-client.
source "$(dirname "$0")/lib.sh"
set -e

py=/usr/bin/python3
[[ -x $py ]] || py=$(command -v python3) || { echo "skip: no python3" >&2; exit 77; }
if ! "$py" -c 'import prometheus_client.openmetrics.parser' 2>/dev/null; then
  echo "skip: no prometheus_client for python3 (scripts/setup.sh --tests installs python3-prometheus-client)" >&2
  exit 77
fi

file="$TEST_TMP/run.json"
prom="$TEST_TMP/textfile/gpubench.prom"
expect_exit 0 "run --metrics" -- "$GPUBENCH" run --suite memory --filter memory.host.copy \
  --quick --quiet --sizes 4K:64K --out "$file" --metrics "$prom"
[[ -f $prom ]] && pass "metrics file written" || fail "no metrics file at $prom"
leftover=$(find "$TEST_TMP/textfile" -type f ! -name gpubench.prom)
[[ -z $leftover ]] && pass "no temporary file left" || fail "left beside it: $leftover"

"$py" - "$file" "$prom" <<'PY' && pass "both parsers read the medians in bytes per second" || fail "metrics disagree with the result file"
import json, math, sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families as openmetrics
from prometheus_client.parser import text_string_to_metric_families as prometheus_text

result = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
host = result["system"]["host"]
want = {}
for c in result["results"]:
    if c["status"] != "ok":
        continue
    assert c["metric"] == "bandwidth" and c["unit"] == "GB/s", c["metric"]
    params = ", ".join(f"{k}={v}" for k, v in sorted(c["params"].items()))
    for p in c["points"]:
        want[(c["benchmark"], params, str(p["bytes"]), host)] = p["stats"]["median"] * 1e9
assert want, "the run measured nothing"

for parse in (openmetrics, prometheus_text):
    families = {f.name: f for f in parse(text)}
    bw = families["gpubench_bandwidth_bytes_per_second"]
    assert bw.type == "gauge", bw.type
    got = {(s.labels["benchmark"], s.labels["params"], s.labels["size"], s.labels["host"]): s.value
           for s in bw.samples}
    assert got.keys() == want.keys(), (sorted(got), sorted(want))
    for key, value in want.items():
        assert math.isclose(got[key], value, rel_tol=1e-12), (key, got[key], value)
    cases = {s.labels["status"]: s.value for s in families["gpubench_run_cases"].samples}
    assert cases["ok"] == len([c for c in result["results"] if c["status"] == "ok"]), cases
    finished = families["gpubench_run_finished_timestamp_seconds"].samples[0].value
    assert finished > 1.7e9, finished
assert text.endswith("# EOF\n")
PY

expect_exit 2 "--metrics into a directory" -- "$GPUBENCH" run --suite memory --quick --quiet \
  --out "$TEST_TMP/x.json" --metrics "$TEST_TMP"
expect_contains "$err" "--metrics" "the error names the option"
[[ ! -e $TEST_TMP/x.json ]] && pass "nothing ran" || fail "a result file was written"
finish
