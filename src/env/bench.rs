//! `bao bench env`: steps per second of one environment and of a [`VecEnv`], with random legal
//! actions (move generation, observation encoding, masks and resets included).

use super::action::{ACTIONS, nth_action};
use super::env::{Env, EnvConfig};
use super::observation::OBS_LEN;
use super::vec_env::{VecEnv, episode_seed};
use crate::rules::{Game, Variant};
use crate::util::hash::splitmix64;
use crate::util::stats::median;
use std::fmt;
use std::time::Instant;

/// What [`bench_env`] measures.
#[derive(Clone, Debug)]
pub struct EnvBenchConfig {
    /// The game played.
    pub game: Game,
    /// Environments in the `VecEnv`.
    pub envs: usize,
    /// Threads of the `VecEnv`'s rayon pool.
    pub threads: usize,
    /// Seconds per run and figure.
    pub seconds_per_run: f64,
    /// Runs (medians are reported).
    pub runs: usize,
}

impl Default for EnvBenchConfig {
    /// Bao la Kiswahili, 64 environments on 2 threads, 5 runs of 2 seconds.
    fn default() -> Self {
        EnvBenchConfig {
            game: Variant::Kiswahili.into(),
            envs: 64,
            threads: 2,
            seconds_per_run: 2.0,
            runs: 5,
        }
    }
}

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
    /// The `VecEnv` on `vec_threads` threads, all environments counted.
    pub vec_steps_per_sec: f64,
    /// The same `VecEnv` on a pool of one thread.
    pub vec_one_thread_steps_per_sec: f64,
    /// `vec_steps_per_sec / single_steps_per_sec` (the median of the runs' own ratios).
    pub speedup: f64,
    /// `vec_steps_per_sec / vec_one_thread_steps_per_sec`: how the `VecEnv` scales.
    pub scaling: f64,
    /// `vec_threads` independent `Env`s on as many plain threads, no synchronization at all,
    /// over one `Env`: the most any parallel scheme can get from this machine's cores.
    pub independent_speedup: f64,
    /// Each run's figures: (single, single owned, vec, vec on one thread, independent).
    pub runs: Vec<[f64; 5]>,
}

impl fmt::Display for BenchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = self.vec_threads;
        writeln!(
            f,
            "env ({}, random legal actions, observation + mask every step; median of {} runs)",
            self.variant,
            self.runs.len()
        )?;
        let rows = [
            (
                "one Env, 1 thread (step_into)".to_string(),
                self.single_steps_per_sec,
            ),
            (
                "one Env, 1 thread (step, owned obs)".to_string(),
                self.single_owned_steps_per_sec,
            ),
            (
                format!("VecEnv, {} envs, 1 thread", self.vec_envs),
                self.vec_one_thread_steps_per_sec,
            ),
            (
                format!("VecEnv, {} envs, {t} threads", self.vec_envs),
                self.vec_steps_per_sec,
            ),
        ];
        for (name, rate) in rows {
            writeln!(f, "  {name:<38} {rate:>10.0} steps/s")?;
        }
        writeln!(
            f,
            "  VecEnv on {t} threads / one Env: {:.2}x; / VecEnv on 1 thread: {:.2}x",
            self.speedup, self.scaling
        )?;
        write!(
            f,
            "  (ceiling: {t} independent Envs on {t} plain threads / one Env: {:.2}x)",
            self.independent_speedup
        )
    }
}

/// Measures one `Env`, one `Env` with owned observations, the `VecEnv` on `threads` threads and
/// on one thread, and `threads` independent `Env`s on plain threads.
///
/// The machine's speed drifts (other processes, frequency), so each run interleaves the
/// measurements in ten slices, and ratios are the medians of the runs' own ratios. Actions are
/// drawn by a counter hash that costs a few nanoseconds, the same for every figure, so that the
/// figures are the environments' and the `VecEnv`'s serial part is not the driver's generator.
pub fn bench_env(config: &EnvBenchConfig) -> BenchReport {
    const SLICES: usize = 10;
    let rules = &config.game;
    let envs = config.envs.max(1);
    let threads = config.threads.max(1);
    let pool = |n: usize| rayon::ThreadPoolBuilder::new().num_threads(n).build().ok();
    let (many, one) = (pool(threads), pool(1));
    let on = |pool: &Option<rayon::ThreadPool>, bench: &mut VecBench, secs: f64| match pool {
        Some(p) => p.install(|| bench.run_for(secs)),
        None => bench.run_for(secs),
    };
    let slice = config.seconds_per_run / SLICES as f64;
    let mut all = Vec::new();
    for run in 0..config.runs.max(1) {
        let seed = run as u64;
        let (Some(mut single), Some(mut owned)) = (
            SingleBench::new(rules, seed, false),
            SingleBench::new(rules, seed, true),
        ) else {
            break;
        };
        let (Some(mut vec), Some(mut vec_one)) = (
            VecBench::new(rules, seed, envs),
            VecBench::new(rules, seed, envs),
        ) else {
            break;
        };
        let Some(mut independent) = (0..threads)
            .map(|k| SingleBench::new(rules, seed + 1000 + k as u64, false))
            .collect::<Option<Vec<_>>>()
        else {
            break;
        };
        let mut totals = [(0u64, 0.0f64); 5];
        let add = |t: &mut (u64, f64), (n, secs): (u64, f64)| {
            t.0 += n;
            t.1 += secs;
        };
        for _ in 0..SLICES {
            add(&mut totals[0], single.run_for(slice));
            add(&mut totals[1], owned.run_for(slice));
            add(&mut totals[2], on(&many, &mut vec, slice));
            add(&mut totals[3], on(&one, &mut vec_one, slice));
            // Steps of all threads over the slice's wall time.
            let t = Instant::now();
            let steps: u64 = std::thread::scope(|s| {
                let handles: Vec<_> = independent
                    .iter_mut()
                    .map(|b| s.spawn(move || b.run_for(slice).0))
                    .collect();
                handles.into_iter().map(|h| h.join().unwrap_or(0)).sum()
            });
            add(&mut totals[4], (steps, t.elapsed().as_secs_f64()));
        }
        all.push(totals.map(|(n, secs)| n as f64 / secs));
    }
    let column = |i: usize| median(&all.iter().map(|r| r[i]).collect::<Vec<_>>());
    let ratio = |a: usize, b: usize| median(&all.iter().map(|r| r[a] / r[b]).collect::<Vec<_>>());
    BenchReport {
        variant: rules.to_string(),
        vec_envs: envs,
        vec_threads: many.as_ref().map_or(1, |p| p.current_num_threads()),
        single_steps_per_sec: column(0),
        single_owned_steps_per_sec: column(1),
        vec_steps_per_sec: column(2),
        vec_one_thread_steps_per_sec: column(3),
        speedup: ratio(2, 0),
        scaling: ratio(2, 3),
        independent_speedup: ratio(4, 0),
        runs: all,
    }
}

