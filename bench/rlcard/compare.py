#!/usr/bin/env python3
"""Games per second: RLCard's mahjong environment against `majiang sim`, both with four
random players on one thread.

    python3 bench/rlcard/compare.py --games 2000

The first run creates a virtual environment next to this script (`.venv/`) and installs
`rlcard` into it with pip; later runs reuse it. The `majiang` binary is built with
`cargo build --release -p majiang-cli` unless `--majiang PATH` is given.

RLCard's game is a simplified Chinese mahjong (136 tiles, any complete hand wins, no scoring);
the closest majiang rule set is `classic` (the default of `--rules`). majiang also deals with
the wall, dice, flowers where the rules have them, and scores every win, so the comparison is
not quite like for like in majiang's favour: it does more per hand.
"""

import argparse
import os
import re
import subprocess
import sys
import time
import venv
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
VENV = HERE / ".venv"


def venv_python() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def ensure_rlcard() -> None:
    """Re-runs this script inside the venv (creating it and installing rlcard if needed)."""
    if Path(sys.prefix).resolve() == VENV.resolve():
        return
    if not venv_python().exists():
        print(f"creating {VENV} and installing rlcard ...", file=sys.stderr)
        venv.create(VENV, with_pip=True)
        subprocess.run(
            [str(venv_python()), "-m", "pip", "install", "--quiet", "rlcard"], check=True
        )
    os.execv(str(venv_python()), [str(venv_python()), __file__, *sys.argv[1:]])


def rlcard_games_per_second(games: int, seed: int) -> float:
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("mahjong", config={"seed": seed})
    env.set_agents(
        [RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)]
    )
    start = time.perf_counter()
    for _ in range(games):
        env.run(is_training=False)
    return games / (time.perf_counter() - start)


def majiang_binary(given: str | None) -> Path:
    if given:
        return Path(given)
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    print("building majiang (release) ...", file=sys.stderr)
    subprocess.run(
        ["cargo", "build", "--release", "--quiet", "-p", "majiang-cli"], cwd=ROOT, check=True
    )
    return target / "release" / "majiang"


def majiang_games_per_second(binary: Path, rules: str, games: int, seed: int) -> float:
    """Runs `majiang sim` with four random bots on one thread; reads its hands/s line."""
    out = subprocess.run(
        [
            str(binary), "sim", "--rules", rules, "--games", str(games),
            "--bots", "random,random,random,random", "--threads", "1", "--seed", str(seed),
        ],
        check=True, capture_output=True, text=True,
    ).stdout
    m = re.search(r"(\d+) hands in ([\d.]+) s", out)
    if not m:
        raise SystemExit(f"unexpected majiang output:\n{out}")
    return int(m.group(1)) / float(m.group(2))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=2000, help="games for RLCard (default 2000)")
    p.add_argument(
        "--majiang-games", type=int, default=None,
        help="hands for majiang (default 200 x --games: it is much faster)",
    )
    p.add_argument("--rules", default="classic", help="majiang rule set (default classic)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--majiang", help="path of the majiang binary (default: cargo build)")
    args = p.parse_args()
    binary = majiang_binary(args.majiang)  # before the venv: cargo is on the outer PATH
    if args.majiang is None:
        sys.argv += ["--majiang", str(binary)]
    ensure_rlcard()
    rl = rlcard_games_per_second(args.games, args.seed)
    mj = majiang_games_per_second(
        binary, args.rules, args.majiang_games or 200 * args.games, args.seed
    )
    print(f"RLCard mahjong, 4 random agents:     {rl:12.0f} games/s")
    print(f"majiang sim {args.rules}, 4 random bots: {mj:12.0f} hands/s")
    print(f"ratio majiang / RLCard:              {mj / rl:12.1f} x")


if __name__ == "__main__":
    main()
