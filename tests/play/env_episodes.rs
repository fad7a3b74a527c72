//! The RL environment's episodes: misuse, rewards and outcomes, truncation, replays, the vector
//! environment and the baseline agents, for every preset.

use super::env::{LONG, bits_of, sample_positions};
use bao_zero::env::observation::{CELLS, CH_OVER_MOVER_LOST, CH_OVER_MOVER_WON, CH_OVER_VOID};
use bao_zero::env::{
    ACTIONS, ActionError, Agent, Env, EnvConfig, EnvError, EpisodeEnd, GreedyAgent, OBS_LEN,
    RandomAgent, VecEnv, VecEnvError, action_to_move, episode_seed,
};
use bao_zero::notation::legal_strings;
use bao_zero::rules::{Game, MoveList, Position, Side, Variant};

#[test]
fn misuse_gives_typed_errors_and_changes_nothing() {
    let rules = Game::from(Variant::Kiswahili);
    let mut env = Env::new(rules.clone(), EnvConfig::default()).unwrap();
    env.reset(1);
    let start = *env.state();

    let err = env.step(64).unwrap_err();
    assert_eq!(err, EnvError::ActionOutOfRange { action: 64 });
    assert!(err.to_string().contains("out of range"));

    let illegal = (0..ACTIONS).find(|&a| !env.legal_mask()[a]).unwrap();
    let err = env.step(illegal).unwrap_err();
    let EnvError::IllegalAction {
        action,
        side,
        legal,
        ..
    } = &err
    else {
        panic!("{err}")
    };
    assert_eq!((*action, *side), (illegal, Side::South));
    let mut list = MoveList::new();
    start.legal_moves(&rules, &mut list);
    let mut texts: Vec<String> = legal.iter().map(|(_, t)| t.clone()).collect();
    texts.sort();
    assert_eq!(texts, legal_strings(&list, Side::South));
    assert!(err.to_string().contains("A6<"), "{err}");
    assert_eq!(*env.state(), start);

    let mut short = vec![0.0; OBS_LEN - 1];
    let a = env.legal_actions()[0];
    assert!(matches!(
        env.step_into(a, &mut short),
        Err(EnvError::ObservationBuffer(_))
    ));
    assert_eq!(*env.state(), start);

    assert!(matches!(
        env.parse_action("Z9"),
        Err(EnvError::Action(ActionError::Notation(_)))
    ));
    assert!(matches!(
        env.parse_action("A1>"),
        Err(EnvError::Action(ActionError::Notation(_)))
    ));
    assert!(matches!(
        action_to_move(&start, 99),
        Err(ActionError::OutOfRange { action: 99 })
    ));

    // A position the gate would refuse, made without it, is still refused by the environment.
    let wrong_total = Position::from_setup_unchecked(
        "0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 21,22 Hh - - 0"
            .parse()
            .unwrap(),
    );
    assert!(matches!(
        env.set_state(wrong_total),
        Err(EnvError::InvalidPosition(_))
    ));
    assert!(matches!(
        Env::new(
            rules,
            EnvConfig {
                max_plies: 5,
                opening_random_plies: 5
            }
        ),
        Err(EnvError::InvalidConfig(_))
    ));
}

#[test]
fn stepping_a_finished_game_is_an_error_naming_how_it_ended() {
    let mut agent = RandomAgent::new(2);
    let mut env = Env::new(Variant::Hus.into(), LONG).unwrap();
    env.reset(0);
    while !env.is_done() {
        env.step(agent.act(&env)).unwrap();
    }
    assert_eq!(env.legal_mask_bits(), 0);
    let err = env.step(0).unwrap_err();
    assert!(matches!(err, EnvError::EpisodeOver { .. }), "{err}");
    assert!(
        err.to_string().contains("won") && err.to_string().contains("call reset"),
        "{err}"
    );
}

