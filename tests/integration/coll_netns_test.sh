#!/usr/bin/env bash
# Every collective (allreduce, all-gather, reduce-scatter, all-to-all, broadcast, send/recv)
# across 4 test hosts in network namespaces (198.18.6.0/24), every link shaped by tbf: one
# mpirun launch measures the nested 1/2/4-node communicators with the data check (the
# default), 20 operations per sample or more, and the
# large-message busbw stays below the shaped rate and above a tenth of it. (A tenth: Open
# MPI 4.1's reduce-scatter of a few MiB over TCP reaches about a fifth of the link, and a plain
# MPI_Reduce_scatter_block loop measures the same: scripts/coll_overhead.sh.)
set -euo pipefail
gpubench=$1
here=$(cd "$(dirname "$0")" && pwd)
source "$here/coll_netns_lib.sh"
mpi_netns_begin gbc6 tc
rate_mbit=${COLL_TEST_RATE_MBIT:-300}
mpi_netns_up 4 "${rate_mbit}mbit"
# 512 KiB and 1 MiB (a chart needs two sizes): bandwidth-bound at this rate, and with 20
# operations per sample (nccl-tests' stream) each of the 12 measured cases takes some 10 s.
mpi_netns_mpirun 4 300 \
  "$gpubench" run --suite collectives --backend mpi --place out --sizes 512K:1M \
  --quiet --out "$tmp/r.json" >"$tmp/out.txt" 2>&1 || { cat "$tmp/out.txt"; echo "FAIL: mpirun"; exit 1; }
rate_gbs=$(python3 -c "print($rate_mbit * 1e6 / 8 / 1e9)")
python3 "$here/coll_check.py" "$tmp/r.json" --nodes 1,2,4 --rate-gbs "$rate_gbs" --min-fraction 0.1

# The report shows every operation: a headline row at 4 nodes, a section with its chart and
# scaling table, and the operation's own bus factor.
"$gpubench" report "$tmp/r.json" --md "$tmp/r.md" >"$tmp/report.txt" 2>&1 ||
  { cat "$tmp/report.txt"; echo "FAIL: report"; exit 1; }
python3 - "$tmp/r.md" <<'PY'
import re, sys
md = open(sys.argv[1]).read()
ops = {"Allreduce": "2(n-1)/n", "All-gather": "(n-1)/n", "Reduce-scatter": "(n-1)/n",
       "All-to-all": "(n-1)/n", "Broadcast": "1", "Send/recv": "1"}
sections = {s.split("\n", 1)[0]: s for s in re.split(r"\n## ", md)}
for title, factor in ops.items():
    if not re.search(rf"^\| {re.escape(title)} mpi/\S+ \(4 nodes\) \|", md, re.M):
        sys.exit(f"FAIL: no headline row for {title} at 4 nodes")
    sec = [s for t, s in sections.items() if t.startswith(f"{title} across nodes")]
    if not sec:
        sys.exit(f"FAIL: no section for {title}")
    s = sec[0].split("\n### ")[0]
    if f"busbw = algbw x {factor}," not in s:
        sys.exit(f"FAIL: {title}: not its bus factor {factor}")
    if "![" not in s or "**Scaling" not in s:
        sys.exit(f"FAIL: {title}: no chart or no scaling table")
print(f"ok: the report shows all {len(ops)} operations (headline, chart, scaling table)")
PY
