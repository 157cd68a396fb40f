#!/usr/bin/env python
"""Train a masked policy on hkcore's VecEnv with PyTorch, then measure it in
duplicate (docs/training.md, "A policy trained end to end").

    pip install "hkcore[rl]" torch==2.13.0     # PyTorch's CPU build (about 750 MB)
    python examples/training/train_policy.py --minutes 30 --out runs/policy

One learner (seat E..N in turn) against three bots under a preset. First the
policy imitates the bot (behaviour cloning on ``VecEnv.expert``'s actions),
then PPO fine-tunes it against the bots on fresh walls; illegal actions are
impossible (the logits outside the mask are -inf). Then it is evaluated as
hkcore's arena measures a bot: on walls nobody trained on, the policy takes
each seat in turn against three copies of a champion, and its net payment
per hand less the champions' is averaged over the four rotations of each
wall, with a 95 % interval clustered by wall. Writes ``policy.pt``,
``curve.csv`` (the learning curve), ``curve.png`` (with matplotlib) and
``evaluation.json`` into ``--out``.
"""
from __future__ import annotations

import argparse
import contextlib
import csv
import json
import math
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from hkcore.table.env import N_ACTIONS
from hkcore.table.learning import OBS_SIZE, VecEnv

#: evaluation walls begin far from the training ones (episode numbers are walls: wall_seed(seed, k))
EVAL_FIRST = 1_000_000_000


