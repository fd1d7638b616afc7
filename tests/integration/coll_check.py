#!/usr/bin/env python3
"""Checks a coll.allreduce result file: every measured case ok, the data check passed,
the bus-bandwidth factor 2(n-1)/n right, and (optionally) busbw against a shaped link rate."""
import argparse
import json
import sys


def fail(msg):
    print(f"FAIL: {msg}", file=sys.stderr)
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("result")
    ap.add_argument("--ranks", type=int, help="expected ranks of the single case")
    ap.add_argument("--nodes", help="expected node counts, e.g. 1,2,4")
    ap.add_argument("--rate-gbs", type=float, help="shaped link rate in GB/s")
    ap.add_argument("--min-fraction", type=float, default=0.25)
    a = ap.parse_args()
    doc = json.load(open(a.result))
    cases = [c for c in doc["results"] if c["benchmark"] == "coll.allreduce"
             and c["params"].get("backend") == "mpi"]
    if not cases:
        fail("no MPI coll.allreduce case in the result")
    for c in cases:
        p = c["params"]
        if c["status"] != "ok":
            fail(f"case {p} is {c['status']}: {c.get('reason')}")
        if not c["points"]:
            fail(f"case {p} has no points")
        n = p["ranks"]
        if a.ranks is not None and n != a.ranks:
            fail(f"ranks {n}, expected {a.ranks}")
        factor = 2 * (n - 1) / n
        for pt in c["points"]:
            x = pt["extra"]
            if x.get("check") != "passed":
                fail(f"{p} {pt['bytes']} B: data check not recorded as passed: {x}")
            if abs(x["busbw"] - x["algbw"] * factor) > 1e-9 * max(1, x["algbw"]):
                fail(f"{p} {pt['bytes']} B: busbw {x['busbw']} != algbw {x['algbw']} * {factor}")
            expect = x["busbw"] if n > 1 else x["algbw"]
            # The metric is busbw (algbw for one rank): the value from the median time must
            # lie among the sample values.
            st = pt["stats"]
            if not (st["min"] * 0.999 <= expect <= st["max"] * 1.001):
                fail(f"{p} {pt['bytes']} B: {expect} outside the samples [{st['min']}, {st['max']}]")
    if a.nodes:
        want = [int(v) for v in a.nodes.split(",")]
        got = sorted(c["params"]["nodes"] for c in cases)
        if got != want:
            fail(f"node counts {got}, expected {want}")
        last = max(cases, key=lambda c: c["params"]["nodes"])
        rows = last["context"]["scaling"]["rows"]
        if [r["nodes"] for r in rows] != want:
            fail(f"scaling table rows {[r['nodes'] for r in rows]}, expected {want}")
    if a.rate_gbs:
        for c in cases:
            if c["params"]["nodes"] < 2:
                continue
            big = c["points"][-1]["extra"]["busbw"]
            print(f"nodes={c['params']['nodes']}: busbw {big:.4f} GB/s at {c['points'][-1]['bytes']} B,"
                  f" link {a.rate_gbs:.4f} GB/s ({100 * big / a.rate_gbs:.0f} %)")
            if big > a.rate_gbs * 1.05:
                fail(f"busbw {big} GB/s exceeds the shaped link rate {a.rate_gbs} GB/s")
            if big < a.rate_gbs * a.min_fraction:
                fail(f"busbw {big} GB/s is below {a.min_fraction} of the link rate {a.rate_gbs} GB/s")
    print(f"ok: {len(cases)} case(s)")


if __name__ == "__main__":
    main()
