"""Instructions a call of ``majiang.score`` and of pymahjonggb's ``MahjongFanCalculator`` on the
bench's hands, counted by valgrind (cachegrind), start-up subtracted: load-independent, unlike
the timings of ``bench.py``.

Each hand is run twice under ``valgrind --tool=cachegrind`` in a child process: once with
``--calls`` calls and once with ``2 * --calls`` (after the same warm-up call and imports), and
the difference of the two totals divided by ``--calls`` is one call's instructions (the
interpreter's start-up, imports and the loop's set-up cancel). Both sides run the same loop
(``for _ in range(n): f(x)``, pymahjonggb with ``**args``).

Usage: ``python bench/python/count.py [--calls N] [--only majiang,pymahjonggb] [--module NAME]
[--hand NAME]``; ``--module`` names another build of majiang to count (``majiang_before``).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

#: The child (it imports only the side it counts, not the bench and numpy): one warm-up call,
#: then ``n`` calls of the hand's request, given as Python literals.
CHILD = """
import sys
side, module, x, n = sys.argv[1], sys.argv[2], eval(sys.argv[3]), int(sys.argv[4])
if side == "majiang":
    import importlib
    f = importlib.import_module(module).score
    f(x)
    for _ in range(n):
        f(x)
else:
    from MahjongGB import MahjongFanCalculator as f
    f(**x)
    for _ in range(n):
        f(**x)
"""


def instructions(side: str, module: str, index: int, n: int) -> int:
    """The total instructions of a child making ``n`` calls."""
    import bench

    _, ours, theirs = bench.SCORE_HANDS[index]
    x = bench.score_request(ours) if side == "majiang" else bench.gb_arguments(theirs)
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        script = os.path.join(tmp, "child.py")
        with open(script, "w") as f:
            f.write(CHILD)
        run = subprocess.run(
            ["valgrind", "--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={out}",
             sys.executable, script, side, module, repr(x), str(n)],
            capture_output=True, text=True, check=True,
            # The same string hashes in every child (dict probes cost the same), and numpy's BLAS
            # without threads (whose spinning valgrind counts).
            env={**os.environ, "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1"},
        )
        with open(out) as f:
            for line in f:
                if line.startswith("summary:"):
                    return int(line.split()[1])
        raise RuntimeError(f"no summary in cachegrind's output: {run.stderr[-500:]}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--calls", type=int, default=5000)
    ap.add_argument("--only", default="majiang,pymahjonggb")
    ap.add_argument("--module", default="majiang")
    ap.add_argument("--hand", default="", help="only hands whose name holds this text")
    args = ap.parse_args()
    import bench

    sides = args.only.split(",")
    print(f"{'hand':32} " + " ".join(f"{s:>12}" for s in sides) + "   instructions a call")
    for i, (name, _, _) in enumerate(bench.SCORE_HANDS):
        if not re.search(re.escape(args.hand), name):
            continue
        row = []
        for side in sides:
            a = instructions(side, args.module, i, args.calls)
            b = instructions(side, args.module, i, 2 * args.calls)
            row.append((b - a) / args.calls)
        print(f"{name:32} " + " ".join(f"{v:12.0f}" for v in row), flush=True)


if __name__ == "__main__":
    main()
