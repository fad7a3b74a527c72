//! Random openings: the few uniformly random plies that start a match's pair of games (so that
//! the players meet in many positions) and, optionally, a share of the self-play games (so that
//! the network learns the unbalanced positions such openings lead to).

use crate::rules::{Move, MoveList, Position, Rules};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

/// Up to `plies` uniformly random plies from `start` that do not end the game. When no such
/// line turns up in 64 tries (a game that ends very early), fewer plies are used.
pub fn random_opening(
    rules: &Rules,
    start: &Position,
    plies: u32,
    rng: &mut ChaCha8Rng,
) -> (Vec<Move>, Position) {
    let mut list = MoveList::new();
    for k in (0..=plies).rev() {
        'attempt: for _ in 0..64 {
            let mut pos = *start;
            let mut moves = Vec::with_capacity(k as usize);
            for _ in 0..k {
                pos.legal_moves(rules, &mut list);
                if list.is_empty() {
                    continue 'attempt;
                }
                let i = rng.random_range(0..list.len());
                moves.push(list.moves()[i]);
                pos = list.children()[i];
            }
            pos.legal_moves(rules, &mut list);
            if !list.is_empty() {
                return (moves, pos);
            }
        }
    }
    (Vec::new(), *start)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;
    use rand::SeedableRng;

    #[test]
    fn a_random_opening_is_a_legal_line_of_the_asked_length_that_leaves_the_game_going() {
        for variant in Variant::ALL {
            let rules = variant.rules();
            let start = Position::start(&rules);
            let mut rng = ChaCha8Rng::seed_from_u64(7);
            let mut list = MoveList::new();
            for plies in [0, 1, 4] {
                let (moves, end) = random_opening(&rules, &start, plies, &mut rng);
                assert_eq!(moves.len(), plies as usize, "{variant:?}");
                let mut pos = start;
                for mv in &moves {
                    pos.legal_moves(&rules, &mut list);
                    pos = *list.find(*mv).expect("each ply is legal");
                }
                assert_eq!(pos, end);
                end.legal_moves(&rules, &mut list);
                assert!(!list.is_empty(), "{variant:?}: the opening ended the game");
            }
        }
    }
}
