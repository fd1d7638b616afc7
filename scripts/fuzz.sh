#!/usr/bin/env bash
# Builds the libFuzzer targets (preset fuzz: clang, ASan + UBSan) and runs each for SECONDS on
# a copy of its seed corpus (tests/fuzz/corpus/<name>, left untouched), two at a time.
# Exits 1 on any finding (crash, leak, undefined behaviour, timeout, an unexpected exception
# type, a broken property) and prints the input that caused it; 2 on bad usage.
#   scripts/fuzz.sh [SECONDS] [TARGET...]   SECONDS defaults to 30; TARGETs default to all:
#   control_frame handshake rdma_endpoint tcp_tally result_file references ...
# Environment: FUZZ_JOBS (targets at once, default 2), FUZZ_ARGS (more libFuzzer flags),
# CMAKE_CXX_COMPILER_LAUNCHER=ccache (faster rebuilds).
set -euo pipefail
cd "$(dirname "$0")/.."

all_targets=(control_frame handshake rdma_endpoint tcp_tally result_file references import_nccl_tests
  import_nvbandwidth_text import_nvbandwidth_json import_perftest import_iperf3 import_nccl_tests_json
  import_perftest_json)
seconds=30
if [[ $# -gt 0 && $1 =~ ^[0-9]+$ ]]; then
  seconds=$1
  shift
fi
targets=("$@")
((${#targets[@]})) || targets=("${all_targets[@]}")
for t in "${targets[@]}"; do
  if [[ ! -d tests/fuzz/corpus/$t ]]; then
    echo "fuzz: unknown target '$t' (targets: ${all_targets[*]})" >&2
    exit 2
  fi
done
((seconds > 0)) || { echo "fuzz: SECONDS must be at least 1" >&2; exit 2; }
jobs=${FUZZ_JOBS:-2}
command -v clang++ >/dev/null || {
  echo "fuzz: clang++ not found (Debian: apt install clang libclang-rt-dev; scripts/setup.sh --tests)" >&2
  exit 2
}

start=$SECONDS
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz
echo "fuzz: built in $((SECONDS - start)) s; running ${targets[*]} for ${seconds} s each, ${jobs} at a time"

work=$(mktemp -d -t gpubench-fuzz.XXXXXX)
trap 'rm -rf "$work"' EXIT
findings=build-fuzz/findings
mkdir -p "$findings"

# run_one NAME: fuzzes NAME on a copy of its corpus; the exit status is libFuzzer's.
run_one() {
  local name=$1
  local dict=()
  [[ -f tests/fuzz/$name.dict ]] && dict=(-dict="tests/fuzz/$name.dict")
  cp -r "tests/fuzz/corpus/$name" "$work/corpus-$name"
  mkdir -p "$findings/$name"
  # shellcheck disable=SC2086  # FUZZ_ARGS is a list of flags
  "build-fuzz/tests/fuzz/${name}_fuzz" "$work/corpus-$name" "${dict[@]}" \
    -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$findings/$name/" ${FUZZ_ARGS:-} >"$work/$name.log" 2>&1
}

declare -A pid_of=()
failed=()
finish() {  # finish PID STATUS: reports one finished target
  local pid=$1 status=$2 name=${pid_of[$1]}
  unset "pid_of[$pid]"
  local runs
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/$name.log" | grep -o '[0-9]*$' ||
    true)
  if ((status == 0)); then
    echo "fuzz: $name: no finding in ${runs:-?} runs"
    return
  fi
  failed+=("$name")
  echo "fuzz: $name: FINDING (libFuzzer exit $status); the end of its log:" >&2
  tail -n 40 "$work/$name.log" >&2
  grep -o "Test unit written to .*" "$work/$name.log" | sed "s/^/fuzz: $name: /" >&2 || true
  echo "fuzz: $name: reproduce with build-fuzz/tests/fuzz/${name}_fuzz INPUT" >&2
}

for name in "${targets[@]}"; do
  while ((${#pid_of[@]} >= jobs)); do
    status=0
    wait -n -p done_pid "${!pid_of[@]}" || status=$?
    finish "$done_pid" "$status"
  done
  run_one "$name" &
  pid_of[$!]=$name
done
for pid in "${!pid_of[@]}"; do
  status=0
  wait "$pid" || status=$?
  finish "$pid" "$status"
done

echo "fuzz: done in $((SECONDS - start)) s"
if ((${#failed[@]})); then
  echo "fuzz: findings in: ${failed[*]} (inputs under $findings/)" >&2
  exit 1
fi
