#!/usr/bin/env python3
"""Checks the collectives of a result file (every operation, or those of --ops): every
measured case ok, the data check (the default) passed, 20 operations per sample or more
(fewer only when marked), the bus-bandwidth factor of each operation as
nccl-tests defines it (doc/PERFORMANCE.md: allreduce 2(n-1)/n; all-gather, reduce-scatter and
all-to-all (n-1)/n; broadcast and send/recv 1), the node counts and scaling table of each
operation, and (optionally) busbw against a shaped link rate."""
import argparse
import json
import sys


def fail(msg):
    print(f"FAIL: {msg}", file=sys.stderr)
    sys.exit(1)


FACTORS = {
    "allreduce": lambda n: 2 * (n - 1) / n,
    "allgather": lambda n: (n - 1) / n,
    "reduce_scatter": lambda n: (n - 1) / n,
    "alltoall": lambda n: (n - 1) / n,
    "broadcast": lambda n: 1.0,
    "sendrecv": lambda n: 1.0,
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("result")
    ap.add_argument("--ranks", type=int, help="expected ranks of the single case")
    ap.add_argument("--nodes", help="expected node counts, e.g. 1,2,4")
    ap.add_argument("--rate-gbs", type=float, help="shaped link rate in GB/s")
    ap.add_argument("--min-fraction", type=float, default=0.25)
    ap.add_argument("--ops", default=",".join(FACTORS),
                    help="operations the result must hold (default: all six)")
    a = ap.parse_args()
    doc = json.load(open(a.result))
    by_op = {}
    for c in doc["results"]:
        if c["kind"]["path"] == "collective" and c["params"].get("backend") == "mpi":
            by_op.setdefault(c["kind"]["operation"], []).append(c)
    want_ops = a.ops.split(",")
    if sorted(by_op) != sorted(want_ops):
        fail(f"operations {sorted(by_op)}, expected {sorted(want_ops)}")
    for op, cases in by_op.items():
        check_op(a, op, cases)
    print(f"ok: {sum(len(v) for v in by_op.values())} case(s) of {len(by_op)} operation(s)")


def check_op(a, op, cases):
    for c in cases:
        p = c["params"]
        if p["ranks"] < 2:
            # One rank has no bus bandwidth: skipped with the reason, never a value.
            if c["status"] != "skipped" or "no bus bandwidth" not in c.get("reason", ""):
                fail(f"single-rank case {p} is {c['status']} ({c.get('reason')}), expected "
                     "skipped for having no bus bandwidth")
            if c["points"]:
                fail(f"single-rank case {p} has points")
            if a.ranks is not None and p["ranks"] != a.ranks:
                fail(f"ranks {p['ranks']}, expected {a.ranks}")
            continue
        if c["status"] != "ok":
            fail(f"{op} case {p} is {c['status']}: {c.get('reason')}")
        if not c["points"]:
            fail(f"case {p} has no points")
        n = p["ranks"]
        if a.ranks is not None and n != a.ranks:
            fail(f"ranks {n}, expected {a.ranks}")
        factor = FACTORS[op](n)
        for pt in c["points"]:
            x = pt["extra"]
            if x.get("check") != "passed":
                fail(f"{p} {pt['bytes']} B: data check (on by default) not recorded as passed: {x}")
            # nccl-tests' stream: 20 operations back to back at least, unless marked cut.
            if x.get("iterations_per_sample", 0) < 20 and "min_iterations" not in x:
                fail(f"{p} {pt['bytes']} B: {x.get('iterations_per_sample')} operations per "
                     "sample, fewer than 20 and not marked cut (min_iterations)")
            if abs(x["busbw"] - x["algbw"] * factor) > 1e-9 * max(1, x["algbw"]):
                fail(f"{p} {pt['bytes']} B: busbw {x['busbw']} != algbw {x['algbw']} * {factor}")
            expect = x["busbw"]
            # The metric is busbw (algbw for one rank): the value from the median time must
            # lie among the sample values.
            st = pt["stats"]
            if not (st["min"] * 0.999 <= expect <= st["max"] * 1.001):
                fail(f"{p} {pt['bytes']} B: {expect} outside the samples [{st['min']}, {st['max']}]")
    if a.nodes:
        want = [int(v) for v in a.nodes.split(",")]
        got = sorted(set(c["params"]["nodes"] for c in cases))
        if got != want:
            fail(f"{op}: node counts {got}, expected {want}")
        last = max(cases, key=lambda c: c["params"]["nodes"])
        scaling = last["context"]["scaling"]
        rows = scaling["rows"]
        measured = [n for n in want if any(c["params"]["nodes"] == n and c["status"] == "ok"
                                           for c in cases)]
        if [r["nodes"] for r in rows] != measured:
            fail(f"scaling table rows {[r['nodes'] for r in rows]}, expected {measured}")
        multi = [n for n in measured if n >= 2]
        if scaling.get("multi_node_baseline_nodes") != (multi[0] if multi else None):
            fail(f"multi-node baseline {scaling.get('multi_node_baseline_nodes')}, "
                 f"expected {multi[0] if multi else None}")
    if a.rate_gbs:
        for c in cases:
            if c["params"]["nodes"] < 2 or c["status"] != "ok":
                continue
            big = c["points"][-1]["extra"]["busbw"]
            print(f"{op} nodes={c['params']['nodes']}: busbw {big:.4f} GB/s at {c['points'][-1]['bytes']} B,"
                  f" link {a.rate_gbs:.4f} GB/s ({100 * big / a.rate_gbs:.0f} %)")
            if big > a.rate_gbs * 1.05:
                fail(f"busbw {big} GB/s exceeds the shaped link rate {a.rate_gbs} GB/s")
            if big < a.rate_gbs * a.min_fraction:
                fail(f"busbw {big} GB/s is below {a.min_fraction} of the link rate {a.rate_gbs} GB/s")


if __name__ == "__main__":
    main()
