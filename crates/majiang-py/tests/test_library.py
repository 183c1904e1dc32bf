"""The library from Python: notation, analyze, score (against the case files and the
command line), replay, and errors as ValueError."""

import json
import os
import pathlib
import subprocess

import pytest

import majiang

REPO = pathlib.Path(__file__).resolve().parents[3]
DATA = REPO / "crates" / "majiang" / "tests" / "data"
CASE_FILES = sorted(DATA.glob("*_cases.json"))


def cli():
    """The `majiang` binary if it has been built (scripts/test.sh builds it)."""
    for profile in ("release", "debug"):
        path = REPO / "target" / profile / "majiang"
        if path.exists():
            return path
    return None


def test_notation():
    assert majiang.parse_tiles("123m55z") == ["1m", "2m", "3m", "5z", "5z"]
    assert majiang.tile_index("1z") == 27
    assert majiang.tile_name(34) == "1f"
    assert [majiang.tile_name(majiang.tile_index(t)) for t in ("9p", "7z", "8f")] == ["9p", "7z", "8f"]
    assert majiang.glyphs("1m") == "🀇"
    with pytest.raises(ValueError, match="unexpected 'x' at 3"):
        majiang.parse_tiles("12x3m")
    with pytest.raises(ValueError):
        majiang.tile_name(42)


def test_analyze_waits_shanten_wildcards_melds():
    r = majiang.analyze("123m456p789s1122z")
    assert r["waits"] == ["1z", "2z"] and not r["winning"] and r["shanten"] == 0
    win = majiang.analyze("123m456p789s11122z")
    assert win["winning"] and win["decompositions"]
    # A wildcard (white dragon) completes the pair.
    wild = majiang.analyze("123m456p789s111z2z5z", wildcard="5z")
    assert wild["winning"]
    # Declared melds shorten the concealed part.
    melded = majiang.analyze("123m456p1z pung 555z", wildcard=None)
    assert melded["melds"] == ["pung 555z"] and melded["waits"] == ["1z"]


@pytest.mark.parametrize(
    "hand",
    ["12x3m", "123m456p789s11122z pung", "1111m1m", "123m", "123m456p789s11z pung 555z chow 234s", "11111m"],
)
def test_analyze_errors_are_value_errors(hand):
    with pytest.raises(ValueError):
        majiang.analyze(hand)


def cases():
    for path in CASE_FILES:
        for case in json.loads(path.read_text()):
            yield pytest.param(case, id=f"{path.stem}:{case['name']}")


def compared(answer):
    """What the case files fix, as crates/majiang/tests/common compares it: validity, total,
    the set of (id, value) patterns and the non-zero payments."""
    return (
        answer["valid"],
        answer.get("total"),
        sorted((p["id"], p["value"]) for p in answer.get("patterns", [])),
        {seat: v for seat, v in answer.get("payments", {}).items() if v != 0},
    )


@pytest.mark.parametrize("case", list(cases()))
def test_score_matches_case_files(case):
    assert compared(majiang.score(case["request"])) == compared(case["expected"])


def test_score_equals_cli_json():
    binary = cli()
    if binary is None:
        pytest.skip("the majiang binary is not built (cargo build -p majiang-cli)")
    checked = 0
    for path in CASE_FILES:
        for case in json.loads(path.read_text()):
            text = json.dumps(case["request"])
            out = subprocess.run(
                [str(binary), "score", "--json"], input=text, capture_output=True, text=True
            )
            assert out.returncode == 0, out.stderr
            assert majiang.score(case["request"]) == json.loads(out.stdout)
            assert majiang.score(text) == json.loads(out.stdout)
            checked += 1
    assert checked > 50


class _Text(str):
    """A str subclass: the dict reader's fast path leaves it to the general reader."""


def _variants(request):
    """The same request written other ways: tuples for lists, None for absent optional fields,
    a string subclass (the general reader), the JSON text."""
    tuples = {k: tuple(v) if isinstance(v, list) else v for k, v in request.items()}
    nones = dict(request)
    for key in ("discarder", "seat", "dealer", "prevailing_wind", "wildcard", "lao"):
        nones.setdefault(key, None)
    if nones["win"] == "self_draw":
        nones["discarder"] = None
    subclass = dict(request, rules=_Text(request["rules"]))
    return [tuples, nones, subclass, json.dumps(request)]


def test_score_fast_dict_reader_equals_the_general_one():
    checked = 0
    for path in CASE_FILES:
        for case in json.loads(path.read_text()):
            request = case["request"]
            expected = majiang.score(json.dumps(request))
            assert majiang.score(request) == expected
            for variant in _variants(request):
                assert majiang.score(variant) == expected, variant
            itemised = dict(request, itemise=True)
            assert majiang.score(itemised) == majiang.score(json.dumps(itemised))
            checked += 1
    assert checked > 50