class Policy(nn.Module):
    """An MLP over the observation: the logits of the 240 actions and the value of the position."""

    def __init__(self, hidden: int = 256) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(OBS_SIZE, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.logits = nn.Linear(hidden, N_ACTIONS)
        self.value = nn.Linear(hidden, 1)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.body(obs)
        logits = self.logits(h).masked_fill(mask == 0, -1e9)
        return logits, self.value(h).squeeze(-1)


def scaled(obs: np.ndarray) -> np.ndarray:
    """The observation as the network reads it: points and counts brought to a unit scale."""
    return (np.clip(obs, -1000, 1000) / np.where(np.abs(obs) > 8, 100.0, 1.0)).astype(np.float32)


def act(policy: Policy, obs: np.ndarray, mask: np.ndarray, greedy: bool = False) -> tuple[np.ndarray, ...]:
    with torch.no_grad():
        logits, value = policy(torch.from_numpy(scaled(obs)), torch.from_numpy(mask))
        dist = torch.distributions.Categorical(logits=logits)
        a = logits.argmax(-1) if greedy else dist.sample()
        return a.numpy(), dist.log_prob(a).numpy(), value.numpy()


def clone(policy: Policy, opt: torch.optim.Optimizer, args: argparse.Namespace, seconds: float,
          curve: list[dict[str, Any]], started: float) -> None:
    """Behaviour cloning: the bot's own actions at every seat, cross-entropy."""
    env = VecEnv(args.tables, args.preset, seed=args.seed, logs=False)
    obs, mask, _p = env.reset()
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        batch_o, batch_m, batch_a = [], [], []
        for _ in range(16):
            a = env.expert(args.bots)
            batch_o.append(obs.copy())
            batch_m.append(mask.copy())
            batch_a.append(a)
            obs, mask, _p, _r, _d = env.step(a)
        o = torch.from_numpy(scaled(np.concatenate(batch_o)))
        m = torch.from_numpy(np.concatenate(batch_m))
        target = torch.from_numpy(np.concatenate(batch_a))
        logits, _v = policy(o, m)
        loss = nn.functional.cross_entropy(logits, target)
        opt.zero_grad()
        loss.backward()
        opt.step()
        agree = float((logits.argmax(-1) == target).float().mean())
        curve.append({"seconds": round(time.perf_counter() - started, 1), "phase": "clone", "loss": loss.item(),
                      "agreement": agree, "reward_per_hand": ""})


def ppo(policy: Policy, opt: torch.optim.Optimizer, args: argparse.Namespace, seconds: float,
        curve: list[dict[str, Any]], started: float) -> None:
    """PPO against the bots, the learner at each seat in turn (a VecEnv a seat), rewards in points / 100."""
    envs = [VecEnv(args.tables // 4, args.preset, learners=[s], bots=args.bots, seed=args.seed + 1 + s,
                   logs=False) for s in range(4)]
    state = [e.reset() for e in envs]
    end = time.perf_counter() + seconds
    horizon, gamma, lam, clip = 64, 0.997, 0.95, 0.2
    while time.perf_counter() < end:
        buf: dict[str, list[Any]] = {k: [] for k in ("o", "m", "a", "lp", "v", "r", "d")}
        hands, paid = 0, 0.0
        for _ in range(horizon):
            o = np.concatenate([s[0] for s in state])
            m = np.concatenate([s[1] for s in state])
            a, lp, v = act(policy, o, m)
            rewards, dones = [], []
            k = 0
            for j, e in enumerate(envs):
                n = e.n
                ob, ma, pl, r, d = e.step(a[k:k + n])
                state[j] = (ob, ma, pl)
                rewards.append(r[:, j] / 100.0)
                dones.append(d.copy())
                k += n
            r_all, d_all = np.concatenate(rewards), np.concatenate(dones)
            hands += int(d_all.sum())
            paid += float(r_all.sum()) * 100
            for key, val in (("o", o), ("m", m), ("a", a), ("lp", lp), ("v", v), ("r", r_all), ("d", d_all)):
                buf[key].append(val)
        with torch.no_grad():
            o = np.concatenate([s[0] for s in state])
            m = np.concatenate([s[1] for s in state])
            _l, last_v = policy(torch.from_numpy(scaled(o)), torch.from_numpy(m))
        values = np.stack(buf["v"] + [last_v.numpy()])
        rew, done = np.stack(buf["r"]), np.stack(buf["d"]).astype(np.float32)
        adv = np.zeros_like(rew)
        gae = np.zeros(rew.shape[1], np.float32)
        for t in reversed(range(horizon)):
            nonterminal = 1.0 - done[t]
            delta = rew[t] + gamma * values[t + 1] * nonterminal - values[t]
            gae = delta + gamma * lam * nonterminal * gae
            adv[t] = gae
        ret = adv + values[:-1]
        flat = {"o": torch.from_numpy(scaled(np.concatenate(buf["o"]))),
                "m": torch.from_numpy(np.concatenate(buf["m"])),
                "a": torch.from_numpy(np.concatenate(buf["a"])), "lp": torch.from_numpy(np.concatenate(buf["lp"])),
                "adv": torch.from_numpy(adv.reshape(-1)), "ret": torch.from_numpy(ret.reshape(-1))}
        flat["adv"] = (flat["adv"] - flat["adv"].mean()) / (flat["adv"].std() + 1e-8)
        size = len(flat["a"])
        for _epoch in range(3):
            order = torch.randperm(size)
            for start in range(0, size, 2048):
                idx = order[start:start + 2048]
                logits, value = policy(flat["o"][idx], flat["m"][idx])
                dist = torch.distributions.Categorical(logits=logits)
                ratio = torch.exp(dist.log_prob(flat["a"][idx]) - flat["lp"][idx])
                pg = -torch.min(ratio * flat["adv"][idx], ratio.clamp(1 - clip, 1 + clip) * flat["adv"][idx]).mean()
                vloss = 0.5 * ((value - flat["ret"][idx]) ** 2).mean()
                loss = pg + 0.5 * vloss - 0.003 * dist.entropy().mean()
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
                opt.step()
        curve.append({"seconds": round(time.perf_counter() - started, 1), "phase": "ppo", "loss": loss.item(),
                      "agreement": "", "reward_per_hand": round(paid / hands, 2) if hands else ""})


def evaluate(policy: Policy, args: argparse.Namespace, champion: str, walls: int) -> dict[str, Any]:
    """The policy against three ``champion`` bots on ``walls`` walls no training saw, in every seat: per wall,
    its net payment per hand less the champions' (averaged over the four rotations), with a 95 % interval."""
    per_wall = np.zeros((walls, 4))
    net = np.zeros((walls, 4))
    for seat in range(4):
        env = VecEnv(min(64, walls), args.preset, learners=[seat], bots=champion, seed=args.seed,
                     first=EVAL_FIRST, logs=False)
        obs, mask, _p = env.reset()
        seen = 0
        while seen < walls:
            a, _lp, _v = act(policy, obs, mask, greedy=True)
            episodes = [env.episode_index(i) for i in range(env.n)]
            obs, mask, _p, reward, done = env.step(a)
            for i in np.flatnonzero(done):
                k = episodes[i] - EVAL_FIRST
                if k < walls:
                    pays = reward[i]
                    others = (pays.sum() - pays[seat]) / 3
                    per_wall[k, seat] = pays[seat] - others
                    net[k, seat] = pays[seat]
                    seen += 1
    d = per_wall.mean(axis=1)
    mean, sd = float(d.mean()), float(d.std(ddof=1))
    half = 1.96 * sd / math.sqrt(walls)
    return {"champion": champion, "walls": walls, "hands": walls * 4, "difference_per_hand": round(mean, 2),
            "low": round(mean - half, 2), "high": round(mean + half, 2),
            "net_per_hand": round(float(net.mean()), 2)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=30.0, help="training time (default 30)")
    ap.add_argument("--clone-share", type=float, default=0.3, help="share of the time for behaviour cloning")
    ap.add_argument("--preset", default="bga-old-style")
    ap.add_argument("--bots", default="efficiency", help="the bots trained against and imitated")
    ap.add_argument("--tables", type=int, default=64)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--eval-walls", type=int, default=2000)
    ap.add_argument("--out", default="runs/policy")
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    policy = Policy()
    opt = torch.optim.Adam(policy.parameters(), lr=3e-4)
    curve: list[dict[str, Any]] = []
    started = time.perf_counter()
    seconds = args.minutes * 60
    clone(policy, opt, args, seconds * args.clone_share, curve, started)
    ppo(policy, opt, args, seconds * (1 - args.clone_share), curve, started)
    trained = time.perf_counter() - started
    torch.save(policy.state_dict(), out / "policy.pt")
    with open(out / "curve.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, ["seconds", "phase", "loss", "agreement", "reward_per_hand"])
        w.writeheader()
        w.writerows(curve)
    results = {"preset": args.preset, "bots": args.bots, "minutes": round(trained / 60, 1), "seed": args.seed,
               "evaluation": [evaluate(policy, args, c, args.eval_walls) for c in ("random", "efficiency")]}
    (out / "evaluation.json").write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    with contextlib.suppress(ImportError):
        plot(curve, out / "curve.png")
    print(json.dumps(results, indent=1))
    return 0


def plot(curve: list[dict[str, Any]], path: Path) -> None:
    """The learning curve: the clone's agreement with the bot, then PPO's payment per hand against the bots."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.6))
    c = [r for r in curve if r["phase"] == "clone"]
    p = [r for r in curve if r["phase"] == "ppo" and r["reward_per_hand"] != ""]
    left.plot([r["seconds"] / 60 for r in c], [r["agreement"] for r in c], lw=0.8)
    left.set(xlabel="minutes", ylabel="agreement with the bot", title="behaviour cloning")
    if p:
        xs = [r["seconds"] / 60 for r in p]
        ys = np.array([r["reward_per_hand"] for r in p], float)
        k = max(1, len(ys) // 20)
        smooth = np.convolve(ys, np.ones(k) / k, mode="valid")
        right.plot(xs, ys, lw=0.4, alpha=0.4)
        right.plot(xs[k - 1:], smooth, lw=1.5)
        right.axhline(0, color="grey", lw=0.6)
    right.set(xlabel="minutes", ylabel="points per hand (learner)", title="PPO against the bots")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    raise SystemExit(main())
