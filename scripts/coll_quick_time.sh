#!/usr/bin/env bash
# Time check (a script, not a timed test): `gpubench run --suite collectives --quick`
# under mpirun on 4 network-namespace hosts whose links are shaped to RATE (default 1gbit), as
# docs/collectives.md ("How long it takes") promises: under 2 minutes, every point with fewer
# samples than the stopping rule asks marked. Prints the wall time, and per case its points,
# where its sweep ended and why, and its marked points. Exit 0 within TARGET_S (120), 1 over it
# or on a failed run, 77 when it cannot run (not root, no mpirun or tc).
# Usage (root): scripts/coll_quick_time.sh [build/gpubench] [RATE]   (TARGET_S=120)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
gpubench=$(realpath "${1:-$root/build/gpubench}")
rate=${2:-1gbit}
target=${TARGET_S:-120}
source "$root/tests/integration/coll_netns_lib.sh"
mpi_netns_begin gbqt tc
trap 'mpi_netns_down; rm -rf "$tmp"' EXIT
mpi_netns_up 4 "$rate"
start=$(date +%s.%N)
mpi_netns_mpirun 4 600 "$gpubench" run --suite collectives --backend mpi --quick \
  --quiet --out "$tmp/q.json" >"$tmp/q.txt" 2>&1 || { cat "$tmp/q.txt"; echo "FAIL: the run"; exit 1; }
took=$(python3 -c "print(round($(date +%s.%N) - $start, 1))")
python3 - "$tmp/q.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for c in doc["results"]:
    p = c["params"]
    name = f"{c['benchmark']} nodes={p.get('nodes')} in_place={p.get('in_place')}"
    if c["status"] != "ok":
        print(f"{name:55} {c['status']}: {c.get('reason', '')[:70]}")
        continue
    marked = sum(1 for pt in c["points"] if "min_samples" in pt.get("extra", {}))
    cut = sum(1 for pt in c["points"] if "min_iterations" in pt.get("extra", {}))
    sweep = c["context"].get("sweep")
    end = f"ended at {sweep['last_bytes']} B: {sweep['stopped_because'][:60]}" if sweep else "full sweep"
    print(f"{name:55} {len(c['points']):3} points, {marked} short, {cut} cut; {end}")
PY
echo "wall time: $took s at $rate (target: under $target s)"
python3 -c "import sys; sys.exit(0 if $took < $target else 1)"
