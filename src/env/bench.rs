//! `bao bench env`: steps per second of one environment and of a [`VecEnv`] on two threads,
//! with random legal actions (move generation, observation encoding and masks included).

use super::action::ACTIONS;
use super::agents::RandomAgent;
use super::env::{Env, EnvConfig};
use super::observation::OBS_LEN;
use super::vec_env::{VecEnv, episode_seed};
use crate::rules::{Rules, Variant};
use std::fmt;
use std::time::Instant;

/// Figures of [`bench_env`]: medians over the runs, in steps per second.
#[derive(Clone, Debug, serde::Serialize)]
pub struct BenchReport {
    /// The preset measured.
    pub variant: String,
    /// Environments in the `VecEnv`.
    pub vec_envs: usize,
    /// Rayon threads of the `VecEnv`.
    pub vec_threads: usize,
    /// One `Env` on the calling thread: `step_into` (no allocation) plus the float mask.
    pub single_steps_per_sec: f64,
    /// One `Env` with `step` (an owned observation vector) and `legal_mask`.
    pub single_owned_steps_per_sec: f64,
    /// The `VecEnv`, all environments counted.
    pub vec_steps_per_sec: f64,
    /// `vec_steps_per_sec / single_steps_per_sec`.
    pub speedup: f64,
    /// Two independent `Env`s on two plain threads, no synchronization at all, over one `Env`:
    /// the most any parallel scheme can get from this machine's cores.
    pub independent_speedup: f64,
    /// Each run's figures: (single, single owned, vec, two independent).
    pub runs: Vec<(f64, f64, f64, f64)>,
}

impl fmt::Display for BenchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "env ({}, random legal actions, observation + mask every step; median of {} runs)",
            self.variant,
            self.runs.len()
        )?;
        writeln!(
            f,
            "  one Env, 1 thread (step_into):      {:>12.0} steps/s",
            self.single_steps_per_sec
        )?;
        writeln!(
            f,
            "  one Env, 1 thread (step, owned obs): {:>11.0} steps/s",
            self.single_owned_steps_per_sec
        )?;
        writeln!(
            f,
            "  VecEnv, {} envs, {} threads:          {:>12.0} steps/s",
            self.vec_envs, self.vec_threads, self.vec_steps_per_sec
        )?;
        writeln!(f, "  VecEnv / one Env: {:.2}x", self.speedup)?;
        write!(
            f,
            "  (ceiling: two independent Envs on 2 plain threads / one Env: {:.2}x)",
            self.independent_speedup
        )
    }
}

