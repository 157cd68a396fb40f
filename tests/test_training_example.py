"""examples/training/train_policy.py (docs/training.md, "A policy trained end to end"): run for a few seconds
where PyTorch is installed; it writes the policy, its learning curve and a duplicate evaluation, and the policy
it saves only ever chooses legal actions."""
from __future__ import annotations

import csv
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "examples" / "training" / "train_policy.py"


@pytest.mark.io
def test_a_few_seconds_of_training_write_a_policy_a_curve_and_an_evaluation(tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    pytest.importorskip("torch", reason="PyTorch is not installed: pip install torch==2.13.0 (its CPU build)")
    if not SCRIPT.is_file():
        pytest.skip("examples/ is not beside tests/ (it ships in the sdist and the repository)")
    done = subprocess.run([sys.executable, str(SCRIPT), "--minutes", "0.08", "--eval-walls", "24", "--tables", "8",
                           "--out", str(tmp_path)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    with open(tmp_path / "curve.csv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert rows and list(rows[0]) == ["seconds", "phase", "loss", "agreement", "reward_per_hand"]
    assert {r["phase"] for r in rows} == {"clone", "ppo"}
    assert all(0 <= float(r["agreement"]) <= 1 for r in rows if r["phase"] == "clone")
    result = json.loads((tmp_path / "evaluation.json").read_text())
    assert [e["champion"] for e in result["evaluation"]] == ["random", "efficiency"]
    for e in result["evaluation"]:
        assert e["walls"] == 24 and e["hands"] == 96 and e["low"] <= e["difference_per_hand"] <= e["high"]

    import numpy as np
    import torch

    spec = importlib.util.spec_from_file_location("train_policy", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    policy = module.Policy()
    policy.load_state_dict(torch.load(tmp_path / "policy.pt"))
    from hkcore.table.learning import VecEnv

    env = VecEnv(16, "mistboard", seed=2)
    obs, mask, _p = env.reset()
    for _ in range(100):
        a, _lp, _v = module.act(policy, obs, mask)
        assert all(mask[i, a[i]] for i in range(16))
        obs, mask, _p, _r, _d = env.step(a.astype(np.int64))
