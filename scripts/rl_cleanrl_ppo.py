#!/usr/bin/env python3
"""The docs/PYTHON.md recipe for a CleanRL-style PPO: one file, torch only, action masking, on
the fast vector env (not a CI test: it needs torch).

CleanRL's ``ppo.py`` with its usual pieces (``RecordEpisodeStatistics`` and its
``infos["episode"]`` and ``final_info`` logging, GAE, clipped surrogate, minibatch epochs, a
learning rate annealed to 0) over ``gymnasium.make_vec("bao_zero/Bao-v0", ...,
vectorization_mode="vector_entry_point")``, Bao's batch env stepping all games in Rust, the agent
against a random opponent with its side drawn at each game. Masking: the logits of illegal
actions become -1e8 with ``torch.where``, so the policy never samples one and the entropy only
counts legal actions. The learning curve is ``bao_zero.evaluate`` against ``random`` and
``greedy`` (pairs of games from 4 random opening plies, each side once); the last point adds the
start position and the Gymnasium env's wins as South and North, as ``rl_measure.py`` does for
every recipe.

Set up once, in a virtual environment of its own (CPU-only torch is enough)::

    python -m venv /tmp/rl && /tmp/rl/bin/pip install ./bao-py torch gymnasium
    /tmp/rl/bin/python scripts/rl_cleanrl_ppo.py --variant kujifunza --steps 1000000

It prints the episodes' returns as they end, the steps per second (the time of the curve's
evaluations left out) and the curve; docs/PYTHON.md has the results.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import gymnasium
import numpy as np

import bao_zero
from rl_measure import Clock, Policy, measure


def make_agent(torch: Any, nn: Any, obs_size: int, actions: int) -> Any:
    """CleanRL's MLP actor-critic: two tanh layers of 64 each for the policy and the value."""

    def layer(inputs: int, outputs: int, std: float = 2**0.5) -> Any:
        linear = nn.Linear(inputs, outputs)
        nn.init.orthogonal_(linear.weight, std)
        nn.init.constant_(linear.bias, 0.0)
        return linear

    class Agent(nn.Module):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.critic = nn.Sequential(
                layer(obs_size, 64), nn.Tanh(), layer(64, 64), nn.Tanh(), layer(64, 1, 1.0)
            )
            self.actor = nn.Sequential(
                layer(obs_size, 64), nn.Tanh(), layer(64, 64), nn.Tanh(),
                layer(64, actions, 0.01),
            )

        def value(self, x: Any) -> Any:
            return self.critic(x)

        def act(self, x: Any, mask: Any, action: Any = None) -> tuple[Any, Any, Any, Any]:
            logits = torch.where(mask, self.actor(x), torch.tensor(-1e8))
            dist = torch.distributions.Categorical(logits=logits)
            if action is None:
                action = dist.sample()
            # Illegal actions have probability 0: their terms of the entropy are 0 as well.
            p_log_p = torch.where(mask, dist.probs * dist.logits, torch.tensor(0.0))
            return action, dist.log_prob(action), -p_log_p.sum(-1), self.critic(x)

    return Agent()


def policy_of(torch: Any, agent: Any) -> Policy:
    """The agent's most likely legal action, as ``evaluate`` plays it."""

    def policy(observation: np.ndarray, mask: np.ndarray) -> int:
        with torch.no_grad():
            x = torch.from_numpy(observation.reshape(1, -1))
            logits = agent.actor(x)[0]
            legal = torch.from_numpy(mask.astype(bool))
            return int(torch.where(legal, logits, torch.tensor(-1e8)).argmax())

    return policy


