#!/usr/bin/env bash
# Performance check (a script, not a timed test): on a 4-host network-namespace cluster whose
# links are shaped with tbf to RATE, for every collective (or those in $OPS), gpubench's MPI
# busbw at 4 nodes against a plain MPI loop of the same call timed as nccl-tests times it
# (scripts/coll/plain_collectives.c: 20 calls back to back after one barrier, the time per
# call averaged over the ranks, the median of 5 runs), on the same launch shape and sizes.
# Runs once per tbf burst in $BURSTS (default "256kb 4mb": a small bucket, and one that holds
# several messages, whose refill during idle gaps favours whoever leaves gaps), the plain loop
# and gpubench of each operation one after the other. Prints the ratio per operation and size
# and whether any gpubench point was cut (fewer than 20 operations per sample) or short (fewer
# samples than the rule asks). Exit 0 when every ratio is within LOW..HIGH (0.97..1.03) and no
# point was cut, 1 otherwise, 2 on bad usage, 77 when it cannot run (not root, no mpirun or tc).
# LAUNCHES=N (default 1) alternates N launches of each side per operation and compares the
# medians over launches (each launch's ratio printed): on a shaped link the rate a size gets can
# differ from one launch to the next by more than the methods do.
# Usage (as root): scripts/coll_overhead.sh [build/gpubench] [RATE (1gbit)] [MIN (1M)] [MAX (16M)] [STEP (4)]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
gpubench=$(realpath "${1:-$root/build/gpubench}")
rate=${2:-1gbit}
min=${3:-1048576}
max=${4:-16777216}
step=${5:-4}
low=${LOW:-0.97}
high=${HIGH:-1.03}
[[ $min =~ ^[0-9]+$ && $max =~ ^[0-9]+$ && $step =~ ^[0-9]+$ ]] ||
  { echo "coll_overhead: MIN, MAX and STEP are byte counts and a factor (integers)" >&2; exit 2; }
[[ -x $gpubench ]] || { echo "coll_overhead: no $gpubench (build it first)" >&2; exit 2; }
source "$root/tests/integration/coll_netns_lib.sh"
mpi_netns_begin gbco tc
mpicc -O2 -o "$tmp/plain" "$root/scripts/coll/plain_collectives.c"
ops=${OPS:-allreduce allgather reduce_scatter alltoall broadcast sendrecv}
bursts=${BURSTS:-256kb 4mb}
launches=${LAUNCHES:-1}
[[ $launches =~ ^[1-9][0-9]*$ ]] || { echo "coll_overhead: LAUNCHES is a count >= 1" >&2; exit 2; }
for burst in $bursts; do
  MPI_NETNS_TBF="burst $burst latency 100ms"
  mpi_netns_up 4 "$rate"
  for op in $ops; do for k in $(seq 1 "$launches"); do
    mpi_netns_mpirun 4 1200 "$tmp/plain" "$op" "$min" "$max" 20 5 "$step" >"$tmp/plain-$burst-$op-$k.txt"
    # A stall timeout that leaves every sample its 20 operations (a sample may take a quarter).
    mpi_netns_mpirun 4 1800 "$gpubench" run --suite collectives --backend mpi --place out \
      --nodes 4 --filter "^coll\.$op\$" --sizes "$min:$max:$step" --coll-timeout 600 --quiet \
      --out "$tmp/g-$burst-$op-$k.json" >"$tmp/g-$burst-$op-$k.txt" 2>&1 ||
      { cat "$tmp/g-$burst-$op-$k.txt"; echo "coll_overhead: gpubench failed ($op, burst $burst)" >&2; exit 1; }
  done; done
  mpi_netns_down
done
python3 - "$tmp" "$low" "$high" "$rate" "$bursts" "$launches" $ops <<'PY'
import json, statistics, sys
tmp, low, high, rate, bursts, launches, ops = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4], sys.argv[5].split(), int(sys.argv[6]), sys.argv[7:]
bad = 0
for burst in bursts:
    print(f"\ntbf {rate}, burst {burst}: busbw GB/s, gpubench / plain loop (20 ops, median of 5 runs)" + (f"; medians of {launches} launches each" if launches > 1 else ""))
    print(f"{'operation':>15} {'bytes':>10} {'plain':>8} {'gpubench':>9} {'ratio':>7} {'ops/sample':>10} "
          f"{'plain runs':>15} {'gpubench samples':>17}  marks")
    for op in ops:
        plains, points = [], []  # per launch: {bytes: median}, {bytes: point}
        for k in range(1, launches + 1):
            rows = [l.split() for l in open(f"{tmp}/plain-{burst}-{op}-{k}.txt")]
            plains.append({int(f[0]): float(f[1]) for f in rows if f})
            doc = json.load(open(f"{tmp}/g-{burst}-{op}-{k}.json"))
            cases = [c for c in doc["results"] if c.get("kind", {}).get("operation") == op
                     and c["params"].get("nodes") == 4 and c["status"] == "ok"]
            points.append({p["bytes"]: p for p in cases[0]["points"]} if cases else {})
        # The last launch's runs and samples show each side's spread within one launch.
        runs = {int(f[0]): [float(v) for v in f[2:]] for f in rows if f}
        if not points[-1]:
            print(f"{op:>15}: no measured case"); bad += 1; continue
        for p in points[-1].values():
            refs = [pl[p["bytes"]] for pl in plains if p["bytes"] in pl]
            mine = [pt[p["bytes"]]["stats"]["median"] for pt in points if p["bytes"] in pt]
            ref, x = (statistics.median(refs) if refs else None), p.get("extra", {})
            if not ref or len(refs) != launches or len(mine) != launches:
                continue
            ratio = statistics.median(mine) / ref
            if launches > 1:
                each = " ".join(f"{m / r:.3f}" for m, r in zip(mine, refs))
                print(f"{op:>15} {p['bytes']:>10} launch by launch: {each}")
            marks = []
            if "min_iterations" in x: marks.append("cut"); bad += 1
            if "min_samples" in x: marks.append("short")
            if not low <= ratio <= high: marks.append("outside"); bad += 1
            r, st = runs.get(p["bytes"]) or [ref], p["stats"]
            print(f"{op:>15} {p['bytes']:>10} {ref:>8.4f} {statistics.median(mine):>9.4f} {ratio:>7.3f} "
                  f"{x.get('iterations_per_sample', 0):>10} {min(r):>7.4f}-{max(r):<7.4f} "
                  f"{st['min']:>8.4f}-{st['max']:<8.4f}  {' '.join(marks)}")
print(f"\n{'every ratio within' if not bad else 'MISSED:'} {low}..{high}" + (f" ({bad} miss(es) or cut point(s))" if bad else ""))
sys.exit(1 if bad else 0)
PY
