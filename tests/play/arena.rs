//! The arena, Elo and SPRT arithmetic, gauntlets and the command-line entry points.

use bao_zero::cli::eval_cmds::{EvalArgs, GauntletArgs, run_eval, run_gauntlet_cmd};
use bao_zero::cli::play_cmd::{PlayArgs, run_play};
use bao_zero::eval::arena::{GameEnd, MatchConfig, run_match};
use bao_zero::eval::elo::{ScoreEstimate, elo_from_score, pentanomial, score_from_elo, trinomial};
use bao_zero::eval::gauntlet::{GauntletConfig, Pairing, run_gauntlet};
use bao_zero::eval::sprt::{SprtConfig, Verdict, llr};
use bao_zero::notation::Record;
use bao_zero::players::{Limits, PlayerRegistry, PlayerSpec};
use bao_zero::rules::{Game, Position, Side, Variant};
use clap::Parser;
use std::sync::atomic::{AtomicUsize, Ordering};

fn spec(s: &str) -> PlayerSpec {
    s.parse().unwrap()
}

fn quick_match(a: &str, b: &str, games: usize, seed: u64) -> MatchConfig {
    MatchConfig {
        games,
        seed,
        max_plies: 200,
        progress: false,
        ..MatchConfig::new(spec(a), spec(b), Variant::Kiswahili)
    }
}

#[test]
fn alpha_beta_depth_3_beats_random() {
    let r = run_match(&quick_match("ab:depth=3,tt=16", "random", 200, 1)).unwrap();
    assert_eq!(r.games, 200);
    assert!(r.wins >= 190, "{}", r.summary());
    assert!(r.estimate.elo > 300.0);
}

#[test]
fn elo_arithmetic_matches_worked_values() {
    // 0.75 = 1/(1 + 10^(-e/400))  =>  e = 400 log10(3) = 190.85.
    assert!((elo_from_score(0.75) - 190.85).abs() < 0.005);
    assert!((score_from_elo(-190.85) - 0.25).abs() < 1e-5);
    // 30 wins, 20 draws, 10 losses: mean 0.6667; per-game variance
    // (30 (1/3)^2 + 20 (1/6)^2 + 10 (2/3)^2) / 60 = 0.13889 against the binomial 2/9, so the
    // draws make the match worth 60 x (2/9) / 0.13889 = 96 decisive games; Wilson's interval
    // for 2/3 of 96: [0.567565, 0.752943].
    let e = ScoreEstimate::from_wdl(30, 20, 10);
    assert!((e.score - 2.0 / 3.0).abs() < 1e-12);
    assert!((e.score_low - 0.567565).abs() < 1e-5, "{e:?}");
    assert!((e.score_high - 0.752943).abs() < 1e-5, "{e:?}");
    assert!((e.elo - 120.41).abs() < 0.01, "{e:?}"); // 400 log10(2)
    assert!(e.elo_low < e.elo && e.elo < e.elo_high);
    // A perfect score: the point estimate stays finite (half a game is moved to the other
    // side), the text gives the bound, and Wilson's lower end for 10 of 10 is 0.722467.
    let p = ScoreEstimate::from_wdl(10, 0, 0);
    assert!((p.elo - elo_from_score(0.95)).abs() < 1e-9);
    assert!((p.score_low - 0.722467).abs() < 1e-5, "{p:?}");
    assert_eq!(p.elo_text(), "> +166");
    // Pairs: 10 pairs of 1.5 points and 10 of 0.5: mean 0.5, Elo 0.
    let q = ScoreEstimate::from_pairs(&[0, 10, 0, 10, 0]);
    assert_eq!(q.score, 0.5);
    assert_eq!(q.elo, 0.0);
}

