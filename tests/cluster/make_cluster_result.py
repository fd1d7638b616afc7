#!/usr/bin/python3
"""Writes a simulated cluster result file (gpubench.result/1 with a "cluster" section) of N nodes
with one planted slow node and one planted slow link, for testing the analysis and the report
at a scale this machine cannot launch. Standard library only; per-pair summaries, no raw samples.

  make_cluster_result.py --out cluster.json [--nodes 1000] [--slow-node NAME]
                         [--slow-link NAME,NAME] [--factor 0.25] [--noise 0.05] [--seed 1]
                         [--second-look --noisy-node NAME]
                         [--matchings K] [--both-ways [--slow-way send|receive]] [--leaf-size L]
                         [--slow-uplink LEAF]

Node names are node0000, node0001, ...; the defaults plant node 2N/5 and the link between nodes
N/10 and 7N/8. Prints the planted names on stdout, one per line: "node NAME", "link A B".
--second-look writes format 1.2 with the second look (cluster.confirmation): the slow node
measured again against three partners and the slow link again, both still slow, and a noisy
node (host copy at a quarter in the first pass, default node N/2 or the next free one) that
comes out as the others when every node runs the point again; printed as "unconfirmed NAME".
Format 1.4 (docs/result.schema.json): --matchings K writes a sparse sweep (K random disjoint
matchings from --seed, schedule.method "matchings" and pair_list; the planted link is added to
the list when no matching drew it); --both-ways measures bandwidth both ways (direction to_peer,
b -> a, and from_peer, a -> b), the slow node slow in both or, with --slow-way, only when it sends
or only when it receives; --leaf-size L puts nodes on leaf switches of L nodes (leaf000, ...),
and --slow-uplink LEAF slows that leaf's pairs with other leaves (with --slow-way, one way).
"""
import argparse
import json
import random
import sys


def node_name(i):
    return "node%04d" % i


def summary(values):
    s = sorted(values)
    n = len(s)
    mean = sum(s) / n
    var = sum((v - mean) ** 2 for v in s) / (n - 1) if n > 1 else 0.0
    median = s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2
    return {"count": n, "min": s[0], "max": s[-1], "mean": mean, "median": median,
            "stdev": var ** 0.5, "cv": (var ** 0.5) / mean if mean else 0.0,
            "p90": s[-1], "p99": s[-1]}


def local_case(benchmark, params, nbytes, value, rng, noise):
    samples = [round(value * rng.uniform(1 - noise / 2, 1 + noise / 2), 3) for _ in range(3)]
    return {"benchmark": benchmark, "params": params, "status": "ok", "metric": "bandwidth",
            "unit": "GB/s", "better": "higher", "context": {},
            "points": [{"bytes": nbytes, "stats": summary(samples), "samples": samples,
                        "extra": {}, "stopped_by": "noise", "warmup": 1, "seconds": 0.01}]}