/// The median (the mean of the two middle values for an even count).
fn median(values: impl Iterator<Item = f64>) -> f64 {
    let mut v: Vec<f64> = values.collect();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// Bao la Kiswahili: one `Env` on the calling thread, and a `VecEnv` of 64 environments on a
/// rayon pool of 2 threads; `runs` runs of about `seconds_per_run` each per figure.
pub fn bench_env(seconds_per_run: f64, runs: usize) -> BenchReport {
    bench_env_with(&Variant::Kiswahili.rules(), seconds_per_run, runs, 64, 2)
}

/// As [`bench_env`] for any rule set, number of environments and threads.
///
/// The machine's speed drifts (other processes, frequency), so each run interleaves the three
/// measurements in ten slices, and the ratio is the median of the runs' own ratios.
pub fn bench_env_with(
    rules: &Rules,
    seconds_per_run: f64,
    runs: usize,
    vec_envs: usize,
    vec_threads: usize,
) -> BenchReport {
    const SLICES: usize = 10;
    let vec_envs = vec_envs.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(vec_threads.max(1))
        .build()
        .ok();
    let slice = seconds_per_run / SLICES as f64;
    let mut all = Vec::new();
    for run in 0..runs.max(1) {
        let seed = run as u64;
        let (Some(mut single), Some(mut owned)) = (
            SingleBench::new(rules, seed, false),
            SingleBench::new(rules, seed, true),
        ) else {
            break;
        };
        let made = match &pool {
            Some(p) => p.install(|| VecBench::new(rules, seed, vec_envs)),
            None => VecBench::new(rules, seed, vec_envs),
        };
        let Some(mut vec) = made else {
            break;
        };
        let Some(mut other) = SingleBench::new(rules, seed + 1000, false) else {
            break;
        };
        let mut totals = [(0u64, 0.0f64); 5];
        for _ in 0..SLICES {
            let add = |t: &mut (u64, f64), (n, secs): (u64, f64)| {
                t.0 += n;
                t.1 += secs;
            };
            add(&mut totals[0], single.run_for(slice));
            add(&mut totals[1], owned.run_for(slice));
            let measured = match &pool {
                Some(p) => p.install(|| vec.run_for(slice)),
                None => vec.run_for(slice),
            };
            add(&mut totals[2], measured);
            let (a, b) = std::thread::scope(|scope| {
                let h = scope.spawn(|| other.run_for(slice));
                let a = single.run_for(slice);
                (a, h.join().unwrap_or((0, slice)))
            });
            add(&mut totals[3], a);
            add(&mut totals[4], b);
        }
        let rate = |(n, secs): (u64, f64)| n as f64 / secs;
        all.push((
            rate(totals[0]),
            rate(totals[1]),
            rate(totals[2]),
            rate(totals[3]) + rate(totals[4]),
        ));
    }
    BenchReport {
        variant: Variant::ALL
            .into_iter()
            .find(|v| v.rules() == *rules)
            .map_or("custom rules".to_string(), |v| v.name().to_string()),
        vec_envs,
        vec_threads: pool.as_ref().map_or(1, |p| p.current_num_threads()),
        single_steps_per_sec: median(all.iter().map(|r| r.0)),
        single_owned_steps_per_sec: median(all.iter().map(|r| r.1)),
        vec_steps_per_sec: median(all.iter().map(|r| r.2)),
        speedup: median(all.iter().map(|r| r.2 / r.0)),
        independent_speedup: median(all.iter().map(|r| r.3 / r.0)),
        runs: all,
    }
}

/// One environment played with random legal actions, reset at every episode end.
struct SingleBench {
    env: Env,
    agent: RandomAgent,
    obs: Vec<f32>,
    mask: [f32; ACTIONS],
    seed: u64,
    episode: u64,
    owned: bool,
}

impl SingleBench {
    fn new(rules: &Rules, seed: u64, owned: bool) -> Option<SingleBench> {
        let mut b = SingleBench {
            env: Env::new(rules.clone(), EnvConfig::default()).ok()?,
            agent: RandomAgent::new(seed),
            obs: vec![0.0; OBS_LEN],
            mask: [0.0; ACTIONS],
            seed,
            episode: 0,
            owned,
        };
        b.env
            .reset_into(episode_seed(seed, 0, 0), &mut b.obs)
            .ok()?;
        Some(b)
    }

    /// Steps for about `seconds`; returns (steps, seconds).
    fn run_for(&mut self, seconds: f64) -> (u64, f64) {
        let mut steps = 0u64;
        let t = Instant::now();
        // Read the clock every 256 steps: reading it costs about as much as a step.
        while !steps.is_multiple_of(256) || t.elapsed().as_secs_f64() < seconds {
            let a = self.agent.pick(self.env.legal_mask_bits());
            let done = if self.owned {
                let Ok(step) = self.env.step(a) else { break };
                std::hint::black_box((&step.observation, self.env.legal_mask()));
                step.terminated || step.truncated
            } else {
                let Ok(tr) = self.env.step_into(a, &mut self.obs) else {
                    break;
                };
                self.env.write_legal_mask(&mut self.mask);
                std::hint::black_box((&self.obs, &self.mask));
                tr.terminated || tr.truncated
            };
            if done {
                self.episode += 1;
                let seed = episode_seed(self.seed, 0, self.episode);
                if self.env.reset_into(seed, &mut self.obs).is_err() {
                    break;
                }
            }
            steps += 1;
        }
        (steps, t.elapsed().as_secs_f64())
    }
}

/// A `VecEnv` on the current rayon pool, random legal actions chosen on the calling thread.
struct VecBench {
    venv: VecEnv,
    agent: RandomAgent,
    actions: Vec<usize>,
}

impl VecBench {
    fn new(rules: &Rules, seed: u64, n: usize) -> Option<VecBench> {
        Some(VecBench {
            venv: VecEnv::new(rules.clone(), EnvConfig::default(), n, seed).ok()?,
            agent: RandomAgent::new(seed),
            actions: vec![0; n],
        })
    }

    /// Steps for about `seconds`; returns (environment steps, seconds).
    fn run_for(&mut self, seconds: f64) -> (u64, f64) {
        let mut batches = 0u64;
        let t = Instant::now();
        while !batches.is_multiple_of(16) || t.elapsed().as_secs_f64() < seconds {
            for (a, &bits) in self.actions.iter_mut().zip(self.venv.mask_bits()) {
                *a = self.agent.pick(bits);
            }
            if self.venv.step(&self.actions).is_err() {
                break;
            }
            std::hint::black_box((self.venv.obs(), self.venv.masks()));
            batches += 1;
        }
        (
            batches * self.actions.len() as u64,
            t.elapsed().as_secs_f64(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_has_every_figure() {
        let r = bench_env_with(&Variant::Kujifunza.rules(), 0.01, 1, 4, 2);
        assert_eq!(r.variant, "kujifunza");
        assert!(r.single_steps_per_sec > 0.0 && r.vec_steps_per_sec > 0.0);
        assert_eq!(r.runs.len(), 1);
        let text = r.to_string();
        assert!(text.contains("VecEnv / one Env"), "{text}");
    }

    #[test]
    #[ignore = "benchmark: cargo test --release --lib env::bench -- --ignored --nocapture"]
    fn print_the_report() {
        println!("{}", bench_env(2.0, 5));
    }
}
