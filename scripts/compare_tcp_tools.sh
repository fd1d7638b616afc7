#!/usr/bin/env bash
# Side by side on one namespace link (veth + bridge, 198.18.0.0/15): gpubench TCP bandwidth
# against iperf3 (1 stream and parallel), gpubench TCP latency against sockperf and qperf, and
# the ratios. The harness must not be the bottleneck: gpubench/iperf3 >= 1 and
# gpubench/sockperf <= 1 are the targets (small differences are noise; run it twice).
# Usage (root): scripts/compare_tcp_tools.sh [path/to/gpubench] [streams]
set -euo pipefail
gpubench=$(realpath "${1:-build/gpubench}")
streams=${2:-$(nproc)}
size=128K  # iperf3's default message size, for both tools
for tool in ip iperf3 sockperf qperf python3; do
  command -v "$tool" >/dev/null || { echo "needs $tool (scripts/setup.sh installs it)" >&2; exit 1; }
done
[[ $(id -u) -eq 0 ]] || { echo "needs root for network namespaces" >&2; exit 1; }

tag="gpbcmp$$"
srv="$tag-srv" cli="$tag-cli" sw="$tag-sw"
srv_addr=198.18.0.1 cli_addr=198.18.0.2
work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for ns in "$srv" "$cli" "$sw"; do ip netns del "$ns" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
for ns in "$sw" "$srv" "$cli"; do ip netns add "$ns"; done
ip -n "$sw" link add br0 type bridge
ip -n "$sw" link set br0 up
for side in srv cli; do
  ns=$srv addr=$srv_addr
  [[ $side == cli ]] && ns=$cli addr=$cli_addr
  ip -n "$sw" link add "p-$side" type veth peer name eth0 netns "$ns"
  ip -n "$sw" link set "p-$side" master br0 up
  ip -n "$ns" addr add "$addr/24" dev eth0
  ip -n "$ns" link set eth0 up
  ip -n "$ns" link set lo up
done
in_srv() { ip netns exec "$srv" "$@"; }
in_cli() { ip netns exec "$cli" "$@"; }

in_srv "$gpubench" serve --bind "$srv_addr" >"$work/serve.out" 2>"$work/serve.log" & pids+=($!)
in_srv iperf3 -s -B "$srv_addr" >/dev/null 2>&1 & pids+=($!)
in_srv sockperf sr --tcp -i "$srv_addr" -p 11111 >/dev/null 2>&1 & pids+=($!)
in_srv qperf >/dev/null 2>&1 & pids+=($!)
sleep 1

echo "gpubench bandwidth ($size, 1 and $streams streams, to the peer) ..."
in_cli "$gpubench" run --suite network --filter 'net\.tcp\.bandwidth' --quiet --peer "$srv_addr" \
  --sizes "$size" --streams "$streams" --out "$work/bw.json" >/dev/null
echo "gpubench latency (64 B) ..."
in_cli "$gpubench" run --suite network --filter 'net\.tcp\.latency' --quiet --peer "$srv_addr" \
  --sizes 64 --out "$work/lat.json" >/dev/null
echo "iperf3 ..."
in_cli iperf3 -c "$srv_addr" -l "$size" -t 5 -J >"$work/iperf1.json"
in_cli iperf3 -c "$srv_addr" -l "$size" -t 5 -P "$streams" -J >"$work/iperfN.json"
echo "sockperf and qperf (64 B) ..."
in_cli sockperf pp --tcp -i "$srv_addr" -p 11111 -m 64 -t 5 >"$work/sockperf.txt" 2>&1
in_cli qperf "$srv_addr" -m 64 -t 5 tcp_lat >"$work/qperf.txt" 2>&1

python3 - "$work" "$streams" <<'PY'
import json, re, sys
work, streams = sys.argv[1], int(sys.argv[2])
def gpubench_bw(n):
    d = json.load(open(f"{work}/bw.json"))
    c = next(c for c in d["results"] if c["params"]["streams"] == n and c["params"]["direction"] == "to_peer")
    return c["points"][0]["stats"]["median"] * 8  # Gbit/s
def iperf(path):
    return json.load(open(path))["end"]["sum_received"]["bits_per_second"] / 1e9
lat = json.load(open(f"{work}/lat.json"))["results"][0]["points"][0]["stats"]["median"]
sock = open(f"{work}/sockperf.txt").read()
m = re.search(r"percentile 50\.000 =\s*([\d.]+)", sock)
sockperf = float(m.group(1)) if m else float("nan")
q = re.search(r"latency\s*=\s*([\d.]+)\s*(ns|us|ms)", open(f"{work}/qperf.txt").read())
qperf = float(q.group(1)) * {"ns": 1e-3, "us": 1, "ms": 1e3}[q.group(2)] if q else float("nan")
rows = [
    ("bandwidth, 1 stream (Gbit/s)", gpubench_bw(1), "iperf3", iperf(f"{work}/iperf1.json"), ">= 1"),
    (f"bandwidth, {streams} streams (Gbit/s)", gpubench_bw(streams), "iperf3 -P", iperf(f"{work}/iperfN.json"), ">= 1"),
    ("latency 64 B, median one-way (us)", lat, "sockperf", sockperf, "<= 1"),
    ("latency 64 B, median one-way (us)", lat, "qperf", qperf, "<= 1"),
]
print(f"\n{'measure':38} {'gpubench':>10} {'tool':>10} {'value':>10} {'ratio':>7}  target")
for what, g, tool, t, target in rows:
    print(f"{what:38} {g:10.3f} {tool:>10} {t:10.3f} {g / t:7.3f}  {target}")
PY
