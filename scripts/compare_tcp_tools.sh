#!/usr/bin/env bash
# Side by side on one namespace link (veth + bridge, 198.18.0.0/15): gpubench TCP bandwidth
# against iperf3 (1 stream and parallel), gpubench TCP latency against sockperf and qperf, and
# the ratios. Both measure the steady rate, so gpubench/iperf3 ~ 1 (the harness is not the
# bottleneck) and gpubench/sockperf <= 1 are the targets (small differences are noise; run it
# twice). Both
# tools write the same message size (gpubench --sizes, iperf3 -l): 128 KiB (iperf3's default)
# and 1 MiB; gpubench's median sample duration is printed beside its rate.
# RATE=1gbit shapes the client's side of the link with tbf (what the client sends: the direction
# both tools measure), so the link, not the machine, sets the rate both should find.
# SIZES="1K 128K" chooses the write sizes (default 128K and 1M).
# Usage (root): [RATE=1gbit] [SIZES=...] scripts/compare_tcp_tools.sh [path/to/gpubench] [streams]
set -euo pipefail
gpubench=$(realpath "${1:-build/gpubench}")
streams=${2:-$(nproc)}
read -ra sizes <<<"${SIZES:-128K 1M}"  # write sizes, the same for both tools
for tool in ip iperf3 sockperf qperf python3; do
  command -v "$tool" >/dev/null || { echo "needs $tool (scripts/setup.sh --tests installs it)" >&2; exit 1; }
done

work=$(mktemp -d)
pids=()
# The test hosts of the integration tests: namespaces on a bridge, 198.18.0.1 and .2.
TEST_TMP=$work
fail() { echo "$*" >&2; exit 1; }
source "$(dirname "$0")/../tests/integration/netns.sh"
netns_up
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  netns_down
  rm -rf "$work"
}
trap cleanup EXIT
srv=$NS_SRV cli=$NS_CLI srv_addr=$SRV_ADDR
in_cli() { ip netns exec "$cli" "$@"; }
if [[ -n ${RATE:-} ]]; then
  in_cli tc qdisc add dev eth0 root tbf rate "$RATE" burst 256kb latency 20ms
  echo "client side shaped: tbf $RATE"
fi

# `ip netns exec` execs the server, so $! is the server itself and cleanup can stop it.
ip netns exec "$srv" "$gpubench" serve --bind "$srv_addr" >"$work/serve.out" 2>"$work/serve.log" & pids+=($!)
ip netns exec "$srv" iperf3 -s -B "$srv_addr" >/dev/null 2>&1 & pids+=($!)
ip netns exec "$srv" sockperf sr --tcp -i "$srv_addr" -p 11111 >/dev/null 2>&1 & pids+=($!)
ip netns exec "$srv" qperf >/dev/null 2>&1 & pids+=($!)
sleep 1

for size in "${sizes[@]}"; do
  echo "gpubench bandwidth ($size, 1 and $streams streams, to the peer) ..."
  in_cli "$gpubench" run --suite network --filter 'net\.tcp\.bandwidth' --quiet --peer "$srv_addr" \
    --sizes "$size" --streams "$streams" --out "$work/bw-$size.json" >/dev/null
  echo "iperf3 ($size writes) ..."
  in_cli iperf3 -c "$srv_addr" -l "$size" -t 5 -J >"$work/iperf1-$size.json"
  in_cli iperf3 -c "$srv_addr" -l "$size" -t 5 -P "$streams" -J >"$work/iperfN-$size.json"
done
echo "gpubench latency (64 B) ..."
in_cli "$gpubench" run --suite network --filter 'net\.tcp\.latency' --quiet --peer "$srv_addr" \
  --sizes 64 --out "$work/lat.json" >/dev/null
echo "sockperf and qperf (64 B) ..."
in_cli sockperf pp --tcp -i "$srv_addr" -p 11111 -m 64 -t 5 >"$work/sockperf.txt" 2>&1
in_cli qperf "$srv_addr" -m 64 -t 5 tcp_lat >"$work/qperf.txt" 2>&1

python3 - "$work" "$streams" "${sizes[@]}" <<'PY'
import json, re, sys
work, streams, sizes = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
def gpubench_point(size, n):
    d = json.load(open(f"{work}/bw-{size}.json"))
    c = next(c for c in d["results"] if c["params"]["streams"] == n and c["params"]["direction"] == "to_peer")
    return c["points"][0]
def gpubench_bw(size, n):
    return gpubench_point(size, n)["stats"]["median"] * 8  # Gbit/s
def iperf(path):
    return json.load(open(path))["end"]["sum_received"]["bits_per_second"] / 1e9
lat = json.load(open(f"{work}/lat.json"))["results"][0]["points"][0]["stats"]["median"]
sock = open(f"{work}/sockperf.txt").read()
m = re.search(r"percentile 50\.000 =\s*([\d.]+)", sock)
sockperf = float(m.group(1)) if m else float("nan")
q = re.search(r"latency\s*=\s*([\d.]+)\s*(ns|us|ms)", open(f"{work}/qperf.txt").read())
qperf = float(q.group(1)) * {"ns": 1e-3, "us": 1, "ms": 1e3}[q.group(2)] if q else float("nan")
rows = []
for size in sizes:
    rows += [
        (f"bandwidth {size}, 1 stream (Gbit/s)", gpubench_bw(size, 1), "iperf3", iperf(f"{work}/iperf1-{size}.json"), "~1"),
        (f"bandwidth {size}, {streams} streams (Gbit/s)", gpubench_bw(size, streams), "iperf3 -P", iperf(f"{work}/iperfN-{size}.json"), "~1"),
    ]
rows += [
    ("latency 64 B, median one-way (us)", lat, "sockperf", sockperf, "<= 1"),
    ("latency 64 B, median one-way (us)", lat, "qperf", qperf, "<= 1"),
]
print(f"\n{'measure':38} {'gpubench':>10} {'tool':>10} {'value':>10} {'ratio':>7}  target")
for what, g, tool, t, target in rows:
    print(f"{what:38} {g:10.3f} {tool:>10} {t:10.3f} {g / t:7.3f}  {target}")
print("\ngpubench samples (median sample duration, bytes per sample):")
for size in sizes:
    for n in (1, streams):
        e = gpubench_point(size, n).get("extra", {})
        print(f"  {size}, {n} stream(s): {e.get('sample_seconds', float('nan')) * 1e3:.1f} ms, "
              f"{e.get('bytes_per_sample', float('nan')) / 1e6:.1f} MB")
PY
