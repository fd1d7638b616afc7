#!/usr/bin/env bash
# RDMA against TCP between two real hosts: the same gpubench on both, a server on one, the
# client on the other. Writes one result file with net.rdma.* and net.tcp.* side by side
# (latency, bandwidth, CPU seconds per GB; see docs/rdma.md for how to read it).
#
#   host B:  scripts/rdma-vs-tcp.sh server [--port 18515] [--token-file FILE] [--bin PATH]
#   host A:  scripts/rdma-vs-tcp.sh client HOST_B [--port 18515] [--token-file FILE]
#                [--out FILE] [--bin PATH] [-- extra `gpubench run` options]
#
# Extra run options go to both families, e.g. `-- --rdma-device mlx5_0 --gid-index 3
# --peer-rdma-device mlx5_0 --rdma-memory cuda --sizes 2:8M`.
set -euo pipefail

usage() {
  sed -n '5,11p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

[ $# -ge 1 ] || usage
mode=$1
shift
peer=""
if [ "$mode" = client ]; then
  [ $# -ge 1 ] || usage
  peer=$1
  shift
fi

port=18515
token_file=""
out=""
bin="$(cd "$(dirname "$0")/.." && pwd)/build/gpubench"
extra=()
while [ $# -gt 0 ]; do
  case $1 in
    --port) port=$2; shift 2 ;;
    --token-file) token_file=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --bin) bin=$2; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    *) echo "rdma-vs-tcp.sh: unknown option $1" >&2; usage ;;
  esac
done
[ -x "$bin" ] || { echo "rdma-vs-tcp.sh: $bin not found: build first (scripts/run.sh)" >&2; exit 2; }

auth=()
[ -n "$token_file" ] && auth=(--token-file "$token_file")

case $mode in
  server)
    echo "serving on port $port; run the client half on the other host" >&2
    "$bin" topo
    exec "$bin" serve --port "$port" "${auth[@]}"
    ;;
  client)
    : "${out:=results/rdma-vs-tcp-$(hostname)-to-${peer}-$(date -u +%Y%m%dT%H%M%SZ).json}"
    mkdir -p "$(dirname "$out")"
    "$bin" run --suite network --filter '^net\.(rdma|tcp)\.' --peer "$peer:$port" \
      --out "$out" "${auth[@]}" "${extra[@]}"
    echo "results: $out" >&2
    # The report command, when this build has it, puts both families in one table.
    if "$bin" report --help >/dev/null 2>&1; then
      "$bin" report "$out" --md "${out%.json}.md" && echo "report: ${out%.json}.md" >&2
    fi
    ;;
  *) usage ;;
esac
