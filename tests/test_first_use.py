"""What a new user trips on (issue 23): answers that agree, command-line habits, typing.

The command line runs as a subprocess from outside the source tree (the installed hkcore).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import hkcore
from hkcore.errors import HandError

OUTSIDE = tempfile.gettempdir()


def cli(*argv: str, stdin: str | None = None, columns: int | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m hkcore ARGV`` run outside the source tree, this environment passed through."""
    env = dict(os.environ)
    if env.get("PYTHONPATH"):
        env["PYTHONPATH"] = os.pathsep.join(os.path.abspath(p) for p in env["PYTHONPATH"].split(os.pathsep))
    if columns is not None:
        env["COLUMNS"] = str(columns)
    return subprocess.run([sys.executable, "-m", "hkcore", *argv], input=stdin, capture_output=True, text=True,
                          check=False, timeout=120, cwd=OUTSIDE, env=env)


def one_error(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("hkscore: error: "), proc.stderr
    return lines[0]


# --------------------------------------------------------------------------
# a short hand with no declared sets: one rule (docs/rules.md, "A short hand")

FOUR_PUNGS = [{"kind": "pung", "tiles": t} for t in ("111p", "222p", "333p", "444p")]


def test_a_short_hand_counts_its_missing_sets_as_declared_in_the_shape_questions() -> None:
    # 13m: two tiles, so four sets declared; discarding either leaves a pair wait
    assert hkcore.tiles_away("13m") == 0
    assert hkcore.tiles_away("13m", ["111p", "222p", "333p", "444p"]) == 0
    assert [str(t) for t in hkcore.waits("1m")] == ["1m"]


def test_analyse_refuses_a_short_hand_without_its_sets_and_says_how_many() -> None:
    with pytest.raises(HandError) as caught:
        hkcore.analyse("13m")
    assert "no declared sets" in str(caught.value) and "4 declared sets" in str(caught.value)
    with pytest.raises(HandError, match="1 declared set in"):
        hkcore.analyse("123m456p789s1z")   # 10 tiles: one set missing
    given = hkcore.analyse({"tiles": "13m", "melds": FOUR_PUNGS})
    assert given.tiles_away == 0
    assert {(o.discard, tuple(w.tile for w in o.waits)) for o in given.discards} == {("1m", ("3m",)),
                                                                                      ("3m", ("1m",))}


def test_the_command_line_agrees_on_a_short_hand() -> None:
    assert "4 declared sets" in one_error(cli("waits", "13m"))
    proc = cli("decompose", "13m", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert (data["tiles_away"], data["declared_sets"], data["waits"]) == (0, 4, None)
    assert data["status"] == "a discard from waiting"
    text = cli("decompose", "13m").stdout
    assert "status   a discard from waiting" in text and "4 declared, not given" in text
    waiting = cli("decompose", "1112345678999m").stdout
    assert "status   waiting" in waiting and "declared, not given" not in waiting


def test_one_set_holds_the_winning_tile_even_beside_a_set_alike() -> None:
    # 11 123 123 234 234 m, won on 4m: the 4m sits in one of the two 234m chows
    result = hkcore.score("11112222333344m win:4m", preset="bga-old-style")
    won = [(p.kind, p.tiles) for p in result.reading if p.winning]
    assert won == [("chow", "234m")]
    proc = cli("score", "11112222333344m", "win:4m", "-p", "all", "--json")
    assert proc.returncode == 0, proc.stderr
    for entry in json.loads(proc.stdout):
        assert [p["tiles"] for p in entry["reading"] if p["winning"]] == ["234m"], entry["preset"]
    text = cli("score", "11112222333344m", "win:4m").stdout
    assert text.count("(chow, won)") == 1


# --------------------------------------------------------------------------
# a pattern that needs a shape the preset leaves off

SEVEN_PAIRS_OFF = 'extends = "bga-old-style"\nid = "pairs-off"\n[patterns]\nseven_pairs = 4\n'
SEVEN_PAIRS_ON = ('extends = "bga-old-style"\nid = "pairs-on"\nshapes = ["standard", "thirteen_orphans", '
                  '"seven_pairs"]\n[patterns]\nseven_pairs = 4\n')
#: seven pairs and no other reading: 11m 22m 33p 44p 55s 66s 77z
PAIRS_HAND = "1122m3344p5566s77z win:7z"


def test_a_pattern_whose_shape_is_off_is_warned_about_and_the_reason_names_the_shape(tmp_path: Path) -> None:
    from hkcore.registry import PresetWarning

    off = tmp_path / "off.toml"
    off.write_text(SEVEN_PAIRS_OFF)
    with pytest.warns(PresetWarning, match=r"off\.toml: patterns\.seven_pairs.*'seven_pairs' shape"):
        preset = hkcore.load_preset(off)  # said when the preset is read, before any hand is scored
    result = hkcore.score(PAIRS_HAND, preset=preset)
    assert not result.complete and result.faan == 0
    assert result.reason is not None and result.reason.startswith("not a complete hand")
    assert "complete as seven_pairs" in result.reason and "add 'seven_pairs' to shapes" in result.reason
    # a hand that is not seven pairs either keeps the plain reason
    plain = hkcore.score("1122m3344p5566s17z win:7z", preset=hkcore.load_preset(off))  # warned once, above
    assert plain.reason == "not a complete hand"


def test_with_the_shape_on_nothing_is_warned_and_seven_pairs_scores(tmp_path: Path) -> None:
    import warnings

    on = tmp_path / "on.toml"
    on.write_text(SEVEN_PAIRS_ON)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = hkcore.score(PAIRS_HAND, preset=hkcore.load_preset(on))
    # concealed 1 + no bonus 1 + seven pairs 4 (bga-old-style values, docs/rules.md)
    assert result.complete and result.faan == 6


def test_the_command_line_shows_the_warning_on_one_line(tmp_path: Path) -> None:
    off = tmp_path / "off.toml"
    off.write_text(SEVEN_PAIRS_OFF)
    proc = cli("score", *PAIRS_HAND.split(), "-p", str(off))
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.startswith("hkscore: warning: ") and "patterns.seven_pairs" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert "complete as seven_pairs" in proc.stdout


# --------------------------------------------------------------------------
# command-line habits

EXAMPLE = ["234m55z", "666z:W", "777z:E", "1111m:concealed", "win:5z", "seat:S", "from:N"]


def test_options_may_come_anywhere_among_the_notation_words() -> None:
    # the example hand (docs/rules.md) under hk-classic with a flower: hk-classic refuses bonus tiles,
    # so the flowers:1 word after -p must have reached the hand
    proc = cli("score", *EXAMPLE[:3], "-p", "mistboard", *EXAMPLE[3:], "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)[0]["preset"] == "mistboard" and json.loads(proc.stdout)[0]["faan"] == 9
    refused = cli("score", *EXAMPLE, "-p", "hk-classic", "flowers:1")
    assert "flowers" in one_error(refused) and "unrecognized" not in refused.stderr
    assert "unrecognized arguments: --bogus" in one_error(cli("score", *EXAMPLE, "--bogus"))
    assert "unrecognized arguments: 456m" in one_error(cli("decompose", "123m", "456m"))


def test_a_misspelt_notation_word_gets_a_did_you_mean() -> None:
    assert "did you mean 'self-draw'?" in one_error(cli("score", *EXAMPLE[:5], "sefl-draw"))
    assert "did you mean 'seat:'?" in one_error(cli("score", *EXAMPLE[:5], "seet:S"))


def test_seats_by_their_full_names_in_any_case() -> None:
    full = cli("score", "234m55z", "666z:west", "777z:East", "1111m:concealed", "win:5z", "seat:South",
               "from:NORTH", "--json")
    short = cli("score", *EXAMPLE, "--json")
    assert full.returncode == 0, full.stderr
    assert json.loads(full.stdout) == json.loads(short.stdout)
    assert hkcore.score("234m55z 666z:W 777z:E 1111m:concealed win:5z seat:south from:n").payments == \
        hkcore.score(" ".join(EXAMPLE)).payments


def test_concealed_tiles_split_over_tokens_are_told_to_be_one() -> None:
    line = one_error(cli("score", "123m456p789s", "11z", "777z", "win:7z"))
    assert "token 2 '11z'" in line and "one token" in line and "123m456p789s11z" in line


def test_the_payment_hint_names_the_notation_word() -> None:
    proc = cli("score", *EXAMPLE[:-1])   # no from:N: a discard win without its discarder
    assert proc.returncode == 0, proc.stderr
    assert "give from:SEAT" in proc.stdout


def test_a_preset_named_twice_is_one_column() -> None:
    proc = cli("compare", *EXAMPLE, "-p", "mistboard", "-p", "mistboard", "--json")
    assert [p["preset"] for p in json.loads(proc.stdout)["presets"]] == ["mistboard"]
    table = cli("compare", *EXAMPLE, "-p", "mistboard", "-p", "mistboard").stdout
    assert table.count("mistboard") == 1
    both = cli("score", *EXAMPLE, "-p", "all", "-p", "mistboard", "--json")
    assert len(json.loads(both.stdout)) == 5


@pytest.mark.parametrize("argv", [
    ["score", *EXAMPLE, "--jobs", "-3"],
    ["score", "--jsonl", "-", "--jobs", "-3"],
    ["compare", "--jsonl", "-", "-j", "-3"],
    ["report", "-", "--out", "nowhere-made", "--jobs", "-3"],
    ["score", *EXAMPLE, "--jobs", "0"],
], ids=["score", "score-jsonl", "compare-jsonl", "report", "zero"])
def test_jobs_below_one_is_refused_everywhere(argv: list[str]) -> None:
    proc = cli(*argv, stdin="")
    assert "jobs: expected a whole number 1..256" in one_error(proc)
    assert not (Path(OUTSIDE) / "nowhere-made").exists()


def test_score_takes_format() -> None:
    proc = cli("score", *EXAMPLE, "-p", "bga-old-style", "-p", "mistboard", "--format", "csv")
    assert proc.returncode == 0, proc.stderr
    rows = [line.split(",") for line in proc.stdout.strip().splitlines()]
    assert rows[0][:3] == ["preset", "total", "unit"]
    # the example hand: 9 faan under both (README), bga pays S +384 (docs/rules.md)
    assert [r[:2] for r in rows[1:]] == [["bga-old-style", "9"], ["mistboard", "9"]]
    assert "S +384" in proc.stdout
    md = cli("score", *EXAMPLE, "--format", "markdown").stdout.splitlines()
    assert md[0].startswith("| preset | total |") and md[2].startswith("| bga-old-style | 9 |")


# claims: S holds 23m 456p 789s 11z and 777z claimed from E; W holds 44m 456p 789s 11z ... see below
S_HAND = ["23m456p789s11z", "777z:E", "seat:S"]


def test_claims_lists_the_legal_claims_and_who_gets_the_tile() -> None:
    # E discards 4m. S (next after E) may chow 234m; a win on 234m 456p 789s 11z 777z is
    # dragon 1 + no bonus 1 = 2 at bga-old-style, below its minimum 3, so no win claim.
    proc = cli("claims", *S_HAND, "--discard", "4m", "--from", "E", "--json")
    assert proc.returncode == 0, proc.stderr
    assert [(c["seat"], c["kind"], c["tiles"]) for c in json.loads(proc.stdout)] == [("S", "chow", "234m")]
    # W holds 44m: it may pung, and a pung beats a chow
    both = cli("claims", *S_HAND, "-d", "4m", "--from", "east", "--also", "44m456p789s11z 555z:S seat:W", "--json")
    assert both.returncode == 0, both.stderr
    data = json.loads(both.stdout)
    assert [c["kind"] for c in data["legal"]["S"]] == ["chow"]
    assert [c["kind"] for c in data["legal"]["W"]] == ["pung"]
    assert [(c["seat"], c["kind"]) for c in data["resolved"]] == [("W", "pung")]
    text = cli("claims", *S_HAND, "-d", "4m", "--from", "E", "--also", "44m456p789s11z 555z:S seat:W").stdout
    assert "gets it  W (pung 444m)" in text


def test_claims_resolves_claims_given_as_json() -> None:
    claims = [{"seat": "S", "kind": "chow", "tiles": "234m", "discard": "4m"},
              {"seat": "N", "kind": "pung", "tiles": "444m", "discard": "4m"}]
    proc = cli("claims", "--resolve", "-", "--from", "E", "--json", stdin=json.dumps(claims))
    assert proc.returncode == 0, proc.stderr
    assert [(c["seat"], c["kind"]) for c in json.loads(proc.stdout)] == [("N", "pung")]
    # a chow by a seat that is not next after the discarder is refused with the field
    bad = [{"seat": "W", "kind": "chow", "tiles": "234m", "discard": "4m"}]
    assert "claims.0" in one_error(cli("claims", "--resolve", "-", "--from", "E", stdin=json.dumps(bad)))
    assert "--from" in one_error(cli("claims", *S_HAND, "-d", "4m"))


def test_waits_for_every_preset_fits_80_columns() -> None:
    proc = cli("waits", "123m456p23s55z", "789s:E", "seat:S", "-p", "all", columns=80)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert max(len(line) for line in lines) <= 80, max(lines, key=len)
    # one block per preset, each naming it first
    heads = [line.split(":")[0] for line in lines if line and not line.startswith(" ") and ":" in line
             and not line.startswith("hand")]
    assert heads == ["bga-old-style", "hk-classic", "just-cards", "mistboard", "playingcards-io"]
    # 23s waits on 1s and 4s, four of each unseen, in every block
    assert sum(1 for line in lines if line.strip().startswith(("🀐 1s  4", "🀓 4s  4"))) == 10


def test_sampled_hands_for_all_presets_are_read_by_every_preset() -> None:
    hands = cli("sample", "--n", "300", "--seed", "1", "--preset", "all")
    assert hands.returncode == 0, hands.stderr
    assert all(not h["flowers"] and not h["seasons"] for h in map(json.loads, hands.stdout.splitlines()))
    compared = cli("compare", "--jsonl", "-", "-p", "all", stdin=hands.stdout)
    assert compared.returncode == 0, compared.stderr


def test_the_failure_count_says_why_lines_failed() -> None:
    hands = cli("sample", "--n", "40", "--seed", "1").stdout.splitlines()
    bonus = sum(1 for h in map(json.loads, hands) if h["flowers"] or h["seasons"])
    assert bonus > 0
    proc = cli("compare", "--jsonl", "-", "-p", "mistboard", "-p", "hk-classic", stdin="\n".join(hands) + "\n")
    assert proc.returncode == 1
    line = proc.stderr.strip()
    assert line.startswith(f"hkscore: {bonus:,} of 40 lines failed (hk-classic: ")
    assert "refuses bonus tiles" in line and "--preset all" in line
    assert "mistboard" not in line   # a 144-tile preset reads them all


def test_the_readme_sample_command_makes_hands_every_preset_it_names_reads() -> None:
    readme = Path(__file__).resolve().parent.parent / "README.md"
    if not readme.is_file():
        pytest.skip("README.md is not beside tests/")
    commands = [line for line in readme.read_text(encoding="utf-8").splitlines()
                if line.startswith("hkscore sample") and "--preset all" in line.split("|", 1)[-1]]
    assert commands, "the README's sample | report command"
    for line in commands:
        assert "--preset all" in line.split("|", 1)[0], line


# --------------------------------------------------------------------------
# typing: a user's file under mypy --strict

USER_FILE = '''\
from collections.abc import Iterator

import hkcore

result: hkcore.ScoreResult = hkcore.score("234m55z 666z:W 777z:E 1111m:concealed win:5z seat:S from:N")
faan: int = result.faan
away: int = hkcore.analyse("123m456p23s55z 789s:E seat:S").tiles_away
objects: Iterator[hkcore.ScoreResult | hkcore.HkcoreError] = hkcore.score_many(["x"], "mistboard")
texts: Iterator[str] = hkcore.score_many(["x"], "mistboard", as_json=True)
first: str = next(texts).upper()
flag = bool(faan)
either = hkcore.score_many(["x"], as_json=flag)
count: int = hkcore.tiles_away("13m") + len(hkcore.waits("1m"))
'''


@pytest.mark.io
def test_a_users_file_passes_mypy_strict(tmp_path: Path) -> None:
    pytest.importorskip("mypy", reason="mypy is not installed")
    user = tmp_path / "user.py"
    user.write_text(USER_FILE, encoding="utf-8")
    package = Path(hkcore.__file__).resolve().parent
    (tmp_path / "path").mkdir()
    (tmp_path / "path" / "hkcore").symlink_to(package)   # hkcore as an installed, typed package is found
    env = {**os.environ, "MYPYPATH": str(tmp_path / "path")}
    proc = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent",
                           "--cache-dir", str(tmp_path / "cache"), "--no-error-summary", str(user)],
                          capture_output=True, text=True, timeout=600, cwd=tmp_path, env=env, check=False)
    own = [line for line in proc.stdout.splitlines() if line.startswith("user.py:")]
    assert own == [], "\n".join(own)
    # the same file with a mistake mypy must see: score_many(as_json=True) yields text, not results
    user.write_text(USER_FILE + "bad: int = next(hkcore.score_many(['x'], as_json=True)).faan\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent",
                           "--cache-dir", str(tmp_path / "cache"), "--no-error-summary", str(user)],
                          capture_output=True, text=True, timeout=600, cwd=tmp_path, env=env, check=False)
    own = [line for line in proc.stdout.splitlines() if line.startswith("user.py:")]
    assert len(own) == 1 and '"str" has no attribute "faan"' in own[0], proc.stdout


