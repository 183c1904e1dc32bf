#!/usr/bin/env python3
"""A bot that plays by the protocol for a while, then misbehaves: the fall-back tests' fixture.

    misbehaving_bot.py MODE N

It answers the hello, then the first legal action of N decisions, and at the next message it
must answer (decision N + 1; the hello itself when N is `hello`) it does MODE:

- crash: exits with status 3 without answering;
- sleep: sleeps 30 s (past any time limit of the tests);
- nonsense: writes a line that is not a protocol message;
- illegal: names an action that is not legal (an id past the list);
- silent-close: closes its output and waits for its input to end.
"""

import json
import os
import sys
import time


def misbehave(mode):
    if mode == "crash":
        sys.exit(3)
    if mode == "sleep":
        time.sleep(30)
        sys.exit(0)
    if mode == "nonsense":
        print("I would rather play chess", flush=True)
    elif mode == "illegal":
        print(json.dumps({"type": "action", "id": 999}), flush=True)
    elif mode == "silent-close":
        os.close(1)
        for _ in sys.stdin:
            pass
        sys.exit(0)
    else:
        sys.exit(f"unknown mode {mode}")


def main():
    mode, limit = sys.argv[1], sys.argv[2]
    answered = 0
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "hello":
            if limit == "hello":
                misbehave(mode)
                continue
            print(json.dumps({"type": "ready", "protocol": 1, "name": "misbehaving"}), flush=True)
        elif msg["type"] == "decide":
            if answered == int(limit):
                misbehave(mode)
                continue
            answered += 1
            print(json.dumps({"type": "action", "id": 0}), flush=True)
        elif msg["type"] in ("match_end", "error"):
            break


if __name__ == "__main__":
    main()
