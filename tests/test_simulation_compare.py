"""Only meaningful comparisons in a simulation (issue 37): no payment compared across units, distinct hands
counted, how well each pair shares its walls, each preset compared with a base, and several mixes of bots on
the same walls with the differences that depend on the bots flagged (docs/simulation.md).

Expected values are tallied here from logs the tests play again from the documented seeds
(helpers.simulation.play_again), or worked by hand.
"""
from __future__ import annotations

import importlib.util
import json
import statistics
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from helpers.cli import run
from helpers.simulation import SEATS, play_again
from hkcore.errors import HkcoreError
from hkcore.simulation import Change, SimulationSummary, simulate, summary_markdown

BOTS = ["efficiency", "efficiency", "random", "random"]
# 144 tiles: two presets that settle in points (playingcards-io replaces bonus tiles from the front of the
# wall, bga-old-style from the back) and a faan ledger (mistboard: a dead wall of 14 at the back)
TILES144 = ["bga-old-style", "playingcards-io", "mistboard"]


def _pair_list(s: SimulationSummary) -> dict[str, list[str]]:
    return {a: list(r) for a, r in s.differences.items()}


def _section(md: str, title: str) -> str:
    """The text of the Markdown section ``## title`` (empty when there is none)."""
    at = md.find(f"\n## {title}\n")
    if at < 0:
        return ""
    end = md.find("\n## ", at + 1)
    return md[at:] if end < 0 else md[at:end]


# --------------------------------------------------------------------------
# no difference across units


def test_no_payment_is_compared_between_points_and_a_ledger() -> None:
    s = simulate(["bga-old-style", "mistboard"], BOTS, hands=3, seed=5)
    # bga-old-style settles in points; mistboard keeps a faan ledger: its "payments" are faan won
    assert s.presets["bga-old-style"].pays and not s.presets["mistboard"].pays
    [(a, b)] = [(a, b) for a, r in s.differences.items() for b in r]
    assert {a, b} == {"bga-old-style", "mistboard"}
    assert s.pairs[a][b] == {}   # no bot's payments compared
    d = s.differences[a][b]
    assert d.won is None and d.payments_by_seat is None
    assert d.wins.hands == 12 and d.turns.walls == 3   # the counts of the table still compare
    data = json.loads(s.model_dump_json())
    assert data["pairs"][a][b] == {} and data["differences"][a][b]["won"] is None
    assert SimulationSummary.model_validate_json(s.model_dump_json()) == s
    md = summary_markdown(s)
    bot_rows = [line for line in _section(md, "Paired differences by bot").splitlines() if line.startswith("| ")]
    assert not any(a in line and b in line for line in bot_rows), bot_rows
    assert f"| {a} | {b} | won per hand | - (other units) |" in md


def test_payments_still_compare_within_one_unit() -> None:
    s = simulate(["bga-old-style", "playingcards-io"], BOTS, hands=2, seed=5)
    d = s.differences["playingcards-io"]["bga-old-style"]
    a, b = s.presets["playingcards-io"], s.presets["bga-old-style"]
    assert d.won is not None and d.won.total == a.won.total - b.won.total
    assert d.payments_by_seat is not None
    for name, st in s.pairs["playingcards-io"]["bga-old-style"].items():
        assert st.total == a.bots[name].payments.total - b.bots[name].payments.total


# --------------------------------------------------------------------------
# distinct hands


def _distinct(logs: list[tuple[int, str, int, dict[str, str], list[dict[str, Any]]]]) -> dict[str, int]:
    """Per preset, the hands whose logs differ, counted wall by wall."""
    seen: dict[tuple[str, int], set[str]] = defaultdict(set)
    for k, pid, _r, _who, log in logs:
        seen[pid, k].add(json.dumps(log, sort_keys=True))
    out: dict[str, int] = defaultdict(int)
    for (pid, _k), logs_of in seen.items():
        out[pid] += len(logs_of)
    return dict(out)


