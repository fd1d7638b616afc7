#!/usr/bin/env python3
"""Writes synthetic gpubench result files for the store's tests: N runs of one host-memory case
at two sizes, seeded noise around a level, a step from run STEP on (1-based), and optionally a
kernel change (a fingerprint event) from run EVENT on.

usage: history_runs.py DIR N [--step STEP --factor F] [--noise REL] [--seed S] [--event E]
                       [--prefix NAME] [--host HOST]
"""
import argparse
import json
import random
import statistics
from pathlib import Path


def stats(samples):
    s = sorted(samples)
    q = lambda f: s[min(len(s) - 1, int(f * (len(s) - 1) + 0.5))]
    mean = statistics.fmean(s)
    sd = statistics.stdev(s)
    return {"count": len(s), "min": s[0], "max": s[-1], "mean": mean,
            "median": statistics.median(s), "stdev": sd, "cv": sd / mean, "p90": q(0.9),
            "p99": q(0.99)}


def run_file(i, args, rng):
    level = 10.0 * (args.factor if args.step and i >= args.step else 1.0)
    kernel = "6.5.0-test" if args.event and i >= args.event else "6.1.0-test"
    centre = level * (1 + rng.gauss(0, args.noise))
    points = []
    for size in (65536, 1048576):
        samples = [centre * (1 + rng.gauss(0, args.noise / 4)) for _ in range(8)]
        points.append({"bytes": size, "stats": stats(samples), "samples": samples,
                       "extra": {}, "stopped_by": "noise", "warmup": 1, "seconds": 0.1})
    minute = i - 1
    started = f"2026-11-{1 + minute // 1440:02d}T{minute // 60 % 24:02d}:{minute % 60:02d}:00Z"
    return {
        "schema": "gpubench.result/1.4",
        "tool": {"name": "gpubench", "version": "0.1.0", "git": "test"},
        "run": {"id": f"{args.prefix}-{i:03d}", "started": started, "finished": started,
                "argv": ["gpubench", "run", "--suite", "memory"], "suite": "memory",
                "status": "complete"},
        "system": {"host": args.host, "kernel": kernel, "cpu": {"model": "Test CPU"}},
        "results": [{"benchmark": "memory.host.copy",
                     "kind": {"path": "host_memory", "endpoints": ["src_numa", "dst_numa"]},
                     "params": {"threads": 1}, "status": "ok", "metric": "bandwidth",
                     "unit": "GB/s", "better": "higher", "points": points}],
    }


def main():
    p = argparse.ArgumentParser()
    p.add_argument("dir")
    p.add_argument("n", type=int)
    p.add_argument("--step", type=int, default=0)
    p.add_argument("--factor", type=float, default=1.0)
    p.add_argument("--noise", type=float, default=0.005)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--event", type=int, default=0)
    p.add_argument("--prefix", default="run")
    p.add_argument("--host", default="node-a")
    args = p.parse_args()
    rng = random.Random(args.seed)
    out = Path(args.dir)
    out.mkdir(parents=True, exist_ok=True)
    for i in range(1, args.n + 1):
        (out / f"{args.prefix}-{i:03d}.json").write_text(json.dumps(run_file(i, args, rng)))


if __name__ == "__main__":
    main()