#[test]
fn rewards_and_outcomes_at_the_end_of_games() {
    for v in Variant::ALL {
        let mut env = Env::new(v.into(), LONG).unwrap();
        let mut agent = RandomAgent::new(7);
        for episode in 0..3 {
            env.reset(episode);
            let step = loop {
                let mover = env.current_player();
                let step = env.step(agent.act(&env)).unwrap();
                assert_eq!(step.info.ply, env.plies());
                assert!(!step.truncated);
                if step.terminated {
                    assert_eq!(step.info.mv.side, mover);
                    break step;
                }
                assert_eq!(step.rewards, [0.0; 2]);
                assert!(step.info.outcome.is_none());
            };
            let outcome = step.info.outcome.expect("an ended game has an outcome");
            assert_eq!(env.episode_end(), Some(EpisodeEnd::Terminated(outcome)));
            match outcome.winner {
                Some(w) => {
                    assert_eq!(step.rewards[w.index()], 1.0);
                    assert_eq!(step.rewards[w.opponent().index()], -1.0);
                }
                None => assert_eq!(step.rewards, [0.0; 2]),
            }
            // A result recorded in the position shows in the observation, from the mover's side.
            let plane = |ch: usize| step.observation[ch * CELLS];
            let me = env.current_player();
            let expected = match env.state().result().map(|o| o.winner) {
                None => [0.0; 3],
                Some(Some(w)) if w == me => [1.0, 0.0, 0.0],
                Some(Some(_)) => [0.0, 1.0, 0.0],
                Some(None) => [0.0, 0.0, 1.0],
            };
            assert_eq!(
                [
                    plane(CH_OVER_MOVER_WON),
                    plane(CH_OVER_MOVER_LOST),
                    plane(CH_OVER_VOID)
                ],
                expected,
                "{v}"
            );
        }
    }
}

#[test]
fn truncation_at_max_plies() {
    let config = EnvConfig {
        max_plies: 10,
        opening_random_plies: 4,
    };
    let mut env = Env::new(Variant::Kiswahili.into(), config).unwrap();
    env.reset(3);
    assert_eq!(env.plies(), 4);
    assert_eq!(env.state().ply(), 4);
    let mut agent = RandomAgent::new(1);
    for ply in 5..=10 {
        let step = env.step(agent.act(&env)).unwrap();
        assert!(
            !step.terminated,
            "Bao la Kiswahili cannot end in {ply} plies"
        );
        assert_eq!(step.truncated, ply == 10, "ply {ply}");
        assert_eq!(step.rewards, [0.0; 2]);
    }
    assert_eq!(env.episode_end(), Some(EpisodeEnd::Truncated { plies: 10 }));
    assert_eq!(env.legal_mask_bits(), 0);
    assert!(!env.legal_moves().is_empty(), "the position itself goes on");
    assert!(matches!(
        env.step(0),
        Err(EnvError::EpisodeOver {
            end: EpisodeEnd::Truncated { plies: 10 }
        })
    ));
    env.reset(3);
    assert!(!env.is_done());
}

/// One recorded step: the action, the observation bits, rewards, done flag and the move text.
type Record = (usize, Vec<u32>, [f32; 2], bool, String);

/// A trajectory of random play over several episodes.
fn trajectory(v: Variant, config: EnvConfig, seed: u64, steps: usize) -> Vec<Record> {
    let mut env = Env::new(v.into(), config).unwrap();
    let mut agent = RandomAgent::new(seed);
    let mut out = vec![(0, bits_of(&env.reset(seed)), [0.0; 2], false, String::new())];
    let mut episode = 0;
    for _ in 0..steps {
        let a = agent.act(&env);
        let s = env.step(a).unwrap();
        let done = s.terminated || s.truncated;
        out.push((
            a,
            bits_of(&s.observation),
            s.rewards,
            done,
            s.info.mv.to_string(),
        ));
        if done {
            episode += 1;
            out.push((
                0,
                bits_of(&env.reset(seed + episode)),
                [0.0; 2],
                false,
                String::new(),
            ));
        }
    }
    out
}

