//! Monte Carlo tree search (PUCT, as in AlphaZero) guided by an inference: the network, or a
//! stand-in.
//!
//! The tree works on engine positions and moves; an [`Inference`] turns a batch of positions into
//! move priors and values, so the network (or a uniform stand-in) is one implementation among
//! others and many games can share one batched evaluation (see `selfplay`).

mod batch;
mod cache;
mod config;
mod model;
mod player;
mod settings;
mod split;
mod tree;

pub use batch::LeafBatch;
pub use cache::EvalCache;
pub use config::SelfPlaySearch;
pub use model::OpponentModel;
pub use player::{MAX_BATCH, MAX_BATCH_OPTION, MctsPlayer};
pub use settings::{MAX_C_PUCT, MAX_SIMS, PLAY_C_PUCT, PlaySettings};
pub use split::SplitInference;
pub use tree::{Leaf, Tree};

use crate::rules::{Move, Position, Rules};

/// One position to evaluate, with its legal moves.
#[derive(Clone, Copy, Debug)]
pub struct InferenceRequest<'a> {
    /// The position (not terminal).
    pub pos: &'a Position,
    /// Its legal moves, in the order the priors are wanted.
    pub moves: &'a [Move],
}

/// Turns positions into priors over their legal moves and values for the player to move.
pub trait Inference: Send + Sync {
    /// Appends to `priors` one probability per legal move of each request (in request order,
    /// each request's priors summing to 1) and to `values` one expected score in [-1, 1] for the
    /// player to move of each request.
    fn infer(
        &self,
        rules: &Rules,
        batch: &[InferenceRequest<'_>],
        priors: &mut Vec<f32>,
        values: &mut Vec<f32>,
    );
}

/// Uniform priors and value 0: pure search, for tests and as a baseline.
#[derive(Clone, Copy, Debug, Default)]
pub struct UniformInference;

impl Inference for UniformInference {
    fn infer(
        &self,
        _: &Rules,
        batch: &[InferenceRequest<'_>],
        priors: &mut Vec<f32>,
        values: &mut Vec<f32>,
    ) {
        for r in batch {
            let p = 1.0 / r.moves.len().max(1) as f32;
            priors.extend(std::iter::repeat_n(p, r.moves.len()));
            values.push(0.0);
        }
    }
}

/// Runs a whole search on one tree with batch size 1, with self-play's root noise (and forced
/// playouts) once the root is expanded; self-play itself batches many trees.
pub fn search(
    tree: &mut Tree,
    rules: &Rules,
    eval: &dyn Inference,
    cfg: &SelfPlaySearch,
    sims: u32,
    rng: &mut impl rand::Rng,
) {
    let mut batch = LeafBatch::default();
    let mut noised = false;
    while tree.root_visits() < sims.max(1) {
        if let Leaf::Eval(leaf) = tree.select(rules, &cfg.play) {
            batch.clear();
            batch.push(tree, leaf);
            batch.infer(rules, eval, None, |_, priors, value| {
                tree.expand(leaf, priors, value)
            });
        }
        if !noised && tree.root_expanded() {
            tree.add_root_noise(cfg, rng);
            noised = true;
        }
        if tree.root_is_decided() {
            break;
        }
    }
}

/// One round of a batched search on a single tree: gathers up to `batch` leaves under virtual
/// loss (and at most `max_sims` simulations with the terminal ones: the node budget left),
/// answers those in `cache` from it and the rest with one call to `eval`, and backs them all
/// up. Returns the number of positions the inference saw.
#[allow(clippy::too_many_arguments)]
pub(crate) fn search_round(
    tree: &mut Tree,
    rules: &Rules,
    eval: &dyn Inference,
    cfg: &PlaySettings,
    batch: usize,
    max_sims: usize,
    cache: &mut EvalCache,
    leaves: &mut LeafBatch,
) -> usize {
    let batch = batch.max(1);
    tree.gather(rules, cfg, batch, batch, max_sims.max(1));
    leaves.clear();
    for &leaf in tree.gathered() {
        leaves.push(tree, leaf);
    }
    let evaluated = leaves.infer(rules, eval, Some(cache), |k, priors, value| {
        tree.deliver(k, priors, value)
    });
    tree.end_gather();
    evaluated
}

/// A made-up inference for tests whose answers depend on the position, so that answers handed to
/// the wrong leaves change the search.
#[cfg(test)]
pub(crate) struct Stamped;

#[cfg(test)]
impl Inference for Stamped {
    fn infer(
        &self,
        _: &Rules,
        batch: &[InferenceRequest<'_>],
        priors: &mut Vec<f32>,
        values: &mut Vec<f32>,
    ) {
        for r in batch {
            let seeds: usize = r.pos.pits(r.pos.side_to_move())[..4]
                .iter()
                .map(|&n| n as usize)
                .sum();
            let stamp = seeds + usize::from(r.pos.ply());
            let weights: Vec<f32> = (0..r.moves.len())
                .map(|i| ((i * 7 + stamp) % 5 + 1) as f32)
                .collect();
            let total: f32 = weights.iter().sum();
            priors.extend(weights.iter().map(|w| w / total));
            values.push((stamp % 9) as f32 / 4.0 - 1.0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Side, Variant};
    use rand::SeedableRng;

    /// Bao la Kujifunza with captures made optional, so that a non-winning move exists: A3<
    /// captures North's last front seed (a8) and wins; A3> is a takata.
    /// Nearly all the prior on each position's first move, value 0: a search that PUCT alone
    /// spends almost entirely on one child.
    struct PeakedInference;

    impl Inference for PeakedInference {
        fn infer(
            &self,
            _: &Rules,
            batch: &[InferenceRequest<'_>],
            priors: &mut Vec<f32>,
            values: &mut Vec<f32>,
        ) {
            for r in batch {
                let n = r.moves.len();
                let rest = if n > 1 { 0.05 / (n - 1) as f32 } else { 0.0 };
                priors.push(if n > 1 { 0.95 } else { 1.0 });
                priors.extend(std::iter::repeat_n(rest, n.saturating_sub(1)));
                values.push(0.0);
            }
        }
    }

    /// A full search of `sims` from the Kiswahili start with noise, and its config.
    fn noised_search(forced_playouts: f32, sims: u32) -> (Tree, SelfPlaySearch) {
        let rules = Variant::Kiswahili.rules();
        let mut tree = Tree::new(Position::start(&rules));
        // A small exploration constant: PUCT alone would hardly leave the first move.
        let cfg = SelfPlaySearch {
            forced_playouts,
            play: PlaySettings {
                c_puct: 0.1,
                ..PlaySettings::default()
            },
            ..SelfPlaySearch::default()
        };
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        search(&mut tree, &rules, &PeakedInference, &cfg, sims, &mut rng);
        (tree, cfg)
    }

    #[test]
    fn forced_playouts_give_every_noised_root_child_its_share_of_visits() {
        let sims = 800;
        let short = |tree: &Tree| {
            tree.root_priors_and_visits()
                .iter()
                .filter(|&&(prior, visits)| {
                    ((visits + 2) as f32) < (2.0 * prior * sims as f32).sqrt()
                })
                .count()
        };
        let (forced, _) = noised_search(2.0, sims);
        assert_eq!(short(&forced), 0, "{:?}", forced.root_priors_and_visits());
        // Without them, PUCT leaves some children below that share: the check can fail.
        let (plain, _) = noised_search(0.0, sims);
        assert!(short(&plain) > 0, "{:?}", plain.root_priors_and_visits());
    }

    #[test]
    fn policy_target_pruning_takes_back_forced_visits_but_not_the_best_moves() {
        let (tree, cfg) = noised_search(2.0, 800);
        let raw = tree.root_visits_by_move();
        let pruned = tree.pruned_root_visits(&cfg.play);
        let top = raw.iter().map(|x| x.1).max().unwrap();
        assert_eq!(raw.len(), pruned.len());
        for ((mv, n), (pmv, p)) in raw.iter().zip(&pruned) {
            assert_eq!(mv, pmv);
            assert!(p <= n, "{p} > {n}");
            assert_ne!(*p, 1, "a child left with one visit is dropped");
            if *n == top {
                assert_eq!(p, n, "the most visited move keeps its visits");
            }
        }
        let (sum_raw, sum_pruned) = (
            raw.iter().map(|x| x.1).sum::<u32>(),
            pruned.iter().map(|x| x.1).sum::<u32>(),
        );
        assert!(sum_pruned < sum_raw, "{sum_pruned} vs {sum_raw}");
        // Without forced playouts the target is the visits as they are.
        let (plain, cfg) = noised_search(0.0, 800);
        assert_eq!(
            plain.pruned_root_visits(&cfg.play),
            plain.root_visits_by_move()
        );
    }

    fn capture_that_wins_at_once() -> (Rules, Position) {
        let rules = Rules {
            mandatory_capture: false,
            ..Variant::Kujifunza.rules()
        };
        let pos = Position::from_setup_unchecked(
            "0,0,0,0,0,0,0,5/1,0,0,0,0,0,0,0/1,0,2,0,0,0,0,0/0,0,0,0,0,0,2,0 S 0,0 - - - 40"
                .parse()
                .unwrap(),
        );
        (rules, pos)
    }

    #[test]
    fn uniform_search_finds_the_capture_that_wins_at_once() {
        let (rules, pos) = capture_that_wins_at_once();
        let mut list = crate::rules::MoveList::new();
        pos.legal_moves(&rules, &mut list);
        assert_eq!(
            crate::notation::legal_strings(&list, pos.side_to_move()),
            ["A3<", "A3>"]
        );
        let mut tree = Tree::new(pos);
        let cfg = SelfPlaySearch {
            dirichlet_epsilon: 0.0,
            ..SelfPlaySearch::default()
        };
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        search(&mut tree, &rules, &UniformInference, &cfg, 200, &mut rng);
        assert_eq!(
            crate::notation::move_text(tree.best_move().unwrap(), pos.side_to_move()),
            "A3<"
        );
        assert!(tree.root_value() > 0.9, "root value {}", tree.root_value());
    }

    #[test]
    fn batched_rounds_undo_every_virtual_loss() {
        let rules = Variant::Kiswahili.rules();
        let mut tree = Tree::new(Position::start(&rules));
        let cfg = PlaySettings::default();
        let (mut cache, mut buf) = (EvalCache::new(10), LeafBatch::default());
        // Searches in batches of 16 until the root has `visits`; returns the leaves evaluated.
        let mut search_to = |tree: &mut Tree, visits: u32| {
            let mut evaluated = 0;
            while tree.root_visits() < visits {
                evaluated += search_round(
                    tree,
                    &rules,
                    &UniformInference,
                    &cfg,
                    16,
                    usize::MAX,
                    &mut cache,
                    &mut buf,
                );
            }
            evaluated
        };
        let evaluated = search_to(&mut tree, 300);
        tree.assert_consistent(true);
        assert!(evaluated > 0 && evaluated <= 300);
        // Re-rooting two plies down keeps a consistent subtree.
        let pv = tree.pv(2);
        let mut pos = *tree.root();
        for &mv in &pv {
            pos = pos.play(&rules, mv).unwrap();
        }
        assert!(tree.reroot_to(&pos, 2));
        assert_eq!(*tree.root(), pos);
        tree.assert_consistent(true);
        // Again, now copying into the storage the first re-rooting left spare: the child keeps
        // every visit it had.
        search_to(&mut tree, 600);
        let (mv, visits) = tree.root_visits_by_move()[0];
        let child = tree.root().play(&rules, mv).unwrap();
        assert!(tree.reroot_to(&child, 1));
        assert_eq!((*tree.root(), tree.root_visits()), (child, visits));
        tree.assert_consistent(true);
    }

    #[test]
    fn a_batched_search_finds_the_capture_that_wins_at_once() {
        let (rules, pos) = capture_that_wins_at_once();
        let mut tree = Tree::new(pos);
        let cfg = PlaySettings::default();
        let (mut cache, mut buf) = (EvalCache::new(0), LeafBatch::default());
        while tree.root_visits() < 200 && !tree.root_is_terminal() {
            search_round(
                &mut tree,
                &rules,
                &UniformInference,
                &cfg,
                8,
                usize::MAX,
                &mut cache,
                &mut buf,
            );
        }
        tree.assert_consistent(false);
        assert_eq!(
            crate::notation::move_text(tree.best_move().unwrap(), pos.side_to_move()),
            "A3<"
        );
        assert!(tree.root_value() > 0.9, "root value {}", tree.root_value());
    }

    #[test]
    fn values_are_backed_up_with_the_right_sign_for_each_player() {
        // North to move in the mirror of the position above: the winning capture is a3<.
        let rules = Rules {
            mandatory_capture: false,
            ..Variant::Kujifunza.rules()
        };
        let pos = Position::from_setup_unchecked(
            "0,2,0,0,0,0,0,0/0,0,0,0,0,2,0,1/0,0,0,0,0,0,0,1/5,0,0,0,0,0,0,0 N 0,0 - - - 41"
                .parse()
                .unwrap(),
        );
        let mut tree = Tree::new(pos);
        let cfg = SelfPlaySearch {
            dirichlet_epsilon: 0.0,
            ..SelfPlaySearch::default()
        };
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2);
        search(&mut tree, &rules, &UniformInference, &cfg, 200, &mut rng);
        assert_eq!(
            crate::notation::move_text(tree.best_move().unwrap(), Side::North),
            "a3<"
        );
        assert!(tree.root_value() > 0.9);
        // Re-rooting keeps the subtree; the new root is the terminal child.
        let mv = tree.best_move().unwrap();
        let next = pos.play(&rules, mv).unwrap();
        tree.advance(mv, &next);
        assert_eq!(*tree.root(), next);
    }

    #[test]
    fn the_solver_proves_the_capture_that_wins_at_once_and_stops_searching() {
        let (rules, pos) = capture_that_wins_at_once();
        let mut tree = Tree::new(pos);
        let cfg = PlaySettings {
            solver: true,
            ..PlaySettings::default()
        };
        let (mut cache, mut buf) = (EvalCache::new(0), LeafBatch::default());
        let mut rounds = 0;
        while !tree.root_is_decided() {
            assert!(rounds < 10, "no proof after {rounds} rounds");
            search_round(
                &mut tree,
                &rules,
                &UniformInference,
                &cfg,
                1,
                usize::MAX,
                &mut cache,
                &mut buf,
            );
            rounds += 1;
        }
        assert_eq!(tree.assert_proofs(), 2, "the root and its winning child");
        assert_eq!(
            crate::notation::move_text(tree.best_move().unwrap(), pos.side_to_move()),
            "A3<"
        );
        assert_eq!(tree.root_value(), 1.0);
    }

    #[test]
    fn implicit_minimax_values_are_the_best_child_for_each_mover_and_find_the_winning_capture() {
        let cfg = SelfPlaySearch {
            play: PlaySettings {
                minimax_weight: 0.5,
                ..PlaySettings::default()
            },
            dirichlet_epsilon: 0.0,
            ..SelfPlaySearch::default()
        };
        // Batched, with re-rooting, on a whole game's worth of positions.
        let rules = Variant::Kiswahili.rules();
        let mut tree = Tree::new(Position::start(&rules));
        let (mut cache, mut buf) = (EvalCache::new(10), LeafBatch::default());
        for _ in 0..20 {
            while tree.root_visits() < 300 && !tree.root_is_terminal() {
                search_round(
                    &mut tree,
                    &rules,
                    &Stamped,
                    &cfg.play,
                    16,
                    usize::MAX,
                    &mut cache,
                    &mut buf,
                );
            }
            tree.assert_consistent(false);
            assert!(tree.assert_minimax() > 100);
            let Some(mv) = tree.best_move() else { break };
            let next = tree.root().play(&rules, mv).unwrap();
            tree.advance(mv, &next);
        }
        // One leaf at a time: the root's minimax value is the win the capture brings.
        let (rules, pos) = capture_that_wins_at_once();
        let mut tree = Tree::new(pos);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        search(&mut tree, &rules, &UniformInference, &cfg, 200, &mut rng);
        tree.assert_minimax();
        assert_eq!(tree.root_minimax(), 1.0);
        assert_eq!(
            crate::notation::move_text(tree.best_move().unwrap(), pos.side_to_move()),
            "A3<"
        );
    }

    #[test]
    fn solver_proofs_are_sound_and_proven_losses_are_never_chosen_in_random_endgames() {
        use rand::RngExt;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let mut list = crate::rules::MoveList::new();
        let (mut proven, mut decided, mut lost_elsewhere) = (0, 0, 0);
        for variant in [Variant::Kujifunza, Variant::Hus, Variant::Kiswahili] {
            let rules = variant.rules();
            for game in 0..12 {
                // A random game; search positions from its last dozen plies.
                let mut line = vec![Position::start(&rules)];
                loop {
                    let pos = line.last().unwrap();
                    pos.legal_moves(&rules, &mut list);
                    if pos.outcome_given(&list).is_some() || line.len() > 300 {
                        break;
                    }
                    let i = rng.random_range(0..list.len());
                    line.push(list.children()[i]);
                }
                let from = line.len().saturating_sub(12);
                for pos in &line[from..line.len() - 1] {
                    let mut tree = Tree::new(*pos);
                    let cfg = PlaySettings {
                        solver: true,
                        ..PlaySettings::default()
                    };
                    let (mut cache, mut buf) = (EvalCache::new(0), LeafBatch::default());
                    while tree.root_visits() < 400 && !tree.root_is_decided() {
                        search_round(
                            &mut tree,
                            &rules,
                            &Stamped,
                            &cfg,
                            8,
                            usize::MAX,
                            &mut cache,
                            &mut buf,
                        );
                    }
                    tree.assert_consistent(false);
                    proven += tree.assert_proofs();
                    let mv = tree.best_move().expect("a move");
                    let value = tree.root_value();
                    if tree.root_is_decided() {
                        decided += 1;
                        assert!(value == 1.0 || value == -1.0, "{variant:?} game {game}");
                    }
                    // The chosen move is not proven lost unless every move is.
                    if value > -1.0 {
                        assert_ne!(tree.root_move_proof(mv), -1, "{variant:?} game {game}");
                    }
                    lost_elsewhere += usize::from(
                        value > -1.0
                            && tree
                                .root_visits_by_move()
                                .iter()
                                .any(|&(m, _)| tree.root_move_proof(m) == -1),
                    );
                }
            }
        }
        eprintln!(
            "{proven} proven nodes, {decided} decided roots, {lost_elsewhere} avoided losses"
        );
        assert!(
            proven > 1000 && decided > 50 && lost_elsewhere > 20,
            "{proven} proven nodes, {decided} decided roots, {lost_elsewhere} avoided losses"
        );
    }
}
