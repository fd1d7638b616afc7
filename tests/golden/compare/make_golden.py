#!/usr/bin/env python3
"""Writes the result files the compare tests read: one baseline and variants of it
(a case 20% slower, a noisy shifted median, added/removed/lost cases). Run it from this
folder after changing it; the outputs are committed."""
import json
import math
import statistics

PATTERN = [0, 0.5, -0.5, 1, -1, 0.25, -0.25, 0.75, -0.75, 0.1, -0.1, 0]


def around(centre, spread):
    return [round(centre + p * spread, 6) for p in PATTERN]


def percentile(sorted_values, q):  # Hyndman & Fan type 7, as core/statistics.cpp
    h = (len(sorted_values) - 1) * q
    lo = math.floor(h)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (h - lo) * (sorted_values[hi] - sorted_values[lo])


def point(bytes_, samples):
    s = sorted(samples)
    mean = statistics.fmean(s)
    stdev = statistics.stdev(s)
    return {"bytes": bytes_,
            "stats": {"count": len(s), "min": s[0], "max": s[-1], "mean": mean,
                      "median": statistics.median(s), "stdev": stdev, "cv": stdev / mean,
                      "p90": percentile(s, 0.9), "p99": percentile(s, 0.99)},
            "samples": samples, "extra": {}, "stopped_by": "max_samples", "warmup": 2,
            "seconds": 0.5}


def case(benchmark, params, metric, points, status="ok", reason=None):
    unit, better = ("GB/s", "higher") if metric == "bandwidth" else ("us", "lower")
    c = {"benchmark": benchmark, "params": params, "status": status, "metric": metric,
         "unit": unit, "better": better, "context": {}, "points": points}
    if reason:
        c["reason"] = reason
    return c


PEER = "198.18.0.2:18515"


def cases(latency_scale=1.0, copy_1m=None, variant="base"):
    out = [
        case("memory.host.copy", {"threads": 1}, "bandwidth",
             [point(4096, around(10, 0.2)), point(1 << 20, copy_1m or around(20, 0.2))]),
        case("net.tcp.latency", {"peer": PEER, "streams": 1, "direction": "pingpong"}, "latency",
             [point(64, around(30 * latency_scale, 0.5))]),
        case("gpu.h2d", {"gpu": 0, "memory": "pinned", "engine": "ce", "numa": 0}, "bandwidth",
             [], "skipped", "needs a CUDA device: none found"),
        case("net.tcp.bandwidth", {"peer": PEER, "streams": 1, "direction": "send"}, "bandwidth",
             [point(1 << 20, around(1.1, 0.01))]),
    ]
    if variant == "changed":
        out[0]["points"].append(point(64 << 20, around(18, 0.2)))     # a size only in NEW
        out[1] = case("net.tcp.latency", out[1]["params"], "latency", [], "skipped",
                      "needs a peer: --peer not given")                # LOST
        del out[3]                                                     # REMOVED
        out.append(case("net.tcp.latency", {"peer": PEER, "streams": 4, "direction": "pingpong"},
                        "latency", [point(64, around(31, 0.5))]))      # ADDED
    return out


def result_file(results, run_id):
    return {"schema": "gpubench.result/1",
            "tool": {"name": "gpubench", "version": "0.1.0", "git": "golden"},
            "run": {"id": run_id, "started": "2026-11-22T06:00:00Z",
                    "finished": "2026-11-22T06:01:00Z", "argv": ["gpubench", "run"],
                    "suite": "interconnect", "status": "complete"},
            "system": {"host": "ci-node-1", "os": "Debian 12", "kernel": "6.1",
                       "cpu": {"model": "golden", "cores": 2}, "numa_nodes": 1, "gpus": [],
                       "rdma_devices": [], "software": {}},
            "results": results}


# Overlaps the baseline's tight 20 GB/s on both sides; median 17.25 (-13.75%).
NOISY = [8, 12, 14, 16, 17, 17, 17.5, 22, 25, 28, 30, 33]

files = {
    "base.json": result_file(cases(), "base"),
    "slower.json": result_file(cases(latency_scale=1.2), "slower"),
    "noisy.json": result_file(cases(copy_1m=NOISY), "noisy"),
    "changed.json": result_file(cases(variant="changed"), "changed"),
}
for name, content in files.items():
    with open(name, "w") as f:
        json.dump(content, f, indent=1)
        f.write("\n")
