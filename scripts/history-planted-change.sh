#!/usr/bin/env bash
# The store's end-to-end check (docs/history.md; a check script, root): two hosts in network
# namespaces (198.18.0.0/15) joined by a veth link shaped with tbf, RUNS runs of one small
# network case (net.tcp.bandwidth, 4 MiB, one stream; ARGS) each added to a fresh store by
# `run`, the shaped rate changed from RATE to SLOW_RATE before run RUNS/2 + 1. Then:
#   - `compare --history` after every run: the first run after the change must fail the gate
#     (exit 1, the shaped direction SLOWER); runs before it that the gate fails are listed (on a
#     busy machine a stalled run is slower, and the gate is right to say so);
#   - `history` must find the change in the shaped direction's series at that very run.
# The unshaped direction and the bidirectional case are printed, not judged: their rate is the
# machine's, whatever else it runs. The rates are low so that the shaper, not a busy CPU, sets
# the shaped direction's rate. Exit 0 when both hold, 1 when not, 77 when it cannot run.
# Usage (root): scripts/history-planted-change.sh [path/to/gpubench]
#   RUNS=30 RATE=200mbit SLOW_RATE=160mbit ARGS="--sizes 4M --point-timeout 2" (environment);
#   KEEP=DIR keeps the runs and the store.
set -euo pipefail
GPUBENCH=$(realpath "${1:-build/gpubench}")
export GPUBENCH
runs=${RUNS:-30}
rate=${RATE:-200mbit}
slow_rate=${SLOW_RATE:-160mbit}
# Samples of 4 MiB (about 0.17 s at 200 Mbit/s) and up to 2 s a point: a run's median outlasts
# the stalls of a busy machine, which made a --quick run of 1 MiB samples measure 80 % low.
read -r -a run_args <<<"${ARGS:---sizes 4M --point-timeout 2}"
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../tests/integration/lib.sh"
source "$here/../tests/integration/netns.sh"
command -v tc >/dev/null || netns_skip "needs tc (iproute2) to shape the link"
command -v jq >/dev/null || netns_skip "needs jq (scripts/setup.sh --tests)"
((runs >= 12)) || { echo "RUNS must be at least 12 (5 runs of history and 3 after the change)" >&2; exit 2; }
netns_up
serve_in_srv "$TEST_TMP/serve.log"
trap 'kill $SERVER_PID 2>/dev/null || true; netns_down; rm -rf "$TEST_TMP"' EXIT
dir=${KEEP:-$TEST_TMP/keep}
mkdir -p "$dir"
store=$dir/gpubench.db
rm -f "$store"*
change_at=$((runs / 2 + 1))
shaped='"direction":"to_peer"'

ip netns exec "$NS_CLI" tc qdisc add dev eth0 root tbf rate "$rate" burst 256kb latency 20ms
echo "# $runs runs, link shaped to $rate, to $slow_rate from run $change_at; store $store"
early=()  # runs before the change the gate failed: said, not judged (a stalled run is slower)
for ((i = 1; i <= runs; i++)); do
  if ((i == change_at)); then
    ip netns exec "$NS_CLI" tc qdisc change dev eth0 root tbf rate "$slow_rate" burst 256kb latency 20ms
  fi
  file=$(printf '%s/run-%03d.json' "$dir" "$i")
  ip netns exec "$NS_CLI" "$GPUBENCH" run --suite network --quiet --peer "$SRV_ADDR" \
    --filter 'net\.tcp\.bandwidth' --streams 1 "${run_args[@]}" --out "$file" \
    --store "$store" >"$TEST_TMP/run.log" 2>&1 || { fail "run $i: $(tail -5 "$TEST_TMP/run.log")"; continue; }
  set +e
  "$GPUBENCH" compare --history "$store" "$file" --format json >"$TEST_TMP/gate.json" 2>"$TEST_TMP/gate.err"
  code=$?
  set -e
  verdicts=$(jq -r '[.rows[] | "\(.params.direction) \(.verdict)"] | join(", ")' "$TEST_TMP/gate.json" 2>/dev/null || cat "$TEST_TMP/gate.err")
  value=$(printf '%.4g' "$(jq -r '.results[] | select(.params.direction == "to_peer") | .points[0].stats.median' "$file")")
  printf 'run %2d  %-8s  to_peer %s GB/s  compare --history: exit %d (%s)\n' "$i" \
    "$( ((i < change_at)) && echo "$rate" || echo "$slow_rate")" "$value" "$code" "$verdicts"
  shaped_verdict=$(jq -r '.rows[] | select(.params.direction == "to_peer") | .verdict' "$TEST_TMP/gate.json" 2>/dev/null || true)
  if ((i == change_at)); then
    [[ $code == 1 && $shaped_verdict == SLOWER ]] && pass "compare --history fails run $i, the first after the change" ||
      fail "compare --history on run $i, the first after the change: exit $code, shaped direction $shaped_verdict"
  elif ((i < change_at)) && [[ $shaped_verdict == SLOWER ]]; then
    early+=("$i")
  fi
done

((${#early[@]} == 0)) || echo "# note: the gate failed run(s) ${early[*]} before the change: see their to_peer figure above"
"$GPUBENCH" history --store "$store" >"$TEST_TMP/history.txt"
cat "$TEST_TMP/history.txt"
"$GPUBENCH" history --store "$store" --filter "$shaped" --format json >"$TEST_TMP/history.json"
found=$(jq -c '[.series[].changes[].run]' "$TEST_TMP/history.json")
[[ $found == "[$change_at]" ]] && pass "history finds the change of the shaped direction at run $change_at" ||
  fail "history found the shaped direction's changes at runs $found, expected [$change_at]"
finish
