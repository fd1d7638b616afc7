#!/usr/bin/env bash
# Performance check (a script, not a timed test): on a 4-host network-namespace cluster,
# gpubench's MPI allreduce busbw against a plain MPI_Allreduce timing loop on the same
# launch shape and sizes. The harness must cost nothing measurable: prints the ratio per size.
# Usage (as root): scripts/coll_overhead.sh [build/gpubench] [RATE, e.g. 1gbit] [MIN] [MAX]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
gpubench=$(realpath "${1:-$root/build/gpubench}")
rate=${2:-1gbit}
min=${3:-1048576}
max=${4:-4194304}
[[ $(id -u) -eq 0 ]] || { echo "coll_overhead: needs root (network namespaces)" >&2; exit 2; }
source "$root/tests/integration/coll_netns_lib.sh"
prefix="gbco-$$"
tmp=$(mktemp -d)
trap 'mpi_netns_down; rm -rf "$tmp"' EXIT
mpicc -O2 -o "$tmp/plain_allreduce" "$root/scripts/coll/plain_allreduce.c"
mpi_netns_up 4 "$rate"  # and the rsh agent, $tmp/agent
printf '198.18.6.%d slots=1\n' 1 2 3 4 >"$tmp/hosts"
launch=(ip netns exec "$prefix-h1" mpirun --allow-run-as-root -np 4 --hostfile "$tmp/hosts"
  --mca plm_rsh_agent "$tmp/agent" --mca oob_tcp_if_include 198.18.6.0/24
  --mca btl_tcp_if_include 198.18.6.0/24 --mca btl self,vader,tcp --mca mpi_yield_when_idle 1)
"${launch[@]}" "$tmp/plain_allreduce" "$min" "$max" 20 >"$tmp/plain.txt"
"${launch[@]}" "$gpubench" run --suite collectives --backend mpi --place out --nodes 4 \
  --sizes "$min:$max" --quiet --out "$tmp/g.json" >/dev/null
python3 - "$tmp/plain.txt" "$tmp/g.json" <<'PY'
import json, sys
plain = {int(b): float(v) for b, v in (l.split() for l in open(sys.argv[1]) if l.strip())}
doc = json.load(open(sys.argv[2]))
case = [c for c in doc["results"] if c["benchmark"] == "coll.allreduce" and c["params"]["nodes"] == 4][0]
print(f"{'bytes':>10} {'plain GB/s':>11} {'gpubench GB/s':>14} {'ratio':>7}")
for p in case["points"]:
    ref = plain.get(p["bytes"])
    if ref:
        print(f"{p['bytes']:>10} {ref:>11.4f} {p['stats']['median']:>14.4f} {p['stats']['median'] / ref:>7.3f}")
PY
