#!/usr/bin/env bash
# The layout docs/developing.md promises, checked: no source file over 500 lines, namespaces
# that follow folders, no benchmark id spelled under reports/, nothing but transports under
# transports/. Prints every violation; exits 1 on any, or 0 with --report (a tree on its way).
#
#   layout_test.sh [--report] [--gpubench BIN] [ROOT]
#
# Benchmark ids come from `BIN list`; without --gpubench, from the quoted ids in the
# registration files under ROOT/benchmarks (those that define a register_<name> function).
set -euo pipefail

report=0
gpubench=""
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
while [[ $# -gt 0 ]]; do
  case "$1" in
    --report) report=1 ;;
    --gpubench) gpubench="$2"; [[ "$gpubench" == /* ]] || gpubench="$PWD/$gpubench"; shift ;;
    -h | --help) sed -n '2,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "layout_test.sh: unknown option $1" >&2; exit 2 ;;
    *) root="$1" ;;
  esac
  shift
done
[[ -d "$root" ]] || { echo "layout_test.sh: $root is not a folder" >&2; exit 2; }
cd "$root"

rooms=(core benchmarks transports cluster reports cli)
max_lines=500
id_pattern='(memory|gpu|net|coll)[.][a-z0-9_.]*'
violations=0
violation() {
  echo "$1"
  violations=$((violations + 1))
}

sources() {
  local existing=()
  for r in "${rooms[@]}"; do [[ -d "$r" ]] && existing+=("$r"); done
  [[ ${#existing[@]} -gt 0 ]] || return 0
  find "${existing[@]}" -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.cu' -o -name '*.cuh' \) |
    LC_ALL=C sort
}
mapfile -t files < <(sources)

# (a) One idea per file: a file past the limit is asking to be split.
# (b) The first named namespace follows the folder: transports/rdma/x.cpp opens
# gpubench::transports::rdma, or a namespace inside it (gpubench::reports::compare::cells) that
# is not a subfolder's. core/ is one namespace in every subfolder; a registration file under
# benchmarks/ may open gpubench::benchmarks, where the generated register_all.cpp calls
# register_<name>. A file with no named namespace (main.cpp, kernels) is free.
# One awk pass reads every file: "path lines namespace registers" per file.
if [[ ${#files[@]} -gt 0 ]]; then
  while read -r f n ns registers; do
    ((n <= max_lines)) || violation "$f: $n lines (at most $max_lines)"
    [[ "$ns" != - ]] || continue
    dir=${f%/*}
    want="gpubench::${dir//\//::}"
    [[ "$ns" == "$want" ]] && continue
    if [[ "$ns" == "$want"::* ]]; then
      inner=${ns#"$want"::}
      [[ -d "$dir/${inner%%::*}" ]] || continue
    fi
    [[ "$dir" == core/* && "$ns" == gpubench::core ]] && continue
    [[ "$dir" == benchmarks/* && "$ns" == gpubench::benchmarks && "$registers" == 1 ]] && continue
    violation "$f: namespace $ns (folder says $want)"
  done < <(awk '
    function done_file() { if (file != "") print file, lines, (ns == "" ? "-" : ns), registers }
    FNR == 1 { done_file(); file = FILENAME; lines = 0; ns = ""; registers = 0 }
    { lines++ }
    ns == "" && match($0, /^[ \t]*namespace[ \t]+[A-Za-z_][A-Za-z0-9_:]*[ \t]*\{/) {
      ns = $0; sub(/^[ \t]*namespace[ \t]+/, "", ns); sub(/[ \t]*\{.*/, "", ns)
    }
    /void[ \t]+register_[a-z0-9_]+[ \t]*\([ \t]*core::registry/ { registers = 1 }
    END { done_file() }' "${files[@]}")
fi

# (c) Reports select cases by the kind they declare, never by benchmark id: no id, and no
# prefix of ids ("net.rdma."), spelled in a string under reports/ (a // comment may name one).
if [[ -n "$gpubench" ]]; then
  mapfile -t ids < <("$gpubench" list | grep -oE "^$id_pattern" | LC_ALL=C sort -u)
  [[ ${#ids[@]} -gt 0 ]] || { echo "layout_test.sh: no benchmark ids from '$gpubench list'" >&2; exit 2; }
else
  mapfile -t ids < <(
    [[ -d benchmarks ]] || exit 0
    grep -rlE --include='*.cpp' 'void[[:space:]]+register_[a-z0-9_]+[[:space:]]*\(' benchmarks |
      xargs -r grep -ohE "\"$id_pattern\"" | tr -d '"' | LC_ALL=C sort -u)
fi
is_id_literal() {
  local s="$1" id
  for id in "${ids[@]}"; do
    [[ "$s" == "$id" ]] && return 0
    [[ "$s" == *. && "$id" == "$s"* ]] && return 0
  done
  return 1
}
if [[ -d reports && ${#ids[@]} -gt 0 ]]; then
  mapfile -t code < <(find reports -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.cu' \
    -o -name '*.cuh' \) | LC_ALL=C sort)
  # "file:line:literal" for every quoted candidate in code; a // comment may name an id.
  while IFS= read -r hit; do
    file=${hit%%:*}
    rest=${hit#*:}
    line=${rest%%:*}
    literal=${rest#*:}
    is_id_literal "$literal" && violation "$file:$line: benchmark id \"$literal\" under reports/"
  done < <([[ ${#code[@]} -eq 0 ]] || awk -v pat="\"$id_pattern\"" '{
      text = $0
      sub(/\/\/.*/, "", text)
      while (match(text, pat)) {
        print FILENAME ":" FNR ":" substr(text, RSTART + 1, RLENGTH - 2)
        text = substr(text, RSTART + RLENGTH)
      }
    }' "${code[@]}")
fi

# (d) transports/ holds only the ways bytes move, and the interfaces and list they share: the
# point-to-point transport (transport.*, transport_list.*) and the collective backends that mpi/
# and nccl/ implement (collective_backend.*, process_group.*).
if [[ -d transports ]]; then
  for entry in transports/*; do
    name=${entry#transports/}
    if [[ -d "$entry" ]]; then
      case "$name" in tcp | rdma | net | control | mpi | nccl) ;;
        *) violation "$entry/: not a transport (tcp rdma net control mpi nccl)" ;;
      esac
    else
      case "$name" in CMakeLists.txt | transport.* | transport_list.* | collective_backend.* | process_group.*) ;;
        *) violation "$entry: not a transport interface or the transport list" ;;
      esac
    fi
  done
fi

if ((violations > 0)); then
  echo "layout: $violations violation(s) in $root (docs/developing.md, \"Layout\")"
  ((report)) && exit 0
  exit 1
fi
echo "layout: ${#files[@]} source files in $root keep the layout"
