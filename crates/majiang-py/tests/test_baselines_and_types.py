"""Self-play datasets, the behaviour-cloning baseline, and the package's types under mypy."""

import pathlib
import subprocess
import sys

import numpy as np
import pytest

import majiang
import majiang.baselines as bl
from conftest import TABLES, table_id

EXAMPLES = pathlib.Path(__file__).resolve().parents[1] / "examples"
#: mypy's cache, kept with the build outputs (ignored by git, reused between runs).
MYPY_CACHE = pathlib.Path(__file__).resolve().parents[3] / "target" / "py" / "mypy-cache"


@pytest.mark.parametrize("case", TABLES, ids=table_id)
def test_record_selfplay(case):
    """Every recorded action is legal in its mask, each hand's rewards are its payments (the
    same for every decision of a chair), the planes are the table's, and the recording is
    reproducible from its seed."""
    rules, options = case
    data = bl.record(rules, bot="normal", hands=6, seed=3, options=options)
    n = len(data["action"])
    assert n > 20
    planes = majiang.observation_planes(majiang.Table(rules, options).players)
    assert data["obs"].shape == (n, planes, majiang.TILE_KINDS)
    assert data["mask"].shape == (n, majiang.action_space(rules, options)) and data["mask"].dtype == np.bool_
    assert data["mask"][np.arange(n), data["action"]].all()
    for h in np.unique(data["hand"]):
        rows = data["hand"] == h
        by_chair = {}
        for chair, reward in zip(data["chair"][rows], data["reward"][rows]):
            assert by_chair.setdefault(int(chair), int(reward)) == int(reward)
    again = bl.record(rules, bot="normal", hands=6, seed=3, options=options)
    assert (again["action"] == data["action"]).all() and (again["obs"] == data["obs"]).all()
    with pytest.raises(ValueError, match="hands"):
        bl.record(rules, hands=0, options=options)
    with pytest.raises(ValueError, match="bot"):
        bl.record(rules, bot="grandmaster", hands=1, options=options)


def test_expert_selfplay_records():
    data = bl.record("hangzhou", bot="hard", hands=2, seed=1)
    assert len(data["action"]) > 10 and data["mask"][np.arange(len(data["action"])), data["action"]].all()


def test_behaviour_cloning_learns_and_beats_random():
    """A clone of the efficient bot fitted on 300 Hong Kong hands imitates it far better than
    chance and beats the random policy over 1,000 paired matches (seeded: deterministic; 300
    left the interval at 2.96 ± 3.43 chips once the last discard could be claimed only to win,
    1,000 give 4.09 ± 1.94)."""
    data = bl.record("hongkong", bot="normal", hands=300, seed=0)
    untrained = bl.BehaviourCloning(data["obs"].shape[1] * data["obs"].shape[2], data["mask"].shape[1])
    policy = bl.BehaviourCloning.fit(data, epochs=2, seed=0)
    held_out = bl.record("hongkong", bot="normal", hands=40, seed=99)
    assert policy.accuracy(held_out) > untrained.accuracy(held_out) + 0.2
    result = bl.compare(policy, bl.random_policy, "hongkong", matches=1000, seed=10**6)
    assert result.significant, result


def test_mypy_strict_sees_the_env_types(tmp_path):
    api = pytest.importorskip("mypy.api", reason="mypy is not installed")
    examples = [str(EXAMPLES / name) for name in ("typed_usage.py", "masked_ppo.py")]
    out, err, status = api.run(["--strict", "--cache-dir", str(MYPY_CACHE), *examples])
    assert status == 0, out + err
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import majiang\n"
        "reveal_type(majiang.gym_env())\n"
        "reveal_type(majiang.raw_env())\n"
        "reveal_type(majiang.gym_vector_env())\n"
        "reveal_type(majiang.Table('hongkong').legal(0))\n"
    )
    out, err, status = api.run(["--strict", "--cache-dir", str(MYPY_CACHE), str(probe)])
    # (env() is PettingZoo's OrderEnforcingWrapper, which PettingZoo ships untyped: Any.)
    assert "MajiangGymEnv" in out and "MajiangAECEnv" in out and "MajiangVectorEnv" in out, out
    assert "list[int]" in out or "list[builtins.int]" in out, out


def test_typed_example_runs():
    subprocess.run([sys.executable, str(EXAMPLES / "typed_usage.py")], check=True, capture_output=True)
