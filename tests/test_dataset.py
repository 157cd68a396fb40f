"""Imitation datasets (hkcore.table.learning.dataset, hkscore dataset; docs/training.md, "Datasets"): the
decisions written are the bot's, each legal, their observations what a fresh table on the same wall shows, their
outcomes what the episode's log pays; the same arguments write the same arrays with any number of jobs."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from helpers.command import hkscore  # noqa: E402
from hkcore.errors import HkcoreError  # noqa: E402
from hkcore.table.learning import VecEnv  # noqa: E402
from hkcore.table.learning.dataset import ARRAYS, iter_chunks, load_dataset, write_dataset  # noqa: E402
from hkcore.table.start import wall_seed  # noqa: E402

SEATS = "ESWN"


def _paid(log: list[dict[str, Any]]) -> list[float]:
    """By seat, what a one-hand log pays: its end record's delta, or the zero-sum measure of its wins."""
    end = next(r for r in log if r["event"] == "end_hand")
    if end["delta"] is not None:
        return [end["delta"][s] for s in SEATS]
    out = [0.0] * 4
    for w in (r for r in log if r["event"] == "win"):
        out[SEATS.index(w["seat"])] += w["faan"]
        for s in range(4):
            if SEATS[s] != w["seat"] and (w["from"] is None or w["from"] == SEATS[s]):
                out[s] -= w["faan"] / 3 if w["from"] is None else w["faan"]
    return out


@pytest.mark.parametrize("preset, bot", [("bga-old-style", "value"), ("mistboard", "guard")])
def test_the_decisions_replay_on_fresh_tables_and_pay_what_the_logs_pay(tmp_path: Path, preset: str,
                                                                          bot: str) -> None:
    manifest = write_dataset(tmp_path / "d", preset, bot, 12, seed=5, first=30, chunk=300, tables=5)
    data = load_dataset(tmp_path / "d")
    assert manifest["decisions"] == len(data["action"]) == sum(f["decisions"] for f in manifest["files"])
    assert all(f["decisions"] <= 300 for f in manifest["files"]) and len(manifest["files"]) >= 2
    assert sorted(set(data["episode"].tolist())) == list(range(30, 42))
    assert (np.diff(data["episode"]) >= 0).all()  # episode after episode
    assert all(data["mask"][j, data["action"][j]] for j in range(len(data["action"])))
    for k in range(30, 42):
        rows = np.flatnonzero(data["episode"] == k)
        assert data["step"][rows].tolist() == list(range(len(rows)))
        env = VecEnv(1, preset, seed=5, first=k)
        obs, mask, player = env.reset()
        assert env.log(0)[0]["seed"] == wall_seed(5, k)
        for j in rows:
            assert np.array_equal(obs[0], data["obs"][j]) and np.array_equal(mask[0], data["mask"][j])
            assert player[0] == data["player"][j] and env.expert(bot)[0] == data["action"][j]
            obs, mask, player, _r, done = env.step(np.array([data["action"][j]]))
        assert done[0]
        pays = _paid(env.finished_log(0))
        assert data["outcome"][rows].tolist() == pytest.approx([pays[p] for p in data["player"][rows]])
        assert data["seat"][rows].tolist() == data["player"][rows].tolist()  # a hand: player p at seat p


def test_the_same_arguments_write_the_same_arrays_with_any_number_of_jobs(tmp_path: Path) -> None:
    a = write_dataset(tmp_path / "a", "hk-classic", "efficiency", 9, seed=2, chunk=250, tables=4)
    b = write_dataset(tmp_path / "b", "hk-classic", "efficiency", 9, seed=2, chunk=250, tables=4)
    c = write_dataset(tmp_path / "c", "hk-classic", "efficiency", 9, seed=2, chunk=400, tables=3, jobs=2)
    assert [f["file"] for f in a["files"]] == [f["file"] for f in b["files"]]
    for f in a["files"]:
        assert (tmp_path / "a" / f["file"]).read_bytes() == (tmp_path / "b" / f["file"]).read_bytes()
    da, dc = load_dataset(tmp_path / "a"), load_dataset(tmp_path / "c")
    for name in ARRAYS:
        assert np.array_equal(da[name], dc[name]), name
    assert len({f["file"] for f in c["files"]}) == len(c["files"]) and c["decisions"] == a["decisions"]
    assert sum(len(ch["action"]) for ch in iter_chunks(tmp_path / "c")) == c["decisions"]


def test_the_manifest_says_what_the_files_hold(tmp_path: Path) -> None:
    m = write_dataset(tmp_path / "d", "just-cards", "value", 3, seed=1)
    on_disk = json.loads((tmp_path / "d" / "manifest.json").read_text())
    assert on_disk == m
    assert m["preset"] == "just-cards" and m["bot"] == "value" and m["hands"] == 3 and m["seed"] == 1
    assert m["obs_size"] == sum(f["size"] for f in m["obs_fields"]) and m["n_actions"] == 240
    assert set(m["arrays"]) == set(ARRAYS)
    data = load_dataset(tmp_path / "d")
    for name, spec in m["arrays"].items():
        assert str(data[name].dtype) == spec["dtype"]
    assert data["obs"].shape == (m["decisions"], m["obs_size"])


def test_bad_arguments_and_a_folder_in_use_are_refused(tmp_path: Path) -> None:
    for kwargs in ({"hands": 0}, {"bot": "nobody"}, {"chunk": 0}, {"tables": 0}, {"seed": -1}, {"jobs": 0},
                   {"preset": "no-such-preset"}):
        args: dict[str, Any] = {"preset": "mistboard", "bot": "efficiency", "hands": 2}
        args.update(kwargs)
        with pytest.raises(HkcoreError):
            write_dataset(tmp_path / "x", args.pop("preset"), args.pop("bot"), args.pop("hands"), **args)
    write_dataset(tmp_path / "y", "mistboard", "efficiency", 2)
    with pytest.raises(HkcoreError, match="holds files"):
        write_dataset(tmp_path / "y", "mistboard", "efficiency", 2)
    m = write_dataset(tmp_path / "y", "mistboard", "efficiency", 1, force=True)
    assert sorted(p.name for p in (tmp_path / "y").iterdir()) == sorted(["manifest.json"] +
                                                                        [f["file"] for f in m["files"]])
    (tmp_path / "z").mkdir()
    (tmp_path / "z" / "manifest.json").write_text("{}")
    with pytest.raises(HkcoreError, match="not a dataset"):
        load_dataset(tmp_path / "z")


@pytest.mark.io
def test_hkscore_dataset(tmp_path: Path) -> None:
    done = hkscore("dataset", "--preset", "mistboard", "--bots", "efficiency", "--hands", "4", "--out",
                   str(tmp_path / "d"), "--seed", "3")
    assert done.returncode == 0, done.stderr
    m = json.loads((tmp_path / "d" / "manifest.json").read_text())
    assert m["hands"] == 4 and f"{m['decisions']:,} decisions" in done.stderr
    again = hkscore("dataset", "--hands", "4", "--out", str(tmp_path / "d"))
    assert again.returncode == 2 and "--force" in again.stderr and again.stderr.count("\n") == 1
    bad = hkscore("dataset", "--hands", "-3", "--out", str(tmp_path / "e"))
    assert bad.returncode == 2 and "hands = -3" in bad.stderr
