#!/usr/bin/env python3
"""Writes the seed corpora of tests/fuzz/corpus/ (run from anywhere; rewrites the seeds).

Binary seeds are built here byte by byte after the layouts in transports/control/frame.hpp and
transports/rdma/exchange.cpp; file seeds are tests/golden files, trimmed small.
"""
import hashlib
import hmac
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


# handshake_fuzz input: a configuration byte (bits 0-1: 0 no token, 1 FUZZ_TOKEN, 2 a random
# token), then records: a control byte (bit 2: refuse busy before the feed, bit 3: leave a
# received hello waiting instead of accepting it, bit 4: fail after), a 2-byte big-endian
# length and that many bytes fed at once. The three strings are those of handshake_fuzz.cpp.
FUZZ_TOOL = "0.0.0-fuzz"
FUZZ_TOKEN = "fuzz-token"
FUZZ_SERVER_NONCE = "a" * 64
NO_TOKEN, WITH_TOKEN, RANDOM_TOKEN = 0, 1, 2
BUSY_FIRST, LEAVE_WAITING, FAIL_AFTER = 4, 8, 16


def record(data, ctl=0):
    return struct.pack(">BH", ctl, len(data)) + data


def handshake_input(config, *records):
    return bytes([config]) + b"".join(records)


def auth_mac(token, label, client_nonce, server_nonce):
    """transports/control/auth.cpp's proof."""
    msg = f"gpubench-control/{label}\n{client_nonce}\n{server_nonce}".encode()
    return hmac.new(token.encode(), msg, hashlib.sha256).hexdigest()


def handshake_seeds():
    nonce = "c" * 64
    fhello = frame(HELLO, {"protocol": 1, "tool": FUZZ_TOOL, "nonce": nonce})
    proof = frame(AUTH, {"mac": auth_mac(FUZZ_TOKEN, "client", nonce, FUZZ_SERVER_NONCE)})
    no_proof = frame(AUTH, {"mac": ""})
    return {
        "hello": handshake_input(NO_TOKEN, record(fhello)),
        "hello_auth": handshake_input(NO_TOKEN, record(fhello), record(no_proof)),
        "hello_auth_token": handshake_input(WITH_TOKEN, record(fhello), record(proof)),
        "wrong_proof": handshake_input(WITH_TOKEN, record(fhello), record(auth)),
        "random_token": handshake_input(RANDOM_TOKEN, record(fhello), record(proof)),
        # Frames split across feeds: a header in two parts, then the payloads in pieces.
        "split_frames": handshake_input(
            WITH_TOKEN, record(fhello[:5]), record(fhello[5:12]), record(fhello[12:40]),
            record(fhello[40:]), record(proof[:1]), record(proof[1:30]), record(proof[30:])),
        # Two frames in one feed: the auth must wait for the challenge.
        "pipelined": handshake_input(NO_TOKEN, record(fhello + no_proof)),
        "auth_and_more": handshake_input(NO_TOKEN, record(fhello), record(no_proof + frame(BYE))),
        "busy": handshake_input(NO_TOKEN, record(fhello, LEAVE_WAITING),
                                record(b"", BUSY_FIRST), record(no_proof)),
        "busy_in_auth": handshake_input(WITH_TOKEN, record(fhello), record(proof, BUSY_FIRST)),
        "deadline": handshake_input(WITH_TOKEN, record(fhello[:20], FAIL_AFTER), record(fhello)),
        "gives_up": handshake_input(
            NO_TOKEN, record(fhello), record(frame(ERROR, {"message": "token\nfile unreadable"}))),
        "old_version": handshake_input(NO_TOKEN, record(frame(HELLO, {"protocol": 0}, version=0))),
        "other_tool": handshake_input(
            NO_TOKEN, record(frame(HELLO, {"protocol": 1, "tool": "9.9\x1b[2J\n", "nonce": ""}))),
        # Declared lengths over max_handshake_payload (16 KiB) and over max_frame_payload.
        "oversized_hello": handshake_input(
            NO_TOKEN, record(b"GBCC" + struct.pack(">HHI", 1, HELLO, (16 << 10) + 1) + b"{"),
            record(b"}")),
        "oversized_auth": handshake_input(
            NO_TOKEN, record(fhello),
            record(b"GBCC" + struct.pack(">HHI", 1, AUTH, 0xFFFFFFFF))),
    }


