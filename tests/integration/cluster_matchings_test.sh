#!/usr/bin/env bash
# Cluster mode with --pairs matchings:3 (issue 35): 8 test hosts at 200 Mbit/s, one CPU-bound
# process beside the launch; each node measured against 3 random partners (the seed recorded),
# then the second look. Launch 1: host 5 slowed to 50 Mbit/s both ways: n5 named, nothing else.
# Launch 2: only the path between two nodes that the plan pairs slowed (htb both ways): the
# link named, no node.
set -euo pipefail
gpubench=$1
here=$(cd "$(dirname "$0")" && pwd)
source "$here/cluster_faults_lib.sh"
MPI_NETNS_NET=198.18.42
command -v python3 >/dev/null || mpi_netns_skip "no python3"
mpi_netns_begin gbk42 tc
trap 'faults_load_stop; mpi_netns_down; [[ -n ${KEEP:-} ]] && cp -r "$tmp" "$KEEP"; rm -rf "$tmp"' EXIT
hosts=8 slow=5
args=(--suite network --filter 'net.tcp.bandwidth' --pair-sizes 1M --cluster-timeout 30
  --pairs matchings:3)
faults_load_start 1
failed=0
# check_plan FILE: 3 matchings of 4 pairs, each node with 3 distinct partners, the seed kept.
check_plan() {
  python3 - "$1" <<'PY' || failed=1
import json, sys
cl = json.load(open(sys.argv[1]))["cluster"]
s = cl["schedule"]
assert s["method"] == "matchings" and s["matchings"] == 3 and "seed" in s, s
pl = cl["pair_list"]
assert len(pl) == 12, f"{len(pl)} pairs listed"
partners = {}
for a, b, r in pl:
    partners.setdefault(a, set()).add(b)
    partners.setdefault(b, set()).add(a)
assert all(len(p) == 3 for p in partners.values()) and len(partners) == 8, partners
for m in cl["pairs"]:
    assert len(m["median"]) == 12, f"{m['benchmark']}: {len(m['median'])} entries"
ways = sorted(m["params"].get("direction") for m in cl["pairs"])
assert ways == ["from_peer", "to_peer"], ways
print(f"ok: 12 pairs in 3 matchings (seed {s['seed']}), both ways measured")
PY
}
mpi_netns_up "$hosts" 200mbit "$slow" 50mbit
faults_launch host "$hosts" 120 "${args[@]}" ||
  { cat "$tmp/host.txt"; echo "FAIL: the launch exited $?"; exit 1; }
echo "(host) launch took $faults_took s"
grep -E '^# cluster: (re-measuring|second look|[0-9]+ nodes)' "$tmp/host.txt" || true
check_plan "$tmp/host.json"
python3 "$here/cluster_verdict_check.py" "$tmp/host.txt" --expect "node:n$slow" || failed=1
mpi_netns_down
# Launch 2: the link must be one of the planned pairs. The plan is in the file before the first
# round (a seed drawn fresh each launch): a pair of the last round is slowed as soon as the plan
# is there, seconds before that round runs.
mpi_netns_up "$hosts" 200mbit
faults_launch link "$hosts" 120 "${args[@]}" &
launcher=$!
link=""
for _ in $(seq 1 400); do
  link=$(python3 - "$tmp/link.json" 2>/dev/null <<'PY' || true
import json, sys
cl = json.load(open(sys.argv[1]))["cluster"]
pl = cl["pair_list"]
last = max(r for _, _, r in pl)
a, b, _ = next(p for p in pl if p[2] == last)
print(a + 1, b + 1)
PY
)
  [[ -n $link ]] && break
  sleep 0.05
done
[[ -n $link ]] || { wait "$launcher" || true; cat "$tmp/link.txt"; echo "FAIL: no pair list in the file"; exit 1; }
read -r link_a link_b <<<"$link"
cluster_shape_path "$link_a" "$link_b" 50mbit 200mbit
cluster_shape_path "$link_b" "$link_a" 50mbit 200mbit
echo "(link) slowed n$link_a-n$link_b, a pair of the last round"
rc=0
wait "$launcher" || rc=$?
[[ $rc == 0 ]] || { cat "$tmp/link.txt"; echo "FAIL: the launch exited $rc"; exit 1; }
echo "(link) launch took $(sed -n 's/^took //p' "$tmp/link.took" 2>/dev/null || echo '?') s"
grep -E '^# cluster: (re-measuring|second look|[0-9]+ nodes)' "$tmp/link.txt" || true
check_plan "$tmp/link.json"
python3 "$here/cluster_verdict_check.py" "$tmp/link.txt" --expect "link:n$link_a,n$link_b" || failed=1
[[ $failed == 0 ]] || { echo "FAIL: see above"; exit 1; }