#[test]
fn sprt_llr_matches_a_worked_example() {
    // Trinomial, 60 wins, 20 draws, 20 losses (N = 100), elo0 = 0, elo1 = 10:
    //   s0 = 0.5, s1 = 1/(1 + 10^(-10/400)) = 0.514387
    //   r0 = 0.6 (1 - 0.5)^2 + 0.2 (0.5 - 0.5)^2 + 0.2 (0 - 0.5)^2 = 0.2
    //   r1 = 0.6 (0.485613)^2 + 0.2 (0.014387)^2 + 0.2 (0.514387)^2 = 0.194452
    //   LLR = N/2 ln(r0/r1) = 50 ln(1.028532) = 1.40657
    let s0 = score_from_elo(0.0);
    let s1 = score_from_elo(10.0);
    assert!((s1 - 0.514387).abs() < 1e-6);
    let x = llr(&trinomial(60, 20, 20), s0, s1);
    assert!((x - 1.40657).abs() < 1e-4, "{x}");
    // Pentanomial, pairs with 0, 1/2, 1, 3/2, 2 points: 5, 10, 20, 10, 15 (N = 60 pairs, pair
    // scores 0, 1/4, 1/2, 3/4, 1; mean 0.58333):
    //   r0 = (5 (0.5)^2 + 10 (0.25)^2 + 0 + 10 (0.25)^2 + 15 (0.5)^2) / 60 = 0.104167
    //   r1 = sum of c (x - 0.514387)^2 / 60 = 0.101976
    //   LLR = 30 ln(0.104167 / 0.101976) = 0.63770
    let y = llr(&pentanomial(&[5, 10, 20, 10, 15]), s0, s1);
    assert!((y - 0.63770).abs() < 1e-4, "{y}");
    // Bounds for alpha = beta = 0.05: ln(0.05/0.95) = -2.944, ln(0.95/0.05) = +2.944.
    let cfg: SprtConfig = "0,10,0.05,0.05".parse().unwrap();
    let (lo, hi) = cfg.bounds();
    assert!((lo + 2.944439).abs() < 1e-5 && (hi - 2.944439).abs() < 1e-5);
    assert_eq!(
        cfg.evaluate(&trinomial(60, 20, 20), "trinomial").verdict,
        Verdict::Continue
    );
    assert_eq!(
        cfg.evaluate(&trinomial(600, 200, 200), "trinomial").verdict,
        Verdict::H1
    );
    assert_eq!(
        cfg.evaluate(&trinomial(200, 200, 600), "trinomial").verdict,
        Verdict::H0
    );
    for bad in ["10,0,0.05,0.05", "0,10,0.7,0.05", "0,x", "1,2,3"] {
        assert!(bad.parse::<SprtConfig>().is_err(), "{bad}");
    }
}

#[test]
fn same_seed_same_games_and_pairs_share_their_opening() {
    let cfg = quick_match("ab:depth=2,tt=12", "greedy", 6, 42);
    let x = run_match(&cfg).unwrap();
    let y = run_match(&cfg).unwrap();
    assert_eq!(x.game_list, y.game_list);
    let z = run_match(&MatchConfig {
        seed: 43,
        ..cfg.clone()
    })
    .unwrap();
    assert_ne!(x.records(), z.records());
    let rules = Game::from(Variant::Kiswahili);
    let start = Position::start(&rules);
    for pair in x.game_list.chunks(2) {
        assert!(pair[0].a_is_south && !pair[1].a_is_south);
        assert_eq!(pair[0].south, pair[1].north);
        let openings: Vec<Vec<_>> = pair
            .iter()
            .map(|g| {
                let rec: Record = g.record.parse().unwrap();
                assert_eq!(rec.tag("Variant"), Some("kiswahili"));
                assert_eq!(rec.tag("South"), Some(g.south.as_str()));
                assert_eq!(rec.tag("North"), Some(g.north.as_str()));
                // The record replays from the start to the result it states.
                let (moves, positions) = rec.replay(&rules, &start).unwrap();
                assert_eq!(moves.len(), g.plies);
                let last = positions.last().unwrap();
                let result = rec.tag("Result").unwrap();
                match last.outcome(&rules) {
                    Some(o) => assert_eq!(
                        result.split(' ').next().unwrap(),
                        match o.winner {
                            Some(Side::South) => "S",
                            Some(Side::North) => "N",
                            None => "draw",
                        }
                    ),
                    None => assert_eq!(result, "draw max-plies"),
                }
                moves[..4].to_vec()
            })
            .collect();
        assert_eq!(openings[0], openings[1]);
    }
}

