"""Kills a gpubench client in the middle of a point and times how soon its server takes the
next client (tests/softroce). The server answers a client's hello with a challenge when it is
free and with `busy` while a session runs; this asks again until the challenge comes.

usage: free_after_kill.py PID HOST PORT TOOL_VERSION LIMIT_S
Prints the seconds from the kill to the challenge; exits 1 when over LIMIT_S or never."""
import json
import os
import signal
import socket
import struct
import sys
import time

pid, host, port, tool, limit = (int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4],
                                float(sys.argv[5]))
MAGIC, VERSION, HELLO, CHALLENGE, BUSY = 0x47424343, 1, 1, 2, 5


def first_reply():
    """The type of the server's first frame after our hello, or None when it said nothing."""
    payload = json.dumps({"protocol": VERSION, "tool": tool, "nonce": "00" * 16}).encode()
    with socket.create_connection((host, port), timeout=2) as s:
        s.sendall(struct.pack(">IHHI", MAGIC, VERSION, HELLO, len(payload)) + payload)
        header = b""
        while len(header) < 12:
            chunk = s.recv(12 - len(header))
            if not chunk:
                return None
            header += chunk
        return struct.unpack(">IHHI", header)[2]


try:
    os.kill(pid, signal.SIGKILL)
except ProcessLookupError:
    print(f"FAIL: the client (pid {pid}) had already ended: it was killed in no point")
    sys.exit(1)
t0 = time.monotonic()
replies = []
while time.monotonic() - t0 < limit + 10:
    try:
        kind = first_reply()
    except OSError as e:
        kind = f"error {e}"
    replies.append(kind)
    if kind == CHALLENGE:
        took = time.monotonic() - t0
        verdict = "ok" if took <= limit else f"FAIL: over {limit} s"
        print(f"server free {took:.2f} s after the client was killed ({len(replies) - 1} busy "
              f"replies first): {verdict}")
        sys.exit(0 if took <= limit else 1)
    time.sleep(0.05)
print(f"FAIL: the server was still not free {limit + 10} s after the kill; replies: {replies}")
sys.exit(1)
