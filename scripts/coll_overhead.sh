#!/usr/bin/env bash
# Performance check (a script, not a timed test): on a 4-host network-namespace cluster, for
# every collective (or those in $OPS), gpubench's MPI busbw at 4 nodes against a plain MPI
# timing loop of the same call on the same launch shape and sizes (scripts/coll/
# plain_collectives.c). The harness must cost nothing measurable: prints the ratio per size
# (target: 0.98 or more) and the lowest ratio of each operation.
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
mpicc -O2 -o "$tmp/plain" "$root/scripts/coll/plain_collectives.c"
mpi_netns_up 4 "$rate"  # and the rsh agent, $tmp/agent
printf '198.18.6.%d slots=1\n' 1 2 3 4 >"$tmp/hosts"
launch=(ip netns exec "$prefix-h1" mpirun --allow-run-as-root -np 4 --hostfile "$tmp/hosts"
  --mca plm_rsh_agent "$tmp/agent" --mca oob_tcp_if_include 198.18.6.0/24
  --mca btl_tcp_if_include 198.18.6.0/24 --mca btl self,vader,tcp --mca mpi_yield_when_idle 1)
ops=${OPS:-allreduce allgather reduce_scatter alltoall broadcast sendrecv}
for op in $ops; do
  "${launch[@]}" "$tmp/plain" "$op" "$min" "$max" 20 >"$tmp/plain-$op.txt"
done
"${launch[@]}" "$gpubench" run --suite collectives --backend mpi --place out --nodes 4 \
  --filter "coll\.(${ops// /|})\$" --sizes "$min:$max" --quiet --out "$tmp/g.json" >/dev/null
python3 - "$tmp" "$tmp/g.json" $ops <<'PY'
import json, sys
doc = json.load(open(sys.argv[2]))
print(f"{'operation':>15} {'bytes':>10} {'plain GB/s':>11} {'gpubench GB/s':>14} {'ratio':>7}")
for op in sys.argv[3:]:
    plain = {int(b): float(v) for b, v in (l.split() for l in open(f"{sys.argv[1]}/plain-{op}.txt") if l.strip())}
    case = [c for c in doc["results"] if c["kind"].get("operation") == op and c["params"]["nodes"] == 4][0]
    ratios = []
    for p in case["points"]:
        ref = plain.get(p["bytes"])
        if ref:
            ratios.append(p["stats"]["median"] / ref)
            print(f"{op:>15} {p['bytes']:>10} {ref:>11.4f} {p['stats']['median']:>14.4f} {ratios[-1]:>7.3f}")
    print(f"{op:>15}: lowest ratio {min(ratios):.3f}" if ratios else f"{op}: no common size")
PY
