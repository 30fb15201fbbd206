#!/usr/bin/env python3
"""A client of herdr's socket API, written from herdr's public docs (socket-api): newline-
delimited JSON over a Unix socket; a request {"id","method","params"} is answered by one line
{"id","result":{"type":...}} or {"id","error":{"code","message"}}; events.subscribe keeps the
connection open and pushes one event per line after the first answer.

  herdr.py call <socket> <method> [<params json>]
      print the answer line; exit 0 for a result, 1 for an error
  herdr.py subscribe <socket> <params json> <count> <file>
      write the answer, then <count> pushed events, one line each, to <file>; then hang up
"""
import json
import socket
import sys

_next = 0


def connect(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(120)
    s.connect(path)
    return s


def send(s, method, params):
    global _next
    _next += 1
    req = {"id": "py:%s:%d" % (method, _next), "method": method, "params": params}
    s.sendall((json.dumps(req) + "\n").encode())
    return req["id"]


def lines(s):
    buf = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            if buf:
                yield buf.decode()
            return
        buf += chunk
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            yield line.decode()


def main(argv):
    if len(argv) >= 3 and argv[0] == "call":
        params = json.loads(argv[3]) if len(argv) > 3 else {}
        s = connect(argv[1])
        rid = send(s, argv[2], params)
        line = next(lines(s), "")
        s.close()
        print(line)
        answer = json.loads(line)
        if answer.get("id") != rid:
            print("answer id %r is not the request's %r" % (answer.get("id"), rid), file=sys.stderr)
            return 3
        return 0 if "result" in answer else 1
    if len(argv) == 5 and argv[0] == "subscribe":
        s = connect(argv[1])
        rid = send(s, "events.subscribe", json.loads(argv[2]))
        want = int(argv[3])
        with open(argv[4], "w") as out:
            got = -1
            for line in lines(s):
                out.write(line + "\n")
                out.flush()
                if got < 0:
                    answer = json.loads(line)
                    if answer.get("id") != rid or "result" not in answer:
                        return 1
                got += 1
                if got >= want:
                    break
        s.close()
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
