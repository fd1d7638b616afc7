#!/usr/bin/env bash
# gpubench run --metrics read by its consumer: node_exporter's textfile collector, started on a
# loopback port over the folder of the file, serves every sample of it and reports no error
# reading it (node_textfile_scrape_error 0). Skipped (77) without Debian's
# prometheus-node-exporter (scripts/setup.sh --tests installs it).
source "$(dirname "$0")/lib.sh"
set -e

exporter=$(command -v prometheus-node-exporter || command -v node_exporter || true)
[[ -n $exporter ]] || { echo "skip: no prometheus-node-exporter (scripts/setup.sh --tests installs it)" >&2; exit 77; }
py=/usr/bin/python3
[[ -x $py ]] || py=$(command -v python3) || { echo "skip: no python3" >&2; exit 77; }

dir="$TEST_TMP/textfile"
expect_exit 0 "run --metrics" -- "$GPUBENCH" run --suite memory --filter memory.host.copy \
  --quick --quiet --sizes 4K:16K --out "$TEST_TMP/run.json" --metrics "$dir/gpubench.prom"

port=$("$py" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$exporter" --web.listen-address="127.0.0.1:$port" --collector.disable-defaults \
  --collector.textfile --collector.textfile.directory="$dir" >"$TEST_TMP/exporter.log" 2>&1 &
exporter_pid=$!
trap 'kill "$exporter_pid" 2>/dev/null || true; wait "$exporter_pid" 2>/dev/null || true; rm -rf "$TEST_TMP"' EXIT

"$py" - "$port" "$dir/gpubench.prom" <<'PY' && pass "node_exporter serves every sample of the file" || fail "node_exporter disagrees: $(tail -5 "$TEST_TMP/exporter.log")"
import sys, time, urllib.request
from prometheus_client.parser import text_string_to_metric_families as parse

def samples(text):
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for f in parse(text) for s in f.samples}

# The exporter starts within a second or two; 10 s is its deadline.
deadline = time.monotonic() + 10
while True:
    try:
        served = urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/metrics", timeout=2).read().decode()
        break
    except OSError as e:
        if time.monotonic() > deadline:
            sys.exit(f"no answer from node_exporter within 10 s: {e}")
        time.sleep(0.1)
got = samples(served)
want = samples(open(sys.argv[2]).read())
assert got.get(("node_textfile_scrape_error", ())) == 0.0, [k for k in got if "textfile" in k[0]]
gpubench = {k: v for k, v in got.items() if k[0].startswith("gpubench_")}
assert gpubench == want, (sorted(set(gpubench) ^ set(want)))
assert any(k[0] == "gpubench_bandwidth_bytes_per_second" for k in want), "no figures"
PY
finish