/// A uniformly spread legal action from a counter hash (splitmix64): a few nanoseconds, where a
/// cryptographic generator's draw would cost as much as a tenth of a step.
#[derive(Clone, Debug)]
struct CheapPick(u64);

impl CheapPick {
    #[inline]
    fn pick(&mut self, bits: u64) -> usize {
        self.0 = self.0.wrapping_add(1);
        let z = splitmix64(self.0);
        let n = u64::from(bits.count_ones());
        // `((z >> 32) * n) >> 32` is uniform in 0..n up to 2^-32.
        nth_action(bits, (((z >> 32) * n) >> 32) as usize).unwrap_or(0)
    }
}

/// One environment played with random legal actions, reset at every episode end.
struct SingleBench {
    env: Env,
    picker: CheapPick,
    obs: Vec<f32>,
    mask: [f32; ACTIONS],
    seed: u64,
    episode: u64,
    owned: bool,
}

impl SingleBench {
    fn new(rules: &Game, seed: u64, owned: bool) -> Option<SingleBench> {
        let mut b = SingleBench {
            env: Env::new(rules.clone(), EnvConfig::default()).ok()?,
            picker: CheapPick(seed),
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
            let a = self.picker.pick(self.env.legal_mask_bits());
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

/// A `VecEnv` stepped on the current rayon pool, actions chosen on the calling thread.
struct VecBench {
    venv: VecEnv,
    picker: CheapPick,
    actions: Vec<usize>,
}

impl VecBench {
    fn new(rules: &Game, seed: u64, n: usize) -> Option<VecBench> {
        Some(VecBench {
            venv: VecEnv::new(rules.clone(), EnvConfig::default(), n, seed).ok()?,
            picker: CheapPick(seed),
            actions: vec![0; n],
        })
    }

    /// Steps for about `seconds`; returns (environment steps, seconds).
    fn run_for(&mut self, seconds: f64) -> (u64, f64) {
        let mut batches = 0u64;
        let t = Instant::now();
        while !batches.is_multiple_of(16) || t.elapsed().as_secs_f64() < seconds {
            for (a, &bits) in self.actions.iter_mut().zip(self.venv.mask_bits()) {
                *a = self.picker.pick(bits);
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
        let r = bench_env(&EnvBenchConfig {
            game: Variant::Kujifunza.into(),
            envs: 4,
            threads: 2,
            seconds_per_run: 0.01,
            runs: 1,
        });
        assert_eq!(r.variant, "kujifunza");
        assert_eq!((r.vec_envs, r.vec_threads), (4, 2));
        assert!(r.single_steps_per_sec > 0.0 && r.vec_steps_per_sec > 0.0);
        assert!(r.vec_one_thread_steps_per_sec > 0.0 && r.independent_speedup > 0.0);
        assert_eq!(r.runs.len(), 1);
        let text = r.to_string();
        assert!(text.contains("/ one Env") && text.contains("VecEnv, 4 envs, 1 thread"));
    }

    #[test]
    fn cheap_picks_are_legal_and_spread() {
        let bits = 0b1011_0000_0001u64 | 1 << 63;
        let mut p = CheapPick(3);
        let mut seen = [0u32; ACTIONS];
        for _ in 0..4000 {
            seen[p.pick(bits)] += 1;
        }
        for (a, &count) in seen.iter().enumerate() {
            if bits >> a & 1 == 1 {
                // Five legal actions: 800 each expected, with a standard deviation of 25.
                assert!((700..900).contains(&count), "action {a}: {count}");
            } else {
                assert_eq!(count, 0, "action {a} is not legal");
            }
        }
        assert_eq!(p.pick(0), 0);
    }
}