@pytest.mark.parametrize(
    "request_",
    [
        {"rules": "hongkong", "concealed": "123m", "seat": "middle", "winning_tile": "1m", "win": "self_draw"},
        {"rules": "hongkong", "concealed": "123m456p789s11z5z", "winning_tile": "5x", "win": "self_draw"},
        {"rules": "hongkong", "concealed": "123m456p789s1z", "winning_tile": "1z", "win": "discard"},
        {"rules": "hongkong", "concealed": "123m", "winning_tile": "1m", "win": "self_draw",
         "melds": [{"kind": "pong", "tiles": "555z"}]},
        {"rules": "hongkong", "concealed": "123m", "winning_tile": "1m", "win": "self_draw", "lao": -1},
        {"rules": "hongkong", "concealed": "123m", "winning_tile": "1m", "win": "self_draw", "bogus": 1},
        {"rules": "hongkong", "options": {"min_fan": "x"}, "concealed": "123m", "winning_tile": "1m",
         "win": "self_draw"},
        {"rules": "hongkong", "options": None, "concealed": "123m", "winning_tile": "1m", "win": "self_draw"},
        {"rules": "hongkong", "flowers": None, "concealed": "123m", "winning_tile": "1m", "win": "self_draw"},
        {"rules": "hongkong", "kong_chain": None, "concealed": "123m", "winning_tile": "1m", "win": "self_draw"},
    ],
)
def test_score_fast_dict_reader_errors_as_the_json_text(request_):
    with pytest.raises(ValueError) as from_dict:
        majiang.score(request_)
    with pytest.raises(ValueError) as from_text:
        # The text the binding writes for its message: compact, keys in the dict's order.
        majiang.score(json.dumps(request_, separators=(",", ":")))
    assert str(from_dict.value) == str(from_text.value)


BAD_REQUESTS = [
    {"rules": "riichi"},
    {"rules": "hongkong", "concealed": "12x3m"},
    {"rules": "hongkong", "concealed": "123m", "seat": "middle"},
    {"rules": "hangzhou", "options": {"wildcard": "purple"}},
    "not json",
    {"rules": "hongkong", "concealed": 5},
]


@pytest.mark.parametrize("request_", BAD_REQUESTS)
def test_score_bad_input_raises_cli_message(request_):
    with pytest.raises(ValueError) as err:
        majiang.score(request_)
    binary = cli()
    if binary is not None:
        # The same text the binding parses: compact, keys in the dict's order.
        text = request_ if isinstance(request_, str) else json.dumps(request_, separators=(",", ":"))
        out = subprocess.run([str(binary), "score", "--json"], input=text, capture_output=True, text=True)
        assert out.returncode == 2
        assert out.stderr.strip() == f"majiang: {err.value}"


def test_score_refuses_non_json_objects():
    with pytest.raises(ValueError, match="not JSON"):
        majiang.score({"rules": "hongkong", "concealed": object()})


# The recorded logs (rules revision 1) that meet the last-discard rule (a chow or pung on the
# discard made with the live wall empty) at this line: replay refuses them there, naming the
# rule, as crates/majiang/tests/recorded_logs.rs checks on the Rust side.
MEETS_LAST_DISCARD = {
    "classic-random.jsonl": 314,
    "hongkong-greedy.jsonl": 292,
    "hongkong-random.jsonl": 1142,
    "yangzhou-random.jsonl": 3261,
}


def test_replay_recorded_logs():
    logs = sorted((DATA / "logs").glob("*.jsonl"))
    assert logs
    for log in logs:
        line = MEETS_LAST_DISCARD.get(log.name)
        if line is None:
            report = majiang.replay(log.read_text())
            assert report["actions"] > 0 and report["hands"]
        else:
            with pytest.raises(ValueError, match=f"line {line}: this log was recorded under rules revision 1, before the last-discard rule"):
                majiang.replay(log.read_text())


def test_replay_refuses_a_tampered_log():
    log = next((DATA / "logs").glob("*.jsonl")).read_text().splitlines()
    with pytest.raises(ValueError, match="does not replay"):
        majiang.replay("\n".join(log[:3] + ["{\"bogus\": 1}"] + log[3:]))


def test_score_dict_and_text_agree_with_itemise_and_sequences():
    """A dict is read directly (tuples accepted as lists); its answer equals the JSON text's,
    itemised payments included when asked, and they add up to the net payments."""
    request = {
        "rules": "hongkong",
        "concealed": "123m456p789s11z55z",
        "winning_tile": "5z",
        "win": "self_draw",
        "seat": "south",
        "options": {"min_fan": 0},
        "itemise": True,
        "situation": ("last_wall_tile",),
    }
    answer = majiang.score(request)
    assert answer == majiang.score(json.dumps(request))
    assert answer["valid"] and answer["itemised"]
    for seat, net in answer["payments"].items():
        got = sum(p["amount"] for p in answer["itemised"] if p["to"] == seat)
        paid = sum(p["amount"] for p in answer["itemised"] if p["from"] == seat)
        assert got - paid == net
    quiet = majiang.score(dict(request, itemise=False))
    assert "itemised" not in quiet and quiet["payments"] == answer["payments"]