def test_the_lazy_names_are_the_written_all() -> None:
    from hkcore import _WHERE  # the facade's own table, beside its __all__

    assert hkcore.__all__ == [*_WHERE, "core", "notation"]
    for name in hkcore.__all__:
        assert getattr(hkcore, name) is not None


def test_the_docs_compare_frame_example_runs_as_a_plain_script(tmp_path: Path) -> None:
    """docs/at-scale.md's compare_frame snippet, as a script, on Dask's process scheduler (which
    spawns workers that import the script again: the reason for its __main__ guard)."""
    pytest.importorskip("dask.dataframe", reason='pip install "hkcore[dask]"')
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    doc = Path(__file__).resolve().parent.parent / "docs" / "at-scale.md"
    if not doc.is_file():
        pytest.skip("docs/ is not beside tests/")
    blocks = [b.split("```", 1)[0] for b in doc.read_text(encoding="utf-8").split("```python\n")[1:]]
    script = next(b for b in blocks if "compare_frame(" in b)
    indent = min(len(line) - len(line.lstrip()) for line in script.splitlines() if line.strip())
    script = "\n".join(line[indent:] for line in script.splitlines()) + "\n"
    (tmp_path / "hands").mkdir()
    hands = [" ".join(EXAMPLE), "123m456p789s11z22z win:2z self-draw", "11112222333344m win:4m"]
    pd.DataFrame({"hand": hands}).to_parquet(tmp_path / "hands" / "part.parquet")
    (tmp_path / "run.py").write_text(script, encoding="utf-8")
    root = str(Path(hkcore.__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p),
           "DASK_SCHEDULER": "processes"}
    proc = subprocess.run([sys.executable, "run.py"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          check=False, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "3 hands"
