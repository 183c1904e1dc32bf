#!/usr/bin/env python3
"""A simple bot for majiang's bot protocol (docs/bot-protocol.md), standard library only.

Run it through the simulator, for example:

    majiang sim --rules hongkong --matches 4 \
        --bots 'efficient,cmd:python3 examples/bots/simple_bot.py,efficient,efficient'

Its policy:
- win whenever it may (a win is only offered when the hand scores under the rules);
- on its turn, discard the tile that leaves the hand closest to ready (fewest tiles away, the
  shanten number), then the one that keeps the most unseen useful tiles (tiles that would bring
  it closer), then honours and terminals before middle tiles; never a wildcard while another
  tile will do; no kongs;
- let every other discard go (no chow, pung or kong).

It reads one JSON message a line on standard input and answers on standard output. With
`--trace FILE` it writes its chair (`seat N`) and then every action it chose, one
`HAND ACTION` line each, so a test can compare them with the match log.
"""

import json
import sys
from functools import lru_cache

SUITS = "mpsz"


def tile_index(tile):
    """'5m' -> 4, '1z' -> 27; None for bonus tiles ('3f')."""
    rank, suit = int(tile[0]), tile[1]
    if suit not in SUITS:
        return None
    return SUITS.index(suit) * 9 + rank - 1


def parse_tiles(text):
    """Counts of the 34 kinds from compact notation ('123m55z')."""
    counts = [0] * 34
    digits = []
    for ch in text:
        if ch.isdigit():
            digits.append(int(ch))
        else:
            for d in digits:
                if ch in SUITS:
                    counts[SUITS.index(ch) * 9 + d - 1] += 1
            digits = []
    return counts


@lru_cache(maxsize=None)
def suit_shapes(counts, honours):
    """Every (sets, partial sets, pair) a suit's counts can be read as."""
    i = next((k for k, c in enumerate(counts) if c), None)
    if i is None:
        return frozenset({(0, 0, 0)})
    c = list(counts)
    found = set()

    def rest(removed, add):
        d = c[:]
        for k in removed:
            d[k] -= 1
        for m, t, p in suit_shapes(tuple(d), honours):
            if p + add[2] <= 1:
                found.add((m + add[0], t + add[1], p + add[2]))

    if c[i] >= 3:
        rest([i, i, i], (1, 0, 0))
    if c[i] >= 2:
        rest([i, i], (0, 0, 1))
        rest([i, i], (0, 1, 0))
    if not honours:
        if i + 2 < 9 and c[i + 1] and c[i + 2]:
            rest([i, i + 1, i + 2], (1, 0, 0))
        if i + 1 < 9 and c[i + 1]:
            rest([i, i + 1], (0, 1, 0))
        if i + 2 < 9 and c[i + 2]:
            rest([i, i + 2], (0, 1, 0))
    rest([i], (0, 0, 0))
    return frozenset(found)


def shanten(counts, declared):
    """Tiles away from ready (0: ready, -1: complete) for the usual four sets and a pair,
    and for seven pairs with nothing declared."""
    shapes = {(0, 0, 0)}
    for s in range(4):
        part = suit_shapes(tuple(counts[s * 9:s * 9 + 9]), s == 3)
        shapes = {(a + x, b + y, p + q) for a, b, p in shapes for x, y, q in part if p + q <= 1}
    best = 8
    for m, t, p in shapes:
        sets = min(declared + m, 4)
        best = min(best, 8 - 2 * sets - min(t, 4 - sets) - p)
    if declared == 0 and sum(counts) >= 13:
        pairs = sum(1 for c in counts if c >= 2)
        kinds = sum(1 for c in counts if c)
        best = min(best, 6 - pairs + max(0, 7 - kinds))
    return best


def unseen_counts(obs, own):
    """Copies of each kind this seat has not seen (own hand, discards, melds)."""
    seen = own[:]
    for hand in obs["table"]:
        for d in hand["discards"]:
            k = tile_index(d["tile"])
            if k is not None and not d["claimed"]:
                seen[k] += 1
        for meld in hand["melds"]:
            k = tile_index(meld["tile"])
            if k is None:
                continue
            if meld["kind"] == "chow":
                for j in range(3):
                    seen[k + j] += 1
            else:
                seen[k] += 4 if "kong" in meld["kind"] else 3
    return [max(0, 4 - s) for s in seen]


def choose_discard(obs, discards):
    own = parse_tiles(obs["concealed"])
    me = obs["table"][obs["player"]]
    declared = len(me["melds"])
    unseen = unseen_counts(obs, own)
    wild = obs.get("wildcard")
    best = None
    for action_id, tile in discards:
        k = tile_index(tile)
        if k is None:  # an extra wind (five- and six-player classic): let it go first
            return action_id
        hand = own[:]
        hand[k] -= 1
        after = shanten(hand, declared)
        useful = 0
        for j in range(34):
            if unseen[j] and hand[j] < 4:
                hand[j] += 1
                if shanten(hand, declared) < after:
                    useful += unseen[j]
                hand[j] -= 1
        rank = int(tile[0])
        middling = 0 if tile[1] == "z" else min(rank - 1, 9 - rank)
        key = (tile == wild, after, -useful, middling, tile)
        if best is None or key < best[0]:
            best = (key, action_id)
    return best[1]


def decide(msg):
    actions = msg["actions"]
    by_text = {a["text"]: a["id"] for a in actions}
    if "win" in by_text:
        return by_text["win"]
    discards = [(a["id"], a["action"]["discard"]) for a in actions
                if isinstance(a["action"], dict) and "discard" in a["action"]]
    if discards:
        return choose_discard(msg["observation"], discards)
    if "pass" in by_text:
        return by_text["pass"]
    return actions[0]["id"]


def main():
    trace = None
    if len(sys.argv) == 3 and sys.argv[1] == "--trace":
        trace = open(sys.argv[2], "w")
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg["type"]
        if kind == "hello":
            if trace:
                trace.write(f"seat {msg['seat']}\n")
            answer = {"type": "ready", "protocol": 1, "name": "simple_bot"}
        elif kind == "decide":
            chosen = decide(msg)
            if trace:
                text = msg["actions"][chosen]["text"]
                trace.write(f"{msg['hand']} {text}\n")
                trace.flush()
            answer = {"type": "action", "id": chosen}
        elif kind in ("match_end", "error"):
            break
        else:
            continue
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
