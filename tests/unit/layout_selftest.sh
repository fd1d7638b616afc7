#!/usr/bin/env bash
# layout_test.sh on toy trees: a tree that keeps the layout passes, and each kind of violation
# fails it (and only reports it under --report), so the check cannot rot into always passing.
set -uo pipefail
check="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/layout_test.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

put() {  # put PATH LINE...: a file of the toy tree
  mkdir -p "$(dirname "$1")"
  local f=$1
  shift
  printf '%s\n' "$@" >"$f"
}

clean_tree() {
  rm -rf "$work/tree"
  mkdir -p "$work/tree"
  cd "$work/tree" || exit 1
  put core/runner.cpp 'namespace gpubench::core {' '}'
  put core/system/probe.cpp 'namespace gpubench::core {' '}'
  put benchmarks/gpu/cuda/copy.cu '#include <x>' 'namespace gpubench::benchmarks::gpu::cuda {' '}'
  put benchmarks/memory/host_copy.cpp 'namespace gpubench::benchmarks {' \
    'void register_memory_host_copy(core::registry& r) { r.add("memory.host.copy"); }' '}'
  put benchmarks/memory/numa_buffer.hpp '// helpers' 'namespace gpubench::benchmarks::memory {' '}'
  put benchmarks/micro/main.cpp 'namespace {' '}' 'int main() {}'
  put transports/CMakeLists.txt 'add_subdirectory(rdma)'
  put transports/transport.hpp 'namespace gpubench::transports {' '}'
  put transports/transport_list.cpp 'namespace gpubench::transports {' '}'
  put transports/rdma/endpoint.cpp 'namespace gpubench::transports::rdma {' '}'
  put cluster/plan.cpp 'namespace gpubench::cluster {' '}'
  put cli/main.cpp 'int main() {}'
  put reports/compare/cells.hpp 'namespace gpubench::reports::compare::cells {' '}'
  put reports/page_one/findings/rules_numa.cpp 'namespace gpubench::reports::page_one::findings {' \
    'const char* id = "gpu.remote_numa";  // a finding id, not a benchmark id' '}'
  put reports/page_one/headline.cpp 'namespace gpubench::reports::page_one {' \
    'const char* title = "memory.host.copy is fast";  // not an id: "memory.host.copy" is' '}'
}

# expect CODE WHAT [ARGS...]: the check on the toy tree exits CODE; its output is kept.
expect() {
  local want=$1 what=$2
  shift 2
  bash "$check" "$@" "$work/tree" >"$work/out" 2>&1
  local got=$?
  [[ $got == "$want" ]] || fail "$what: exit $got, expected $want: $(cat "$work/out")"
}
has() { grep -qF -- "$1" "$work/out" || fail "expected '$1' in: $(cat "$work/out")"; }

clean_tree
expect 0 "a tree that keeps the layout"
has "keep the layout"

# Each violation alone: strict fails and names it; --report names it and passes.
violate() {  # violate WHAT MESSAGE COMMAND...
  local what=$1 message=$2
  shift 2
  clean_tree
  "$@"
  expect 1 "$what"
  has "$message"
  expect 0 "$what, --report" --report
  has "$message"
}
long_file() { seq 501 | sed 's/^/\/\/ /' >core/long.cpp; }
violate "a file over 500 lines" "core/long.cpp: 501 lines" long_file
violate "a namespace that is not its folder's" \
  "transports/collective/driver.cpp: namespace gpubench::coll" \
  put transports/collective/driver.cpp 'namespace gpubench::coll {' '}'
violate "a subfolder's namespace in its parent" \
  "reports/x.cpp: namespace gpubench::reports::compare" \
  put reports/x.cpp 'namespace gpubench::reports::compare {' '}'
violate "a helper under benchmarks/ in the family's parent namespace" \
  "benchmarks/memory/team.cpp: namespace gpubench::benchmarks" \
  put benchmarks/memory/team.cpp 'namespace gpubench::benchmarks {' '}'
violate "a benchmark id under reports/" \
  'reports/page_one/diagram.cpp:2: benchmark id "memory.host.copy"' \
  put reports/page_one/diagram.cpp 'namespace gpubench::reports::page_one {' \
  'bool host(const std::string& id) { return id == "memory.host.copy"; }' '}'
violate "a prefix of benchmark ids under reports/" \
  'reports/page_one/diagram.cpp:2: benchmark id "memory."' \
  put reports/page_one/diagram.cpp 'namespace gpubench::reports::page_one {' \
  'bool host(const std::string& id) { return id.starts_with("memory."); }' '}'
violate "a folder under transports/ that is not a transport" "transports/cluster/: not a transport" \
  put transports/cluster/run.cpp 'namespace gpubench::transports::cluster {' '}'
violate "a file under transports/ that is not the interface or list" \
  "transports/notes.md: not a transport interface or the transport list" put transports/notes.md 'notes'

# Ids from `gpubench list` when the binary is given: here an id no registration file spells.
clean_tree
put "$work/gpubench" '#!/bin/sh' 'echo "benchmark  suite  description"' \
  'echo "coll.allgather  collectives  all-gather"' 'echo "  available"'
chmod +x "$work/gpubench"
put reports/page_one/view.cpp 'namespace gpubench::reports::page_one {' \
  'const char* id = "coll.allgather";' '}'
expect 1 "an id from gpubench list" --gpubench "$work/gpubench"
has 'reports/page_one/view.cpp:2: benchmark id "coll.allgather"'

((failures == 0)) || exit 1
echo "layout_test.sh: every check passes a clean tree and fails its violation"
