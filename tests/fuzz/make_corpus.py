#!/usr/bin/env python3
"""Writes the seed corpora of tests/fuzz/corpus/ (run from anywhere; rewrites the seeds).

Binary seeds are built here byte by byte after the layouts in transports/control/frame.hpp and
transports/rdma/exchange.cpp; file seeds are tests/golden files, trimmed small.
"""
import json
import pathlib
import struct

here = pathlib.Path(__file__).resolve().parent
root = here.parent.parent
corpus = here / "corpus"

# Control frames: "GBCC", version (2), type (2), length (4), big-endian; then the payload.
HELLO, CHALLENGE, AUTH, WELCOME, BUSY, ERROR, CASE_OPEN, CASE_READY, BLOB = range(1, 10)
POINT_BEGIN, POINT_READY, POINT_END, POINT_DONE, CASE_CLOSE, BYE = range(10, 16)


def frame(kind, body=b"", version=1):
    if not isinstance(body, bytes):
        body = json.dumps(body, separators=(",", ":")).encode()
    return b"GBCC" + struct.pack(">HHI", version, kind, len(body)) + body


NONCE = "00" * 32
MAC = "ab" * 32
hello = frame(HELLO, {"protocol": 1, "tool": "0.1.0", "nonce": NONCE})
auth = frame(AUTH, {"mac": MAC})


# RDMA endpoint message: "GBRD", version 2, type 2, then lid qpn psn rkey addr length
# has_gid gid[16] gid_type mtu out_reads link_layer.
def endpoint(lid, qpn, psn, rkey, addr, length, gid, gid_type, mtu, reads, link):
    return (struct.pack(">IBBHIIIQQB", 0x47425244, 2, 2, lid, qpn, psn, rkey, addr, length,
                        1 if gid else 0) + (gid or bytes(16)) +
            struct.pack(">BBBB", gid_type, mtu, reads, link))


roce_gid = bytes(10) + b"\xff\xff" + bytes([198, 18, 0, 2])


def trimmed_result(path, results=2, points=2, samples=5):
    j = json.loads(path.read_text())
    j["results"] = j["results"][:results]
    for r in j["results"]:
        r["points"] = r.get("points", [])[:points]
        for p in r["points"]:
            p["samples"] = p.get("samples", [])[:samples]
    return json.dumps(j, indent=1) + "\n"


seeds = {
    "control_frame": {
        "hello": hello,
        "challenge": frame(CHALLENGE, {"protocol": 1, "tool": "0.1.0", "auth": True,
                                       "nonce": NONCE}),
        "auth": auth,
        "welcome": frame(WELCOME, {"mac": ""}),
        "error": frame(ERROR, {"message": "busy with another session"}),
        "blob": frame(BLOB, bytes(range(32))),
        "bye": frame(BYE),
        "other_version_error": frame(ERROR, {"message": "old"}, version=2),
    },
    "handshake": {
        "session": hello + auth + frame(CASE_OPEN, {"transport": "tcp",
                                                    "params": {"streams": 1}})
        + frame(POINT_BEGIN, {"bytes": 64, "ops": 1}) + frame(POINT_END, {})
        + frame(CASE_CLOSE, {}) + frame(BYE),
        "hello_only": hello,
        "gives_up": hello + frame(ERROR, {"message": "token file unreadable"}),
        "no_auth": hello + frame(AUTH, {"mac": ""}) + frame(BYE),
        "old_version": frame(HELLO, {"protocol": 0}, version=0),
    },
    "rdma_endpoint": {
        "infiniband_lid": endpoint(7, 0x1234, 0x42, 0xbeef, 0x7f0000001000, 1 << 20, None,
                                   0, 5, 16, 1),
        "roce_v2": endpoint(0, 0xabcdef, 0xfffff, 1, 0x1000, 4096, roce_gid, 2, 3, 1, 2),
        "rdma_cm": endpoint(0, 1, 0, 2, 0, 1 << 30, None, 0, 1, 4, 2),
    },
    "result_file": {
        "network.json": trimmed_result(root / "tests/golden/reports/network.json"),
        "allreduce.json": trimmed_result(root / "tests/golden/reports/allreduce.json", 1),
        "compare_base.json": (root / "tests/golden/compare/base.json").read_text(),
        "cluster.json": json.dumps({
            "schema": "gpubench.result/1",
            "tool": {"name": "gpubench", "version": "0.1.0", "git": "abc"},
            "run": {"id": "r1", "started": "2026-11-23T00:00:00Z",
                    "finished": "2026-11-23T00:01:00Z", "argv": [], "suite": "network",
                    "status": "complete"},
            "system": {"host": "n0"}, "results": [],
            "cluster": {
                "nodes": [{"name": "n0", "ranks": [0], "results": [], "status": "ok",
                           "system": {"host": "n0"}},
                          {"name": "n1", "ranks": [1], "results": [], "status": "stalled",
                           "reason": "no answer in round 2", "system": {"host": "n1"}}],
                "pairs": [{"benchmark": "net.tcp.latency", "params": {}, "bytes": 8,
                           "metric": "latency", "unit": "us", "better": "lower",
                           "median": [10.0], "p99": [12.0], "count": [100]}],
                "failures": [{"a": 0, "b": 1, "benchmark": "net.tcp.latency",
                              "reason": "peer stopped answering"}],
                "schedule": {"concurrency": 0, "rounds": 1}}}, indent=1) + "\n",
    },
    "references": {
        "references.json": (root / "tests/golden/compare/references.json").read_text(),
    },
}

for target, files in seeds.items():
    d = corpus / target
    d.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        data = content.encode() if isinstance(content, str) else content
        (d / name).write_bytes(data)
    print(f"{target}: {len(files)} seeds")