def system(name):
    return {"host": name, "os": "Debian GNU/Linux 12 (simulated)", "kernel": "6.1.0",
            "cpu": {"model": "simulated", "cores": 64}, "numa_nodes": 2, "gpus": [], "nics": [],
            "rdma_devices": [], "software": {}}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--nodes", type=int, default=1000)
    ap.add_argument("--slow-node", help="node name (default: node 2N/5)")
    ap.add_argument("--slow-link", help="NAME,NAME (default: nodes N/10 and 7N/8)")
    ap.add_argument("--factor", type=float, default=0.25,
                    help="bandwidth of the slow node and link against the others (latency / factor)")
    ap.add_argument("--noise", type=float, default=0.05, help="relative half-width of the noise")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--second-look", action="store_true",
                    help="format 1.2 with the second look (see above)")
    ap.add_argument("--noisy-node", help="node name (default: node N/2 or the next free one)")
    ap.add_argument("--matchings", type=int, default=0, help="K random matchings (default: all)")
    ap.add_argument("--both-ways", action="store_true", help="bandwidth measured both ways")
    ap.add_argument("--slow-way", choices=["both", "send", "receive"], default="both",
                    help="with --both-ways: which way the slow node is slow")
    ap.add_argument("--leaf-size", type=int, default=0, help="nodes per leaf switch")
    ap.add_argument("--slow-uplink", help="with --leaf-size: a leaf (leaf001) whose pairs with "
                    "other leaves are slow (--slow-way: out of it or into it)")
    a = ap.parse_args()
    n = a.nodes
    if n < 2 or n > 10000:
        sys.exit("make_cluster_result.py: --nodes must be 2 to 10000, got %d" % n)
    names = [node_name(i) for i in range(n)]
    index = {name: i for i, name in enumerate(names)}

    def lookup(name):
        if name not in index:
            sys.exit("make_cluster_result.py: no node '%s' among %s..%s" % (name, names[0], names[-1]))
        return index[name]

    slow = lookup(a.slow_node) if a.slow_node else (2 * n) // 5
    if a.slow_link:
        ends = a.slow_link.split(",")
        if len(ends) != 2:
            sys.exit("make_cluster_result.py: --slow-link takes NAME,NAME")
        link = tuple(sorted(lookup(e) for e in ends))
    else:
        link = (n // 10, (7 * n) // 8)
    if link[0] == link[1] or slow in link:
        sys.exit("make_cluster_result.py: the slow link needs two nodes other than the slow node")
    rng = random.Random(a.seed)
    noisy = None
    if a.second_look:
        noisy = lookup(a.noisy_node) if a.noisy_node else n // 2
        while not a.noisy_node and noisy in (slow,) + link:
            noisy = (noisy + 1) % n
        if noisy == slow or noisy in link or n < 6:
            sys.exit("make_cluster_result.py: --second-look needs 6 nodes and a noisy node that "
                     "is neither the slow node nor an end of the slow link")

    nodes = []
    for i, name in enumerate(names):
        factor = a.factor if i == slow or i == noisy else 1.0
        nodes.append({"name": name, "ranks": [i], "status": "ok", "system": system(name),
                      "results": [
                          local_case("memory.host.copy", {}, 1 << 26, 20.0 * factor, rng, a.noise),
                          local_case("gpu.h2d", {"gpu": 0, "memory": "pinned", "engine": "ce"},
                                     1 << 26, 25.0, rng, a.noise)]})

    if a.matchings < 0 or a.leaf_size < 0:
        sys.exit("make_cluster_result.py: --matchings and --leaf-size must be 0 or more")
    uplink = None
    if a.slow_uplink:
        if not a.leaf_size or not a.slow_uplink.startswith("leaf"):
            sys.exit("make_cluster_result.py: --slow-uplink takes leafNNN and needs --leaf-size")
        uplink = int(a.slow_uplink[4:])
    pair_list = matchings(n, a.matchings, link, rng) if a.matchings else None
    slots = ([(p[0], p[1]) for p in pair_list] if pair_list is not None else
             [(x, y) for x in range(n) for y in range(x + 1, n)])

    def measurement(benchmark, metric, unit, better, nbytes, base, count, way=None):
        median, p99, counts = [], [], []
        for x, y in slots:
            # The sender of this way: to_peer b -> a, from_peer a -> b.
            sender = y if way == "to_peer" else x
            receiver = x if way == "to_peer" else y
            v = base * rng.uniform(1 - a.noise, 1 + a.noise)
            if uplink is not None:
                ways = {"both": (sender, receiver), "send": (sender,), "receive": (receiver,)}
                crossing = (x // a.leaf_size == uplink) != (y // a.leaf_size == uplink)
                if crossing and (way is None or any(e // a.leaf_size == uplink
                                                    for e in ways[a.slow_way])):
                    v = base * rng.uniform(1 - a.noise, 1 + a.noise)
                    v = v * a.factor if better == "higher" else v / a.factor
                    median.append(round(v, 3))
                    p99.append(round(v * (0.9 if better == "higher" else 1.3), 3))
                    counts.append(count)
                    continue
            slow_here = (x, y) == link or (
                (x == slow or y == slow) if way is None or a.slow_way == "both" else
                (sender == slow if a.slow_way == "send" else receiver == slow))
            if slow_here:
                v = v * a.factor if better == "higher" else v / a.factor
            median.append(round(v, 3))
            p99.append(round(v * (0.9 if better == "higher" else 1.3), 3))
            counts.append(count)
        params = {"streams": 1}
        if way:
            params["direction"] = way
        return {"benchmark": benchmark, "params": params, "bytes": nbytes,
                "metric": metric, "unit": unit, "better": better,
                "median": median, "p99": p99, "count": counts}

    pairs = [measurement("net.tcp.latency", "latency", "us", "lower", 8, 12.0, 1000)]
    for way in (["to_peer", "from_peer"] if a.both_ways else [None]):
        pairs.append(measurement("net.tcp.bandwidth", "bandwidth", "GB/s", "higher", 1 << 20, 9.5,
                                 100, way))
    rounds = n - 1 if n % 2 == 0 else n
    schedule = {"rounds": rounds, "concurrency": 0}
    if pair_list is not None:
        schedule.update({"rounds": a.matchings, "method": "matchings", "matchings": a.matchings,
                         "seed": a.seed})
    cluster = {"nodes": nodes, "schedule": schedule, "pairs": pairs, "failures": []}
    if pair_list is not None:
        cluster["pair_list"] = pair_list
    if a.leaf_size:
        cluster["leaves"] = ["leaf%03d" % (i // a.leaf_size) for i in range(n)]
    if a.second_look:
        cluster["confirmation"] = second_look(n, slow, link, noisy, rng, a)
    result = {
        "schema": ("gpubench.result/1.4" if a.matchings or a.both_ways or a.leaf_size else
                   "gpubench.result/1.2" if a.second_look else "gpubench.result/1"),
        "tool": {"name": "gpubench", "version": "simulated", "git": "none"},
        "run": {"id": "simulated-%d-nodes-seed-%d" % (n, a.seed),
                "started": "2026-01-01T00:00:00Z", "finished": "2026-01-01T00:00:00Z",
                "argv": sys.argv, "suite": "interconnect", "status": "complete"},
        "system": system(names[0]),
        "results": [],
        "cluster": cluster,
    }
    with open(a.out, "w") as f:
        json.dump(result, f, separators=(",", ":"))
    print("node", names[slow])
    print("link", names[link[0]], names[link[1]])
    if noisy is not None:
        print("unconfirmed", names[noisy])


def matchings(n, k, link, rng):
    """K random disjoint matchings: [a, b, round] with a < b, a pair drawn once (a node idle where
    N is odd); the planted link is added in the last round when none drew it."""
    seen, out = set(), []
    for r in range(k):
        order = list(range(n))
        rng.shuffle(order)
        for i in range(0, n - 1, 2):
            pair = (min(order[i], order[i + 1]), max(order[i], order[i + 1]))
            if pair not in seen:
                seen.add(pair)
                out.append([pair[0], pair[1], r])
    if link not in seen:
        out.append([link[0], link[1], k - 1])
    return out


def second_look(n, slow, link, noisy, rng, a):
    """The second look of a launch: the planted faults reproduce, the noisy node does not."""
    def figures(factor):
        out = []
        for benchmark, nbytes, base, better in (("net.tcp.latency", 8, 12.0, "lower"),
                                                 ("net.tcp.bandwidth", 1 << 20, 9.5, "higher")):
            v = base * rng.uniform(1 - a.noise, 1 + a.noise)
            v = v * factor if better == "higher" else v / factor
            out.append({"benchmark": benchmark, "params": {"streams": 1}, "bytes": nbytes,
                        "median": round(v, 3), "p99": round(v * 1.2, 3), "count": 100})
        return out

    free = [i for i in range(n) if i != slow and i != noisy and i not in link]
    partners = free[:3]
    pairs = [{"a": min(slow, p), "b": max(slow, p), "for": "node", "node": slow,
              "figures": figures(a.factor)} for p in partners]
    pairs.append({"a": link[0], "b": link[1], "for": "link", "figures": figures(a.factor)})
    # The flagged point (the noisy node's host copy) on every node at once; the slow node's
    # host copy was flagged too, and is still slow.
    again = [{"node": i, "results": [local_case("memory.host.copy", {}, 1 << 26,
                                                20.0 * (a.factor if i == slow else 1.0), rng,
                                                a.noise)]} for i in range(n)]
    return {"complete": True,
            "candidates": [{"kind": "node", "a": slow}, {"kind": "node", "a": noisy},
                           {"kind": "link", "a": link[0], "b": link[1]}],
            "pairs": pairs, "nodes": again, "failures": []}


if __name__ == "__main__":
    main()