@pytest.mark.parametrize("bots", [["efficiency"] * 4, BOTS])
def test_distinct_hands_are_those_the_logs_tell_apart(bots: list[str]) -> None:
    presets = ["bga-old-style", "playingcards-io"]
    s = simulate(presets, bots, hands=3, seed=2)
    want = _distinct(play_again(presets, bots, 3, seed=2))
    assert {pid: p.distinct_hands for pid, p in s.presets.items()} == want
    if bots == ["efficiency"] * 4:
        # one deterministic bot in every seat: the four rotations of a wall are one hand played four times
        assert want == {"bga-old-style": 3, "playingcards-io": 3}
        md = summary_markdown(s)
        assert "| hands played | 12 (3 distinct) | 12 (3 distinct) |" in md
        # its payments are the whole table's: zero under a settlement, so no per-bot tables of zeros
        assert "## Paired differences by bot" not in md and "| bga-old-style | efficiency |" not in md
        assert "one bot in every seat" in md
    else:
        assert all(n > 3 for n in want.values())   # the rotations put other bots in the seats


# --------------------------------------------------------------------------
# how well a pair is paired


def _taken(log: list[dict[str, Any]]) -> tuple[list[str], list[str]]:
    """The tiles the hand took from the wall in order: by live draws, and by replacement draws (a kong's
    replacement, a bonus tile's)."""
    live = [x["tile"] for x in log if x["event"] == "draw" and x["source"] == "live"]
    spare = [x["tile"] if x["event"] == "draw" else x["replacement"] for x in log
             if (x["event"] == "draw" and x["source"] != "live") or x["event"] == "bonus"]
    return live, spare


def test_each_pair_says_how_well_it_shares_its_walls() -> None:
    s = simulate(TILES144, BOTS, hands=4, seed=5)
    logs = play_again(TILES144, BOTS, 4, seed=5)
    taken: dict[tuple[str, int, int], tuple[list[str], list[str]]] = {}
    net: dict[tuple[str, int], dict[str, int]] = defaultdict(lambda: dict.fromkeys(SEATS, 0))
    bonus: dict[tuple[str, int], bool] = defaultdict(bool)
    for k, pid, r, _who, log in logs:
        taken[pid, k, r] = _taken(log)
        [end] = [x for x in log if x["event"] == "end_hand"]
        gained = end["delta"] if end["delta"] is not None else end["faan"]
        for seat in SEATS:
            net[pid, k][seat] += gained[seat]
        bonus[pid, k] |= any(x["event"] == "bonus" for x in log)
    assert _pair_list(s) == {"playingcards-io": ["bga-old-style"], "mistboard": ["bga-old-style"]}
    for a, b in (("playingcards-io", "bga-old-style"), ("mistboard", "bga-old-style")):
        pairing = s.differences[a][b].pairing
        in_step = 0
        for k in range(4):
            ok = True
            for r in range(4):
                for x, y in zip(taken[a, k, r], taken[b, k, r]):   # live draws, then replacements
                    n = min(len(x), len(y))
                    ok &= x[:n] == y[:n]
            in_step += ok
        # each seat's net on a wall, less that seat's mean over the walls (the dealer's edge is not pairing)
        xs = [net[a, k][seat] - statistics.fmean(net[a, w][seat] for w in range(4)) for k in range(4) for seat in SEATS]
        ys = [net[b, k][seat] - statistics.fmean(net[b, w][seat] for w in range(4)) for k in range(4) for seat in SEATS]
        r = statistics.correlation(xs, ys)
        assert (pairing.walls, pairing.in_step) == (4, in_step), (a, b)
        assert pairing.correlation() == pytest.approx(r, abs=1e-12), (a, b)
        # the page's verdict: in name only when in step on under half the walls with a correlation under 0.3
        verdict = "paired in name only" if in_step < 2 and r < 0.3 else "paired"
        row = f"| {a} | {b} | {100 * in_step / 4:.1f} % ({in_step} of 4) | {r:.2f} | {verdict} |"
        assert row in summary_markdown(s), row
    # a bonus tile surfaced on every wall, and playingcards-io replaced it from the other end: no wall in step
    assert all(bonus["bga-old-style", k] for k in range(4))
    assert s.differences["playingcards-io"]["bga-old-style"].pairing.in_step == 0
    md = summary_markdown(s)
    assert "draws in step" in md and "correlation" in md


def test_pairing_adds_up_over_parts() -> None:
    whole = simulate(TILES144, BOTS, hands=3, seed=5)
    parts = simulate(TILES144, BOTS, hands=1, seed=5) + simulate(TILES144, BOTS, hands=2, seed=5, first=1)
    assert parts == whole


# --------------------------------------------------------------------------
# a base