#[test]
fn the_ply_cap_makes_draws_and_an_odd_count_leaves_a_single_game() {
    let r = run_match(&MatchConfig {
        max_plies: 8,
        ..quick_match("random", "random", 5, 3)
    })
    .unwrap();
    assert_eq!(r.games, 5);
    assert_eq!(r.model, "trinomial");
    assert!(
        r.game_list
            .iter()
            .all(|g| g.end == GameEnd::MaxPlies && g.plies == 8)
    );
    assert_eq!(r.draws, 5);
    assert_eq!(r.estimate.score, 0.5);
}

#[test]
fn an_sprt_stops_a_lopsided_match_early() {
    let r = run_match(&MatchConfig {
        sprt: Some("0,100,0.05,0.05".parse().unwrap()),
        batch_pairs: 4,
        ..quick_match("ab:depth=2,tt=12", "random", 400, 5)
    })
    .unwrap();
    let t = r.sprt.unwrap();
    assert_eq!(t.verdict, Verdict::H1, "{}", r.summary());
    assert_eq!(t.model, "pentanomial");
    assert!(r.stopped_early && r.games < 400 && r.games.is_multiple_of(8));
    assert_eq!(r.pentanomial.iter().sum::<u64>() * 2, r.games as u64);
}

#[test]
fn a_gauntlet_orders_players_on_one_scale() {
    let cfg = GauntletConfig {
        players: vec![spec("random"), spec("greedy"), spec("ab:depth=3,tt=12")],
        registry: PlayerRegistry::classical(),
        anchor: 0,
        pairing: Pairing::RoundRobin,
        game: Variant::Kiswahili.into(),
        variant: "kiswahili".into(),
        start: None,
        games_per_pair: 20,
        seed: 9,
        opening_plies: 4,
        max_plies: 200,
        limits: Limits::NONE,
        prior_draws: 1.0,
        progress: false,
        labels: Vec::new(),
    };
    let r = run_gauntlet(&cfg).unwrap();
    assert_eq!(r.matches.len(), 3);
    let elo = |name: &str| r.ratings.iter().find(|x| x.name == name).unwrap().clone();
    assert_eq!(elo("random").elo, 0.0);
    assert!(
        elo("ab:depth=3,tt=12").elo > elo("random").elo + 200.0,
        "{}",
        r.table()
    );
    for x in &r.ratings {
        assert!(x.elo_low <= x.elo && x.elo <= x.elo_high);
        assert_eq!(x.games, 40);
    }
    let anchors = run_gauntlet(&GauntletConfig {
        pairing: Pairing::VsAnchors(vec![0]),
        ..cfg
    })
    .unwrap();
    assert_eq!(anchors.matches.len(), 2);
}

#[derive(Parser)]
struct Cmd {
    #[command(subcommand)]
    sub: Sub,
}

#[derive(clap::Subcommand)]
enum Sub {
    Eval(EvalArgs),
    Gauntlet(GauntletArgs),
    Play(PlayArgs),
}

fn run(args: &[&str]) -> anyhow::Result<()> {
    let cmd = Cmd::try_parse_from(std::iter::once("bao").chain(args.iter().copied()))?;
    match cmd.sub {
        Sub::Eval(a) => run_eval(a, &PlayerRegistry::classical()),
        Sub::Gauntlet(a) => run_gauntlet_cmd(a, &PlayerRegistry::classical()),
        Sub::Play(a) => run_play(a, &PlayerRegistry::classical()),
    }
}

