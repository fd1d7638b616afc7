"""Checks a soft-RoCE result file (tests/softroce): every net.rdma.* case ends ok on rxe0,
names its device, port, GID index and type (RoCE v2), MTU, P_Key index (0), relaxed
ordering (and, with rdma_cm, how the RNR timer was set), buffers of the largest size, the
connection and completion mode asked for, and its peer; has a point at every size asked for,
where the server takes part with its message count equal to the client's; and its values are
plausible (bandwidth above 0 and at most the case's line rate, which for a
both-ways case is twice the port's one-way rate and says so; latency above 1 us).

usage: check_result.py FILE LABEL --sizes N,N,... [--rdma-cm on|off] [--completion poll|event]
                       [--inline N] [--two-hosts]
--completion event: every case records it, and write latency is skipped with the reason (the
  reply is a byte the CPU polls for, which no completion event announces).
--inline N: sends and writes post inline up to N bytes (the provider granted at least N, no
  fallback); reads never inline.
--two-hosts: the case's peer is host A (198.18.1.1), not loopback.
Prints one line per case and exits 1 naming every problem."""
import json
import sys

path, label, args = sys.argv[1], sys.argv[2], sys.argv[3:]
cm = args[args.index("--rdma-cm") + 1] if "--rdma-cm" in args else "off"
completion = args[args.index("--completion") + 1] if "--completion" in args else "poll"
sizes = [int(x) for x in args[args.index("--sizes") + 1].split(",")]
inline = int(args[args.index("--inline") + 1]) if "--inline" in args else None
two_hosts = "--two-hosts" in args
problems = []


def problem(text):
    problems.append(f"{label}: {text}")


run = json.load(open(path))
if run["run"]["status"] != "complete":
    problem(f"run status {run['run']['status']}")
want = {("net.rdma.latency", op, None) for op in ("send", "write", "read")}
want |= {("net.rdma.bandwidth", op, d) for op, d in
         (("send", "to_peer"), ("write", "to_peer"), ("read", "from_peer"),
          ("send", "bidir"), ("write", "bidir"), ("read", "bidir"))}
seen = set()
peaks = {False: set(), True: set()}  # the peaks of one-way and of both-ways cases
for case in run["results"]:
    params, ctx = case["params"], case.get("context", {})
    key = (case["benchmark"], params.get("op"), params.get("direction"))
    name = " ".join(str(k) for k in key if k)
    seen.add(key)
    if completion == "event" and key == ("net.rdma.latency", "write", None):
        if case["status"] != "skipped" or "event" not in case.get("reason", ""):
            problem(f"{name}: {case['status']}, not skipped for event completions")
        continue
    if case["status"] != "ok":
        problem(f"{name}: {case['status']}: {case.get('reason', '')}")
        continue
    for field, ok in (("device", ctx.get("device") == "rxe0"),
                      ("port", ctx.get("port") == 1),
                      ("gid_index", isinstance(ctx.get("gid_index"), int)),
                      ("gid_type", ctx.get("gid_type") == "RoCE v2"),
                      ("mtu", ctx.get("mtu") in (256, 512, 1024, 2048, 4096)),
                      ("link_layer", ctx.get("link_layer") == "Ethernet"),
                      ("connection", (ctx.get("connection") == "rdma_cm") == (cm == "on")),
                      ("completion_mode", ctx.get("completion_mode") == completion),
                      # recorded either way (rxe may or may not take the flag)
                      ("relaxed_ordering", isinstance(ctx.get("relaxed_ordering"), bool)
                       and bool(ctx.get("relaxed_ordering_choice"))),
                      ("pkey_index", ctx.get("pkey_index") == 0),
                      ("min_rnr_timer_choice",
                       (cm == "on") == bool(ctx.get("min_rnr_timer_choice"))),
                      # Source and target buffers, each its own region of the largest size,
                      # within rxe's limits: nothing left out.
                      ("buffers", ctx.get("buffers", {}).get("largest_message") == max(sizes)
                       and ctx.get("buffers", {}).get("region_bytes") == max(sizes)),
                      ("sizes_left_out", "sizes_left_out" not in ctx),
                      ("inline", inline is None or ctx.get("inline") ==
                       (0 if params.get("op") == "read" else inline)),
                      ("inline_granted", inline is None or params.get("op") == "read"
                       or ctx.get("inline_granted", 0) >= inline),
                      ("inline_fallback", "inline_fallback" not in ctx)):
        if not ok:
            problem(f"{name}: context {field} = {ctx.get(field)!r}")
    peer = str(params.get("peer", ""))
    if two_hosts != peer.startswith("198.18.1.1"):
        problem(f"{name}: peer {peer!r}, not {'host A' if two_hosts else 'loopback'}")
    got = [p["bytes"] for p in case["points"]]
    if got != sizes:
        problem(f"{name}: points at {got}, not at {sizes}")
    peak = case.get("peak")
    bound = peak["value"] if peak and peak.get("unit") == "GB/s" else 12.5  # 100 Gb/s
    # A both-ways case's peak counts both directions of the port (twice its one-way rate), so
    # its bandwidth is at most 100 % of it; the one-way cases' peak is the port's rate.
    if peak and case["unit"] == "GB/s":
        peaks[params.get("direction") == "bidir"].add(peak["value"])
        if (params.get("direction") == "bidir") != ("both directions" in peak.get("basis", "")):
            problem(f"{name}: peak basis {peak.get('basis')!r}")
    if not case["points"]:
        problem(f"{name}: no points")
    values = []
    for p in case["points"]:
        m = p["stats"]["median"]
        values.append(f"{p['bytes']}B={m:.3g}")
        if case["unit"] == "us" and not m > 1.0:
            problem(f"{name} {p['bytes']} B: latency {m} us, not above 1 us")
        if case["unit"] == "GB/s" and not 0 < m <= bound:
            problem(f"{name} {p['bytes']} B: bandwidth {m} GB/s, not in (0, {bound}]")
        if case["unit"] == "GB/s":
            values[-1] += f"({100 * m / bound:.0f}%)"
        # Where the server takes part (sends, write latency, both ways) it counts every
        # message the client does: a completion counted in the wrong point shows here.
        extra = p.get("extra", {})
        server_counts = params.get("op") == "send" or params.get("direction") == "bidir" or (
            case["unit"] == "us" and params.get("op") == "write")
        if server_counts and extra.get("messages_server") != extra.get("messages_client"):
            problem(f"{name} {p['bytes']} B: the server counted {extra.get('messages_server')} "
                    f"messages, the client {extra.get('messages_client')}")

    print(f"{label}: {name}: {case['status']} {ctx.get('device')} port {ctx.get('port')} "
          f"GID {ctx.get('gid_index')} ({ctx.get('gid_type')}) MTU {ctx.get('mtu')} "
          f"{case['unit']} {' '.join(values)}")
uni, both = peaks[False], peaks[True]
if len(uni) != 1 or len(both) != 1:
    problem(f"peaks of one-way cases {uni} and of both-ways cases {both}: one of each expected")
elif abs(next(iter(both)) - 2 * next(iter(uni))) > 1e-9:
    problem(f"both-ways peak {both} is not twice the one-way peak {uni}")
for key in sorted(want - seen, key=str):
    problem(f"case missing: {' '.join(str(k) for k in key if k)}")
if problems:
    print("\n".join("FAIL: " + p for p in problems))
    sys.exit(1)
print(f"{label}: all {len(seen)} cases ok")