def test_each_preset_is_compared_with_the_base_of_its_tile_set() -> None:
    # "all": the built-in presets in id order; the base is the first given, and the 136-tile group,
    # which cannot share its walls, compares with its own first
    s = simulate("all", "random", hands=1, seed=9)
    assert s.base == "bga-old-style"
    assert _pair_list(s) == {"mistboard": ["bga-old-style"], "playingcards-io": ["bga-old-style"],
                             "just-cards": ["hk-classic"]}
    t = simulate("all", "random", hands=1, seed=9, base="just-cards")
    assert t.base == "just-cards"
    assert _pair_list(t) == {"mistboard": ["bga-old-style"], "playingcards-io": ["bga-old-style"],
                             "hk-classic": ["just-cards"]}
    # the same walls and hands: only the pairs differ
    assert t.presets == s.presets
    with pytest.raises(HkcoreError, match="base"):
        simulate("all", "random", hands=1, base="nobody")
    with pytest.raises(HkcoreError, match="summaries with different base"):
        s + simulate("all", "random", hands=1, seed=9, base="just-cards", first=1)


def test_a_house_preset_is_shown_by_name_and_named_as_base(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    house = tmp_path / "house.toml"
    house.write_text('extends = "hk-classic"\nid = "house"\nname = "Our club"\nminimum = 0\n', encoding="utf-8")
    out = tmp_path / "out"
    code, _, err = run(capsys, "simulate", "-p", "hk-classic", "-p", str(house), "-p", "just-cards", "--base",
                       "house", "--bots", "simple", "--hands", "2", "--seed", "1", "--out", str(out))
    assert code == 0, err
    s = SimulationSummary.model_validate_json((out / "summary.json").read_text(encoding="utf-8"))
    assert s.base == "house" and _pair_list(s) == {"hk-classic": ["house"], "just-cards": ["house"]}
    assert s.presets["house"].name == "Our club"
    md = (out / "summary.md").read_text(encoding="utf-8")
    assert "Our club (house)" in md
    # the summary carries the house preset's TOML: its report, from summary.json alone, shows its rules
    assert s.presets["house"].toml is not None and "minimum = 0" in s.presets["house"].toml
    assert s.presets["hk-classic"].toml is None
    if importlib.util.find_spec("matplotlib") is not None:
        from hkcore.reports.simulation import simulation_page

        page = simulation_page(s)
        assert 'Our club<span class="name">house</span></th>' in page
        rules = page[page.index('<table class="rules" data-a="hk-classic" data-b="house">'):]
        rules = rules[:rules.index("</table>")]
        # house (the base) first, then hk-classic: the minimum the house lowered from 3 to 0
        assert '<td class="id">minimum</td><td>0</td><td>3</td>' in rules
    code, _, err = run(capsys, "simulate", "-p", "hk-classic", "--base", "mistboard", "--hands", "1", "--json")
    assert code == 2 and "base" in err


# --------------------------------------------------------------------------
# several mixes of bots


def test_each_mix_of_bots_is_a_simulation_of_its_own_on_the_same_walls() -> None:
    presets = ["bga-old-style", "playingcards-io"]
    s = simulate(presets, [["efficiency"], BOTS], hands=3, seed=5)
    assert s.bots == ["efficiency"] * 4 and [m.bots for m in s.mixes] == [BOTS]
    one, two = s.by_mix()
    assert one == simulate(presets, "efficiency", hands=3, seed=5)
    assert two == simulate(presets, BOTS, hands=3, seed=5)
    assert simulate(presets, [["efficiency"], BOTS], hands=3, seed=5, jobs=2) == s
    parts = simulate(presets, [["efficiency"], BOTS], hands=1, seed=5) + simulate(
        presets, [["efficiency"], BOTS], hands=2, seed=5, first=1)
    assert parts == s
    with pytest.raises(HkcoreError, match="mixes"):
        s + simulate(presets, [["efficiency"], ["random"]], hands=1, seed=5, first=3)
    with pytest.raises(HkcoreError, match="twice"):
        simulate(presets, [["efficiency"], ["efficiency"] * 4], hands=1)
    with pytest.raises(HkcoreError, match="bots"):
        simulate(presets, [["efficiency"], ["random", "random"]], hands=1)


def _change(mean: float, low: float, high: float) -> Change:
    return Change("a", "b", "wins", "hands won", mean, (low, high), "")


def test_a_difference_that_depends_on_the_bots_is_flagged() -> None:
    from hkcore.simulation import depends_on_bots

    up, up_unsure, down, down_unsure = (_change(0.02, 0.01, 0.03), _change(0.01, -0.01, 0.03),
                                        _change(-0.02, -0.03, -0.01), _change(-0.01, -0.03, 0.01))
    assert depends_on_bots([up, _change(0.03, 0.02, 0.04)]) is None        # higher under both, surely
    assert depends_on_bots([up_unsure, _change(0.02, -0.01, 0.05)]) is None  # unsure under both, one sign
    assert depends_on_bots([up, up_unsure]) == "significance"
    assert depends_on_bots([up, down]) == "sign"   # surely higher under one, surely lower under the other
    assert depends_on_bots([up_unsure, down_unsure]) == "sign"
    assert depends_on_bots([up, down_unsure]) == "sign and significance"
    assert depends_on_bots([up]) is None
    assert depends_on_bots([up, Change("a", "b", "wins", "hands won", None, None, "-")]) is None


def test_hkscore_simulate_takes_several_mixes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    code, _, err = run(capsys, "simulate", "-p", "bga-old-style", "-p", "playingcards-io", "--bots", "efficiency",
                       "--bots", ",".join(BOTS), "--hands", "2", "--seed", "4", "--out", str(out))
    assert code == 0, err
    s = SimulationSummary.model_validate_json((out / "summary.json").read_text(encoding="utf-8"))
    assert s == simulate(["bga-old-style", "playingcards-io"], [["efficiency"], BOTS], hands=2, seed=4)
    md = (out / "summary.md").read_text(encoding="utf-8")
    changed = _section(md, "What changed")
    # each difference under each mix, and whether it depends on the bots
    assert "efficiency x4" in changed and "efficiency, efficiency, random, random" in changed
    assert "depends on the bots" in changed
    for c in ("hands won", "hands drawn", "hand length (discards)"):
        assert changed.count(f"| {c} |") == 1, c


def test_hkscore_report_simulate_takes_the_base_and_several_mixes(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    if importlib.util.find_spec("matplotlib") is None:
        pytest.skip("hkcore[report] draws the plots")
    out = tmp_path / "rep"
    code, _, err = run(capsys, "report", "--simulate", "-p", "bga-old-style", "-p", "mistboard", "--base",
                       "mistboard", "--bots", "efficiency", "--bots", "random", "--hands", "2", "--seed", "3",
                       "--out", str(out))
    assert code == 0, err
    s = SimulationSummary.model_validate_json((out / "summary.json").read_text(encoding="utf-8"))
    assert s == simulate(["bga-old-style", "mistboard"], [["efficiency"], ["random"]], hands=2, seed=3,
                         base="mistboard")
    html = (out / "report.html").read_text(encoding="utf-8")
    assert 'id="pair-bga-old-style--mistboard"' in html and "depends on the bots" in html
    code, _, err = run(capsys, "report", str(out / "summary.json"), "--base", "mistboard", "--out",
                       str(tmp_path / "x"))
    assert code == 2 and "--base go with --simulate" in err


def test_a_summary_written_before_shows_no_difference_across_units() -> None:
    s = simulate(["bga-old-style", "mistboard"], BOTS, hands=2, seed=5)
    data = json.loads(s.model_dump_json())
    # as an older hkcore wrote it: no base, pairing, mixes or new preset fields, and payments compared across units
    for key in ("base", "mixes"):
        del data[key]
    for p in data["presets"].values():
        for key in ("name", "toml", "distinct_hands"):
            del p[key]
    d = data["differences"]["mistboard"]["bga-old-style"]
    del d["pairing"]
    st = {"walls": 2, "hands": 16, "total": 5, "squares": 13}
    d["won"] = dict(st)
    d["payments_by_seat"] = {seat: dict(st) for seat in SEATS}
    data["pairs"]["mistboard"]["bga-old-style"] = {"efficiency": dict(st), "random": dict(st)}
    old = SimulationSummary.model_validate(data)
    assert old.base is None and old.presets["mistboard"].distinct_hands is None
    md = summary_markdown(old)
    assert "| mistboard | bga-old-style | efficiency |" not in md
    assert "| mistboard | bga-old-style | won per hand | - (other units) |" in md
    assert "| mistboard | bga-old-style | - | - | - |" in md   # the pairing was not counted
    assert "| hands played | 8 | 8 |" in md