#[test]
fn command_lines_run_and_reject_bad_input() {
    let dir = std::env::temp_dir().join(format!("bao-arena-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let records = dir.join("games.kiba");
    let records_s = records.to_str().unwrap();
    run(&[
        "eval",
        "--a",
        "ab:depth=2,tt=12",
        "--b",
        "greedy",
        "--variant",
        "kujifunza",
        "--games",
        "4",
        "--seed",
        "1",
        "--opening-plies",
        "2",
        "--max-plies",
        "100",
        "--sprt",
        "0,50,0.05,0.05",
        "--records",
        records_s,
        "--json",
        "-q",
    ])
    .unwrap();
    let text = std::fs::read_to_string(&records).unwrap();
    assert_eq!(text.matches("[Variant \"kujifunza\"]").count(), 4);
    run(&[
        "gauntlet",
        "--player",
        "random",
        "greedy",
        "--games",
        "2",
        "--max-plies",
        "60",
        "-q",
    ])
    .unwrap();
    run(&[
        "play",
        "--south",
        "ab:depth=2,tt=12",
        "--north",
        "random",
        "--variant",
        "hus",
        "--max-plies",
        "20",
        "--no-board",
    ])
    .unwrap();
    let help = run(&["eval", "--help"]).unwrap_err().to_string();
    for flag in [
        "--a",
        "--b",
        "--variant",
        "--games",
        "--seed",
        "--opening-plies",
        "--sprt",
    ] {
        assert!(help.contains(flag), "{flag} missing from\n{help}");
    }
    let e = run(&["eval", "--a", "ab:depth=x", "--b", "random"]).unwrap_err();
    assert!(e.to_string().contains("accepted forms"), "{e}");
    let e = run(&["eval", "--a", "ab", "--b", "random", "--variant", "chess"]).unwrap_err();
    assert!(e.to_string().contains("kiswahili"), "{e}");
    let e = run(&["eval", "--a", "ab", "--b", "random", "--sprt", "5,1"]).unwrap_err();
    assert!(e.to_string().contains("elo0"), "{e}");
    let e = run(&["eval", "--a", "ab", "--b", "random", "--games", "0"]).unwrap_err();
    assert!(e.to_string().contains("at least one game"), "{e}");
    let e = run(&["gauntlet", "--player", "random", "--anchor", "greedy"]).unwrap_err();
    assert!(e.to_string().contains("not one of"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn matches_run_and_record_on_every_preset() {
    for v in Variant::ALL {
        let r = run_match(&MatchConfig {
            games: 2,
            max_plies: 120,
            progress: false,
            ..MatchConfig::new(spec("ab:depth=2,tt=12"), spec("greedy"), v)
        })
        .unwrap();
        let rules = Game::from(v);
        for g in &r.game_list {
            let rec: Record = g.record.parse().unwrap();
            let (moves, _) = rec
                .replay(&rules, &Position::start(&rules))
                .unwrap_or_else(|e| panic!("{v}: {e}\n{}", g.record));
            assert_eq!(moves.len(), g.plies, "{v}");
        }
    }
}

/// A player that fails on its third move.
struct FailsOnItsThirdMove(Game, usize);

impl bao_zero::players::Player for FailsOnItsThirdMove {
    fn name(&self) -> String {
        "fails".into()
    }

    fn game(&self) -> &Game {
        &self.0
    }

    fn choose(
        &mut self,
        pos: &Position,
        limits: &Limits,
    ) -> anyhow::Result<bao_zero::players::Choice> {
        self.1 += 1;
        anyhow::ensure!(self.1 < 3, "no third move");
        bao_zero::players::GreedyPlayer::new(&self.0, 0).choose(pos, limits)
    }
}

#[test]
fn a_players_first_error_ends_the_match() {
    let built = std::sync::Arc::new(AtomicUsize::new(0));
    let mut players = PlayerRegistry::classical();
    let counted = built.clone();
    players.register("fails", move |_, _, rules, _| {
        counted.fetch_add(1, Ordering::Relaxed);
        Ok(Box::new(FailsOnItsThirdMove(rules.clone(), 0)))
    });
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let cfg = MatchConfig {
        players,
        ..quick_match("fails", "random", 400, 1)
    };
    let err = pool.install(|| run_match(&cfg)).unwrap_err();
    assert!(format!("{err:#}").contains("no third move"), "{err:#}");
    // The player built for the check plays the first game, which fails: no other game starts
    // (it would build a player, the one that failed being dropped).
    assert_eq!(built.load(Ordering::Relaxed), 1);
}
