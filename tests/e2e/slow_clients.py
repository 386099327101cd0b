#!/usr/bin/env python3
"""Slow and stalled HTTP clients against the preview: /status still answers within 100 ms,
a client whose request head does not come whole within 2 s is answered 408 and closed (503
when newer clients push it out of the door's 32 places), and
a request the server has no room for gets a 503 answer rather than silence.
usage: slow_clients.py PORT"""
import socket
import sys
import time

port = int(sys.argv[1])
fails = []


def connect():
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    return s


def ask(req, timeout=5.0):
    s = connect()
    s.settimeout(timeout)
    s.sendall(req)
    out = b""
    try:
        while True:
            b = s.recv(65536)
            if not b:
                break
            out += b
    except socket.timeout:
        pass
    s.close()
    return out


# 40 slow clients: a request line, then one header line every 0.5 s (a slowloris).
slow = []
for _ in range(40):
    s = connect()
    s.sendall(b"GET / HTTP/1.1\r\n")
    slow.append(s)
# 12 clients that ask for the page with keep-alive and then neither read nor close: they hold
# every connection the server has.
idle = []
for _ in range(12):
    s = connect()
    s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    idle.append(s)

worst = 0.0
start = time.monotonic()
answered = 0
while time.monotonic() - start < 3.0:
    for s in slow:
        try:
            s.sendall(b"X-Slow: 1\r\n")
        except OSError:
            pass
    t0 = time.monotonic()
    r = ask(b"GET /status HTTP/1.1\r\nHost: x\r\n\r\n")
    ms = (time.monotonic() - t0) * 1000
    worst = max(worst, ms)
    if b'"frames"' in r and b"age_ms" in r:
        answered += 1
    else:
        fails.append("/status gave %r" % r[:80])
    time.sleep(0.5)
print("/status answered %d times under 40 slow and 12 stalled clients, slowest %.1f ms"
      % (answered, worst))
if worst > 100:
    fails.append("/status took %.1f ms (at most 100)" % worst)

# The slow ones have had their 2 s: each got 408 and was closed, or, pushed out by newer
# clients while the door's 32 places were full, 503.
codes = {}
for s in slow:
    s.settimeout(1)
    try:
        r = s.recv(4096)
    except OSError:
        r = b""
    code = r.split(b" ")[1].decode() if r.startswith(b"HTTP/1.1 ") else "none"
    codes[code] = codes.get(code, 0) + 1
    s.close()
print("the 40 slow clients' answers: %s" % codes)
if set(codes) - {"408", "503"} or not codes.get("408"):
    fails.append("slow clients were answered %s (each 408, or 503 when pushed out)" % codes)

# The server is full of stalled keep-alive clients: a new page request is answered 503.
r = ask(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", timeout=2)
print("a page request with the server full: %r" % r.split(b"\r\n")[0])
if not r.startswith(b"HTTP/1.1 503"):
    fails.append("a request past the server's connections got %r, not 503" % r[:40])
for s in idle:
    s.close()

for f in fails:
    print("FAIL: " + f)
sys.exit(1 if fails else 0)
