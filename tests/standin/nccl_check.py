#!/usr/bin/env python3
"""Checks a result file of standin_gpubench's coll.* cases with backend nccl.

nccl_check.py FILE --ranks N --cases K         every case ok, on N ranks, each point's data
                                               check passed; K cases in all
nccl_check.py FILE --failed REGEX [--status S] every coll.* case failed with a reason matching
                                               REGEX (and the run's status is S)
"""
import argparse
import json
import re
import sys


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("--ranks", type=int)
    ap.add_argument("--cases", type=int)
    ap.add_argument("--failed")
    ap.add_argument("--status")
    a = ap.parse_args()
    doc = json.load(open(a.file))
    cases = [c for c in doc["results"] if c["benchmark"].startswith("coll.")]
    if a.status and doc["run"]["status"] != a.status:
        fail(f"run status {doc['run']['status']}, expected {a.status}")
    if a.failed:
        if not cases:
            fail("no coll.* case in the file")
        for c in cases:
            if c["status"] != "failed" or not re.search(a.failed, c.get("reason", ""), re.S):
                fail(f"{c['benchmark']} {c['params']}: {c['status']}, reason "
                     f"{c.get('reason', '')!r} does not match {a.failed!r}")
        print(f"ok: {len(cases)} case(s) failed as expected")
        return
    if a.cases is not None and len(cases) != a.cases:
        fail(f"{len(cases)} coll.* cases, expected {a.cases}: "
             + ", ".join(f"{c['benchmark']}/{c['params'].get('in_place')}" for c in cases))
    seen = set()
    for c in cases:
        p = c["params"]
        name = f"{c['benchmark']} in_place={p.get('in_place')}"
        if c["status"] != "ok":
            fail(f"{name}: {c['status']}: {c.get('reason', '')}")
        if p.get("backend") != "nccl" or (a.ranks and p.get("ranks") != a.ranks):
            fail(f"{name}: params {p}, expected backend nccl on {a.ranks} ranks")
        if not c["points"]:
            fail(f"{name}: no points")
        for pt in c["points"]:
            if pt.get("extra", {}).get("check") != "passed":
                fail(f"{name}: {pt['bytes']} bytes: data check {pt.get('extra', {}).get('check')}")
        lib = c.get("context", {}).get("backend", {}).get("library", "")
        if "standin" not in lib:
            fail(f"{name}: NCCL loaded from {lib!r}, not the stand-in")
        seen.add((c["benchmark"], p.get("in_place")))
    print(f"ok: {len(cases)} cases, every point checked: " + ", ".join(
        f"{b}{'/in' if i else ''}" for b, i in sorted(seen)))


if __name__ == "__main__":
    main()
