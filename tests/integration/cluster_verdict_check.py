#!/usr/bin/env python3
"""Checks what a cluster launch's console named (the verdict's "# suspect ..." lines).

cluster_verdict_check.py OUT --expect node:NODE[:send|receive] | link:A,B | uplink[:LEAF]
  [--quiet]

Passes (exit 0) when exactly the expected suspect is named and nothing else: for node:NODE,
one line naming that node (with the slow way, "send" or "receive", when given, and not the
other way) and no link; for link:A,B, one line naming that link; for uplink, one or more uplink
lines (the named leaf, when given) and no node or link. Prints what was named either way.
"""
import argparse
import re
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--expect", required=True)
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args()
    named = [l.rstrip("\n") for l in open(a.out, errors="replace") if l.startswith("# suspect ")]
    short = [re.sub(r":.*", "", l[len("# suspect "):]) for l in named]
    print("named: " + ("; ".join(short) if short else "none"))
    if not a.quiet:
        for l in named:
            print("  " + l[:300])
    parts = a.expect.split(":")
    kind = parts[0]
    ok = False
    why = ""
    if kind == "node":
        node = parts[1]
        way = parts[2] if len(parts) > 2 else ""
        ok = len(named) == 1 and re.match(rf"# suspect node {re.escape(node)}\b", named[0]) is not None
        if ok and way:
            other = "receive" if way == "send" else "send"
            head = named[0]
            ok = re.search(rf"\b{way}", head) is not None and re.search(rf"\b{other}", head) is None
            why = "" if ok else f"the line does not say the slow way is '{way}'"
    elif kind == "link":
        x, y = parts[1].split(",")
        ok = len(named) == 1 and (named[0].startswith(f"# suspect link {x} - {y}:") or
                                  named[0].startswith(f"# suspect link {y} - {x}:"))
    elif kind == "uplink":
        leaf = parts[1] if len(parts) > 1 else ""
        ok = bool(named) and all(l.startswith("# suspect uplink ") for l in named)
        if ok and leaf:
            ok = any(l.startswith(f"# suspect uplink {leaf}") for l in named)
    else:
        print(f"unknown --expect '{a.expect}'")
        return 2
    if not ok:
        print(f"FAIL: expected only {a.expect}" + (f" ({why})" if why else ""))
        return 1
    print(f"ok: named {a.expect} and nothing else")
    return 0


sys.exit(main())