#[test]
fn env_replays_are_deterministic() {
    let config = EnvConfig {
        max_plies: 80,
        opening_random_plies: 6,
    };
    for v in [
        Variant::Kiswahili,
        Variant::MalawiAdvanced,
        Variant::Kimasai,
    ] {
        let a = trajectory(v, config, 42, 300);
        assert_eq!(a, trajectory(v, config, 42, 300), "{v}");
        assert_ne!(a, trajectory(v, config, 43, 300), "{v}");
    }
    // The random opening plies depend on the seed.
    let mut env = Env::new(Variant::Kiswahili.into(), config).unwrap();
    let starts: std::collections::HashSet<Position> = (0..8)
        .map(|s| {
            env.reset(s);
            *env.state()
        })
        .collect();
    assert!(starts.len() > 4, "{} distinct starts", starts.len());
}

/// Steps a VecEnv for `steps` steps with random legal actions inside a pool of `threads`
/// threads; returns a fingerprint of every buffer after every step.
fn vec_run(
    v: Variant,
    config: EnvConfig,
    n: usize,
    threads: usize,
    steps: usize,
) -> (Vec<Vec<u8>>, usize, usize) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| {
        let mut venv = VecEnv::new(v.into(), config, n, 9).unwrap();
        let mut agent = RandomAgent::new(9);
        let mut actions = vec![0; n];
        let mut prints = Vec::new();
        let (mut terminated, mut truncated) = (0, 0);
        for _ in 0..steps {
            for (a, &b) in actions.iter_mut().zip(venv.mask_bits()) {
                *a = agent.pick(b);
            }
            venv.step(&actions).unwrap();
            terminated += venv.terminated().iter().filter(|&&t| t).count();
            truncated += venv.truncated().iter().filter(|&&t| t).count();
            let mut p: Vec<u8> = venv.obs().iter().flat_map(|x| x.to_le_bytes()).collect();
            p.extend(venv.masks().iter().flat_map(|x| x.to_le_bytes()));
            p.extend(
                venv.rewards()
                    .iter()
                    .flatten()
                    .flat_map(|x| x.to_le_bytes()),
            );
            p.extend(venv.terminated().iter().map(|&t| t as u8));
            p.extend(venv.truncated().iter().map(|&t| t as u8));
            p.extend(venv.episodes().iter().flat_map(|e| e.to_le_bytes()));
            p.extend(format!("{:?}", venv.finals()).bytes());
            prints.push(p);
        }
        (prints, terminated, truncated)
    })
}

#[test]
fn vec_env_results_do_not_depend_on_the_thread_count() {
    let config = EnvConfig {
        max_plies: 60,
        opening_random_plies: 2,
    };
    for v in [Variant::Kiswahili, Variant::Hus] {
        let (one, term1, trunc1) = vec_run(v, config, 13, 1, 250);
        let (two, term2, trunc2) = vec_run(v, config, 13, 2, 250);
        assert_eq!((term1, trunc1), (term2, trunc2));
        assert!(
            term1 + trunc1 > 13,
            "{v}: episodes should end and auto-reset"
        );
        assert!(one == two, "{v}: 1 and 2 threads differ");
    }
}