def trimmed_result(path, results=2, points=2, samples=5):
    j = json.loads(path.read_text())
    j["results"] = j["results"][:results]
    for r in j["results"]:
        r["points"] = r.get("points", [])[:points]
        for p in r["points"]:
            p["samples"] = p.get("samples", [])[:samples]
    return json.dumps(j, indent=1) + "\n"


# A cluster of three with its second look (format 1.2): one node candidate measured again
# against a partner and its local point run again, one link candidate measured again.
CLUSTER_CONFIRM = {
    "schema": "gpubench.result/1.2",
    "tool": {"name": "gpubench", "version": "0.1.0", "git": "abc"},
    "run": {"id": "r2", "started": "2026-11-23T00:00:00Z", "finished": "2026-11-23T00:01:00Z",
            "argv": [], "suite": "network", "status": "complete"},
    "system": {"host": "n0"}, "results": [],
    "cluster": {
        "nodes": [{"name": f"n{i}", "ranks": [i], "results": [], "status": "ok",
                   "system": {"host": f"n{i}"}} for i in range(3)],
        "pairs": [{"benchmark": "net.tcp.bandwidth", "params": {"streams": 1}, "bytes": 1048576,
                   "metric": "bandwidth", "unit": "GB/s", "better": "higher",
                   "median": [1.0, 0.2, 1.0], "p99": [1.1, 0.25, 1.1], "count": [5, 5, 5]}],
        "failures": [],
        "schedule": {"concurrency": 0, "rounds": 3},
        "confirmation": {
            "complete": False,
            "candidates": [{"kind": "link", "a": 0, "b": 2}, {"kind": "node", "a": 1}],
            "pairs": [{"a": 0, "b": 2, "for": "link", "figures": [
                          {"benchmark": "net.tcp.bandwidth", "params": {"streams": 1},
                           "bytes": 1048576, "median": 0.21, "p99": 0.24, "count": 5}]},
                      {"a": 0, "b": 1, "for": "node", "node": 1, "figures": []}],
            "nodes": [{"node": 1, "results": []}],
            "failures": [{"a": 1, "b": 2, "benchmark": "net.tcp.bandwidth",
                          "reason": "timed out"}]}}}

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
    "handshake": handshake_seeds(),
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
        "cluster_confirm.json": json.dumps(CLUSTER_CONFIRM, indent=1) + "\n",
    },
    "references": {
        "references.json": (root / "tests/golden/compare/references.json").read_text(),
    },
}

# The importers' seeds are the project's own small fixtures of each format, as they are.
import_fixtures = root / "tests/golden/import"
for target, pattern in {
    "import_nccl_tests": "nccl-*.txt",
    "import_nvbandwidth_text": "nvbandwidth-*.txt",
    "import_nvbandwidth_json": "nvbandwidth*.json",
    "import_perftest": "perftest-*.txt",
    "import_iperf3": "iperf3-*.json",
    "import_nccl_tests_json": "nccl-tests-*.json",
    "import_perftest_json": "perftest-*.json",
}.items():
    seeds[target] = {p.name: p.read_bytes() for p in sorted(import_fixtures.glob(pattern))}

for target, files in seeds.items():
    d = corpus / target
    d.mkdir(parents=True, exist_ok=True)
    for name, content in files.items():
        data = content.encode() if isinstance(content, str) else content
        (d / name).write_bytes(data)
    print(f"{target}: {len(files)} seeds")
