"""Hostile clients of `gpubench serve`, speaking the control protocol by hand (loopback only).

Usage: serve_hostile.py PORT TOOL_VERSION SCENARIO; prints one line, exits non-zero on failure.
Every loop is bounded; every wait has a timeout.
"""
import json
import socket
import struct
import sys
import time

MAGIC = 0x47424343
HELLO, CHALLENGE, AUTH, WELCOME, BUSY, ERROR = 1, 2, 3, 4, 5, 6
BYE = 15


def frame(kind, body, length=None):
    payload = json.dumps(body).encode() if not isinstance(body, bytes) else body
    return struct.pack(">IHHI", MAGIC, 1, kind, len(payload) if length is None else length) + payload


def connect(port):
    s = socket.create_connection(("127.0.0.1", port), timeout=3)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s


def read_exact(s, n):
    data = b""
    while len(data) < n:
        chunk = s.recv(n - len(data))
        if not chunk:
            raise EOFError("server closed the connection")
        data += chunk
    return data


def read_frame(s):
    magic, _, kind, length = struct.unpack(">IHHI", read_exact(s, 12))
    assert magic == MAGIC, "not a control frame"
    return kind, json.loads(read_exact(s, length) or b"{}")


def hello(tool):
    return frame(HELLO, {"protocol": 1, "tool": tool, "nonce": "ab"})


def closed_within(s, seconds):
    """True when the server closes (EOF or reset) within `seconds`; drains what it sends."""
    s.settimeout(0.05)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            if not s.recv(4096):
                return True
        except socket.timeout:
            continue
        except OSError:
            return True
    return False


def large_hello(port, tool):
    s = connect(port)
    t0 = time.monotonic()
    s.sendall(frame(HELLO, b"", length=1 << 20)[:12])
    kind, body = read_frame(s)
    took = time.monotonic() - t0
    assert kind == ERROR and "over the limit" in body["message"], (kind, body)
    assert took < 1.0, f"a 1 MiB hello was answered after {took:.1f} s"
    print(f"1 MiB hello refused at once ({took:.2f} s): {body['message']}")


def trickle(port, tool):
    """Declares a hello of 8000 bytes and sends one byte every 300 ms (at most 10 s)."""
    s = connect(port)
    s.sendall(frame(HELLO, b"", length=8000)[:12])
    t0 = time.monotonic()
    for _ in range(33):
        try:
            s.send(b"x")
        except OSError:
            break
        if closed_within(s, 0.3):
            break
    else:
        raise AssertionError("a trickled hello held the server for 10 s")
    took = time.monotonic() - t0
    assert took < 2.5, f"the trickle was dropped only after {took:.1f} s"
    print(f"trickled hello dropped after {took:.1f} s")


def silent(port, tool):
    """Opens 50 connections that say nothing and holds them until stdin closes."""
    held = [connect(port) for _ in range(50)]
    print(f"{len(held)} silent connections open", flush=True)
    sys.stdin.read()
    print(f"{len(held)} silent connections closed")


def hold_then_busy(port, tool):
    """Holds a session open, then times how long a second client waits for busy."""
    first = connect(port)
    first.sendall(hello(tool))
    kind, _ = read_frame(first)
    assert kind == CHALLENGE, kind
    first.sendall(frame(AUTH, {"mac": ""}))
    kind, _ = read_frame(first)
    assert kind == WELCOME, kind
    second = connect(port)
    t0 = time.monotonic()
    second.sendall(hello(tool))
    kind, body = read_frame(second)
    took = time.monotonic() - t0
    first.sendall(frame(BYE, {}))
    assert kind == BUSY, (kind, body)
    assert took < 1.0, f"busy after {took:.2f} s"
    print(f"second client told busy after {took:.2f} s: {body['message']}")


def forged_tool(port, tool):
    s = connect(port)
    s.sendall(hello("1.0\n2000-01-01T00:00:00Z gpubench serve: FORGED session"))
    kind, body = read_frame(s)
    assert kind == ERROR, kind
    assert "\n" not in body["message"], body
    print("forged tool refused: " + body["message"])


if __name__ == "__main__":
    port, tool, scenario = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    globals()[scenario](port, tool)