#[test]
fn vec_env_matches_independent_envs_with_derived_seeds() {
    let config = EnvConfig {
        max_plies: 40,
        opening_random_plies: 3,
    };
    let rules = Game::from(Variant::Kujifunza);
    let n = 5;
    let mut venv = VecEnv::new(rules.clone(), config, n, 77).unwrap();
    let mut envs: Vec<Env> = (0..n)
        .map(|_| Env::new(rules.clone(), config).unwrap())
        .collect();
    let mut episodes = vec![0u64; n];
    for (i, e) in envs.iter_mut().enumerate() {
        assert_eq!(
            e.reset(episode_seed(77, i, 0)),
            venv.obs()[i * OBS_LEN..(i + 1) * OBS_LEN]
        );
    }
    let mut agent = RandomAgent::new(5);
    let mut resets = 0;
    for _ in 0..200 {
        let actions: Vec<usize> = venv.mask_bits().iter().map(|&b| agent.pick(b)).collect();
        venv.step(&actions).unwrap();
        for (i, e) in envs.iter_mut().enumerate() {
            let mover = e.current_player();
            let s = e.step(actions[i]).unwrap();
            assert_eq!(venv.movers()[i], mover);
            assert_eq!(venv.rewards()[i], s.rewards);
            assert_eq!(venv.terminated()[i], s.terminated);
            assert_eq!(venv.truncated()[i], s.truncated);
            if s.terminated || s.truncated {
                let fin = venv.finals()[i].expect("an ended episode has a final state");
                assert_eq!(fin.position, *e.state());
                assert_eq!(Some(fin.end), e.episode_end());
                episodes[i] += 1;
                resets += 1;
                e.reset(episode_seed(77, i, episodes[i]));
            } else {
                assert!(venv.finals()[i].is_none());
            }
            assert_eq!(venv.obs()[i * OBS_LEN..(i + 1) * OBS_LEN], e.observation());
            let mut mask = [0.0; ACTIONS];
            e.write_legal_mask(&mut mask);
            assert_eq!(venv.masks()[i * ACTIONS..(i + 1) * ACTIONS], mask);
        }
    }
    assert_eq!(venv.episodes(), episodes.as_slice());
    assert!(resets >= n, "only {resets} auto-resets");
}

#[test]
fn vec_env_rejects_bad_actions_without_stepping() {
    let mut venv = VecEnv::new(Variant::Kiswahili.into(), EnvConfig::default(), 4, 1).unwrap();
    let before = venv.obs().to_vec();
    assert_eq!(
        venv.step(&[0, 0]),
        Err(VecEnvError::WrongActionCount {
            expected: 4,
            found: 2
        })
    );
    let mut actions: Vec<usize> = venv
        .mask_bits()
        .iter()
        .map(|&b| b.trailing_zeros() as usize)
        .collect();
    let illegal = (0..ACTIONS)
        .find(|&a| venv.mask_bits()[2] >> a & 1 == 0)
        .unwrap();
    actions[2] = illegal;
    let err = venv.step(&actions).unwrap_err();
    assert!(
        matches!(
            err,
            VecEnvError::Env {
                index: 2,
                source: EnvError::IllegalAction { .. }
            }
        ),
        "{err}"
    );
    actions[2] = 1000;
    assert!(matches!(
        venv.step(&actions),
        Err(VecEnvError::Env {
            index: 2,
            source: EnvError::ActionOutOfRange { action: 1000 }
        })
    ));
    assert_eq!(venv.obs(), before.as_slice());
    assert_eq!(venv.envs().map(|e| e.plies()).max(), Some(0));
    assert!(matches!(
        VecEnv::new(Variant::Kiswahili.into(), EnvConfig::default(), 0, 1),
        Err(VecEnvError::Empty)
    ));
}