def curve(torch: Any, agent: Any, args: argparse.Namespace, clock: Clock, steps: int) -> None:
    """One point of the learning curve: ``evaluate`` against random and greedy."""
    start = time.perf_counter()
    agent.eval()
    for opponent in ("random", "greedy"):
        r = bao_zero.evaluate(policy_of(torch, agent), opponent, variant=args.variant,
                              games=args.games, seed=args.seed + 1)
        print(f"at {steps} steps: against {opponent} {100 * r['score']:.1f}% "
              f"[{100 * r['score_low']:.1f}%, {100 * r['score_high']:.1f}%] "
              f"({r['distinct_games']} distinct of {r['games']} games)", flush=True)
    agent.train()
    clock.paused += time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="kujifunza")
    parser.add_argument("--steps", type=int, default=1_000_000, help="agent steps in all")
    parser.add_argument("--envs", type=int, default=64, help="games stepped together")
    parser.add_argument("--n-steps", type=int, default=128, help="rollout per env")
    parser.add_argument("--minibatches", type=int, default=4)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--lr", type=float, default=2.5e-4)
    parser.add_argument("--gamma", type=float, default=0.99)
    parser.add_argument("--gae-lambda", type=float, default=0.95)
    parser.add_argument("--clip", type=float, default=0.2)
    parser.add_argument("--ent-coef", type=float, default=0.01)
    parser.add_argument("--vf-coef", type=float, default=0.5)
    parser.add_argument("--max-grad-norm", type=float, default=0.5)
    parser.add_argument("--games", type=int, default=100, help="evaluation games a point")
    parser.add_argument("--curve-every", type=int, default=100_000, help="steps between points")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    import torch
    from torch import nn, optim

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    envs = gymnasium.make_vec("bao_zero/Bao-v0", num_envs=args.envs, variant=args.variant,
                              vectorization_mode="vector_entry_point")
    envs = gymnasium.wrappers.vector.RecordEpisodeStatistics(envs)
    n, rollout = args.envs, args.n_steps
    obs_size = int(np.prod(envs.single_observation_space.shape))
    actions = int(envs.single_action_space.n)
    agent = make_agent(torch, nn, obs_size, actions)
    optimizer = optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)
    obs_buf = torch.zeros((rollout, n, obs_size))
    mask_buf = torch.zeros((rollout, n, actions), dtype=torch.bool)
    act_buf = torch.zeros((rollout, n), dtype=torch.long)
    logp_buf, rew_buf, done_buf, val_buf = (torch.zeros((rollout, n)) for _ in range(4))

    def tensors(o: np.ndarray, i: dict[str, Any]) -> tuple[Any, Any]:
        return (torch.from_numpy(o.reshape(n, -1).astype(np.float32)),
                torch.from_numpy(i["action_mask"].astype(bool)))

    measure("untrained", policy_of(torch, agent), args.variant, args.games, args.seed,
            sides=False)
    clock = Clock()
    o, infos = envs.reset(seed=args.seed)
    next_obs, next_mask = tensors(o, infos)
    next_done = torch.zeros(n)
    iterations = max(1, args.steps // (n * rollout))
    batch = n * rollout
    minibatch = batch // args.minibatches
    steps, next_point, returns = 0, args.curve_every, []
    for iteration in range(iterations):
        optimizer.param_groups[0]["lr"] = args.lr * (1.0 - iteration / iterations)
        for t in range(rollout):
            obs_buf[t], mask_buf[t], done_buf[t] = next_obs, next_mask, next_done
            with torch.no_grad():
                action, logp, _, value = agent.act(next_obs, next_mask)
            act_buf[t], logp_buf[t], val_buf[t] = action, logp, value.flatten()
            o, reward, terminated, truncated, infos = envs.step(action.numpy())
            rew_buf[t] = torch.from_numpy(np.asarray(reward, dtype=np.float32))
            next_obs, next_mask = tensors(o, infos)
            next_done = torch.from_numpy((terminated | truncated).astype(np.float32))
            # RecordEpisodeStatistics: the games that ended, with their returns and lengths.
            if "episode" in infos:
                ended = infos["_episode"]
                returns.extend(infos["episode"]["r"][ended].tolist())
        steps += batch
        with torch.no_grad():
            next_value = agent.value(next_obs).flatten()
            advantages = torch.zeros_like(rew_buf)
            last = torch.zeros(n)
            for t in reversed(range(rollout)):
                not_done = 1.0 - (next_done if t == rollout - 1 else done_buf[t + 1])
                following = next_value if t == rollout - 1 else val_buf[t + 1]
                delta = rew_buf[t] + args.gamma * following * not_done - val_buf[t]
                last = delta + args.gamma * args.gae_lambda * not_done * last
                advantages[t] = last
            targets = advantages + val_buf
        b_obs, b_mask = obs_buf.reshape(batch, -1), mask_buf.reshape(batch, -1)
        b_act, b_logp = act_buf.reshape(-1), logp_buf.reshape(-1)
        b_adv, b_target = advantages.reshape(-1), targets.reshape(-1)
        for _ in range(args.epochs):
            order = torch.randperm(batch)
            for start in range(0, batch, minibatch):
                mb = order[start:start + minibatch]
                _, logp, entropy, value = agent.act(b_obs[mb], b_mask[mb], b_act[mb])
                ratio = (logp - b_logp[mb]).exp()
                adv = b_adv[mb]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                pg_loss = torch.max(-adv * ratio,
                                    -adv * ratio.clamp(1 - args.clip, 1 + args.clip)).mean()
                v_loss = 0.5 * ((value.flatten() - b_target[mb]) ** 2).mean()
                loss = pg_loss - args.ent_coef * entropy.mean() + args.vf_coef * v_loss
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                optimizer.step()
        if returns and iteration % 10 == 0:
            recent = returns[-1000:]
            print(f"{steps} steps: mean return {np.mean(recent):+.3f} over the last "
                  f"{len(recent)} games", flush=True)
        if steps >= next_point:
            curve(torch, agent, args, clock, steps)
            next_point += args.curve_every
    clock.report(steps)
    curve(torch, agent, args, clock, steps)
    measure(f"after {steps} steps", policy_of(torch, agent), args.variant, 400, args.seed)


if __name__ == "__main__":
    main()
