"""Checks the allreduce across the two soft-RoCE guests (tests/softroce/mpi_allreduce.sh): the
result's two-node cases (in place and out of place) are ok at every size with the data check
passed, over both hosts, labelled with the transport asked for; and that label is true by
what the stack itself says, not by gpubench's reading of the configuration:
  ucx  UCX's own lines (UCX_LOG_LEVEL=info) give each guest's endpoint a tag lane on a verbs
       transport of rxe0 (rc_verbs or ud_verbs), none on tcp; and rxe0's packet counters moved
       on both guests, at least one packet per 4 KiB of data each rank sent.
  tcp  Open MPI's btl_base_verbose lines say the tcp btl reaches the other host, and rxe0's
       counters did not move on either guest: nothing went through the RDMA device.

usage: check_coll.py FILE LABEL ucx|tcp MPIRUN_LOG COUNTERS
Prints what it found and exits 1 naming every problem."""
import json
import re
import sys

path, label, transport, log_path, counters_path = sys.argv[1:6]
sizes = [4096, 65536, 1048576]  # mpi_allreduce.sh: --sizes 4K:1M:16
problems = []


def problem(text):
    problems.append(f"{label}: {text}")


run = json.load(open(path))
if run["run"]["status"] != "complete":
    problem(f"run status {run['run']['status']}")
want_label = {"ucx": "rdma", "tcp": "tcp"}[transport]
seen = set()
bytes_sent = 0  # by each rank, over the whole run: allreduce sends about the message per op
for case in run["results"]:
    params = case["params"]
    if case["benchmark"] != "coll.allreduce" or params.get("nodes") != 2:
        continue
    name = f"2 nodes, in_place={params.get('in_place')}"
    seen.add(params.get("in_place"))
    if case["status"] != "ok":
        problem(f"{name}: {case['status']}: {case.get('reason', '')}")
        continue
    ctx = case.get("context", {})
    got = ctx.get("transport", {}).get("label")
    if params.get("transport") != got or got != want_label:
        problem(f"{name}: transport {params.get('transport')!r} / {got!r}, not {want_label!r}")
    hosts = ctx.get("launch", {}).get("hosts", [])
    if sorted(hosts) != ["guest-a", "guest-b"]:
        problem(f"{name}: hosts {hosts}, not both guests")
    if [p["bytes"] for p in case["points"]] != sizes:
        problem(f"{name}: points at {[p['bytes'] for p in case['points']]}, not {sizes}")
    for p in case["points"]:
        if p.get("extra", {}).get("check") != "passed":
            problem(f"{name} {p['bytes']} B: data check {p.get('extra', {}).get('check')!r}")
        if not p["stats"]["median"] > 0:
            problem(f"{name} {p['bytes']} B: busbw {p['stats']['median']}")
        bytes_sent += p["bytes"] * len(p.get("samples", [])) * \
            p.get("extra", {}).get("iterations_per_sample", 1)
    print(f"{label}: {name}: ok, transport {got} ({ctx.get('transport', {}).get('basis')}), "
          "busbw GB/s " + " ".join(f"{p['bytes']}B={p['stats']['median']:.3g}"
                                   for p in case["points"]))
if seen != {True, False}:
    problem(f"two-node cases found for in_place in {sorted(seen)}, not both")

log = open(log_path, errors="replace").read()
if transport == "ucx":
    for host in ("guest-a", "guest-b"):
        lanes = re.findall(rf"\[{host}:\d+ *:\d+\].*ep_cfg\[\d+\]: tag\(([^)]*)\)", log)
        verbs = [l for l in lanes if re.search(r"\b(rc|ud)_verbs/rxe0:1\b", l)]
        if not verbs or any("tcp" in l for l in lanes):
            problem(f"UCX on {host}: tag lanes {lanes}, not a verbs transport of rxe0 only")
        else:
            print(f"{label}: UCX on {host}: tag lanes {verbs}")
else:
    for host in ("guest-a", "guest-b"):
        other = "guest-b" if host == "guest-a" else "guest-a"
        if not re.search(rf"\[{host}:\d+\] mca: bml: Using tcp btl for send to \S+ on node "
                         rf"({other}|198\.18\.1\.\d)", log):
            problem(f"Open MPI on {host}: no 'Using tcp btl for send to ... on node {other}'")
        else:
            print(f"{label}: Open MPI on {host}: tcp btl to {other}")
    if re.search(r"UCX|openib", log):
        problem("the TCP launch's output mentions UCX or openib")

moved = {}
for line in open(counters_path):
    f = line.split()
    if len(f) == 4:
        moved.setdefault(f[1], {})[f[0]] = (int(f[2]), int(f[3]))
for host in ("guest-a", "guest-b"):
    c = moved.get(host, {})
    if "before" not in c or "after" not in c:
        problem(f"rxe0 counters of {host} missing: {c}")
        continue
    sent = c["after"][0] - c["before"][0]
    received = c["after"][1] - c["before"][1]
    print(f"{label}: rxe0 on {host}: {sent} packets sent, {received} received")
    if transport == "ucx" and min(sent, received) < bytes_sent // 4096:
        problem(f"rxe0 on {host} moved {sent}/{received} packets, fewer than one per 4 KiB "
                f"of the {bytes_sent} bytes each rank sent")
    if transport == "tcp" and (sent or received):
        problem(f"rxe0 on {host} moved {sent}/{received} packets during the TCP launch")
if problems:
    print("\n".join("FAIL: " + p for p in problems))
    sys.exit(1)
print(f"{label}: all checks passed")