#[test]
fn greedy_agent_takes_the_biggest_capture() {
    let mut list = MoveList::new();
    let mut captures_seen = 0;
    for v in [
        Variant::Kiswahili,
        Variant::Hus,
        Variant::Kimasai,
        Variant::MalawiAdvanced,
    ] {
        let rules = Game::from(v);
        let mut env = Env::new(rules.clone(), LONG).unwrap();
        let (mut g1, mut g2) = (GreedyAgent::new(1), GreedyAgent::new(2));
        let mut differ = false;
        for pos in sample_positions(v, 6, 200, 17) {
            pos.legal_moves(&rules, &mut list);
            if list.is_empty() || pos.result().is_some() {
                continue;
            }
            env.set_state(pos).unwrap();
            let opp = pos.side_to_move().opponent();
            let seeds = |p: &Position| p.pits(opp).iter().map(|&n| i32::from(n)).sum::<i32>();
            let gain = |a: usize| {
                seeds(&pos) - seeds(list.find(action_to_move(&pos, a).unwrap()).unwrap())
            };
            let best = list
                .children()
                .iter()
                .map(|c| seeds(&pos) - seeds(c))
                .max()
                .unwrap();
            let (a1, a2) = (g1.act(&env), g2.act(&env));
            assert_eq!(gain(a1), best, "{v} {pos}");
            assert_eq!(gain(a2), best, "{v} {pos}");
            differ |= a1 != a2;
            captures_seen += usize::from(best > 0);
        }
        assert!(
            differ,
            "{v}: ties should be broken differently by different seeds"
        );
    }
    assert!(captures_seen > 50);
}

#[test]
fn vec_env_steps_only_the_environments_it_is_told_to() {
    let mut venv = VecEnv::new(Variant::Hus.into(), EnvConfig::default(), 3, 1).unwrap();
    let first_legal = |venv: &VecEnv| -> Vec<usize> {
        let bits = venv.mask_bits().iter();
        bits.map(|&b| b.trailing_zeros() as usize).collect()
    };
    venv.step(&first_legal(&venv)).unwrap();
    let before: Vec<_> = venv.envs().map(|e| *e.state()).collect();
    let obs = venv.obs()[..OBS_LEN].to_vec();
    // The resting environment's action is not read: an illegal one is no error.
    let mut actions = first_legal(&venv);
    actions[0] = 1000;
    venv.step_where(&actions, Some(&[false, true, true]))
        .unwrap();
    let after: Vec<_> = venv.envs().map(|e| *e.state()).collect();
    assert_eq!(after[0], before[0]);
    assert_ne!(after[1], before[1]);
    assert_eq!(venv.obs()[..OBS_LEN], obs[..]);
    assert_eq!(
        venv.envs().map(|e| e.plies()).collect::<Vec<_>>(),
        [1, 2, 2]
    );
    assert_eq!((venv.rewards()[0], venv.terminated()[0]), ([0.0; 2], false));
    assert_eq!(
        venv.step_where(&actions, Some(&[true])),
        Err(VecEnvError::WrongActiveCount {
            expected: 3,
            found: 1
        })
    );
}

/// The last legal action of each environment.
fn last_legal(venv: &VecEnv) -> Vec<usize> {
    venv.mask_bits()
        .iter()
        .map(|&bits| 63 - bits.leading_zeros() as usize)
        .collect()
}

#[test]
fn vec_env_restored_from_saved_states_steps_as_the_original() {
    let config = EnvConfig {
        max_plies: 20,
        opening_random_plies: 2,
    };
    let mut venv = VecEnv::new(Variant::Kiswahili.into(), config, 5, 9).unwrap();
    for _ in 0..33 {
        venv.step(&last_legal(&venv)).unwrap();
    }
    let saved: Vec<(Position, u32, u64)> = venv
        .envs()
        .zip(venv.episodes())
        .map(|(e, &episode)| (*e.state(), e.plies(), episode))
        .collect();
    let mut copy = VecEnv::new(Variant::Kiswahili.into(), config, 5, 9).unwrap();
    assert_eq!(
        copy.restore(&saved[..2]),
        Err(VecEnvError::WrongStateCount {
            expected: 5,
            found: 2
        })
    );
    copy.restore(&saved).unwrap();
    assert_eq!(copy.obs(), venv.obs());
    assert_eq!(copy.mask_bits(), venv.mask_bits());
    for _ in 0..40 {
        venv.step(&last_legal(&venv)).unwrap();
        copy.step(&last_legal(&copy)).unwrap();
        assert_eq!(copy.obs(), venv.obs());
        assert_eq!(copy.rewards(), venv.rewards());
        assert_eq!(copy.episodes(), venv.episodes());
    }
}
