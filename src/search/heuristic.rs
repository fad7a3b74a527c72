//! The static evaluation of the alpha-beta player: a weighted sum of features, seen from the
//! player to move. Every weight is in the same unit (think of 10 as "one seed in the front row")
//! and can be changed, e.g. from a JSON file: `{"mobility": 0, "house_owned": 50}` (missing
//! fields keep their defaults).

use crate::rules::variant::{House, Sowing};
use crate::rules::{MoveList, Pit, Position, Rules, Side};
use serde::{Deserialize, Serialize};

/// Weights of the evaluation features. The evaluation is
/// `features(mover) - features(opponent) + mover-only terms`, where the per-side features are
/// the seed counts, front-row safety and the house, and the mover-only terms are mobility, the
/// best capture the mover has now, and the biggest of the mover's pits the opponent threatens.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HeuristicWeights {
    /// Per seed in a player's front row (seeds there capture and are captured).
    pub front_seed: i32,
    /// Per seed in a player's back row (safe, but they neither capture nor defend the front).
    pub back_seed: i32,
    /// Per seed in a player's store (still to be planted in the namua stage).
    pub store_seed: i32,
    /// Front-row safety: per occupied front pit (a spread front row is hard to empty).
    pub front_occupied: i32,
    /// Front-row safety: penalty for a front row close to empty, times `(3 - occupied)^2` when
    /// fewer than 3 front pits are occupied (only where an empty front row loses).
    pub front_danger: i32,
    /// Per seed in the biggest of the mover's pits the opponent could capture with its next move
    /// (counted as a penalty; a static look at the opponent's capture starts).
    pub under_attack: i32,
    /// Per opponent seed taken by the mover's best capture now (from the generated moves).
    pub capture_now: i32,
    /// A player still owns its house (nyumba or kuu).
    pub house_owned: i32,
    /// A player's owned nyumba is valid (holds at least its threshold of seeds, 6 in Bao la
    /// Kiswahili).
    pub house_valid: i32,
    /// Per legal move of the mover (exact; costs a move generation at every leaf, like
    /// `capture_now`: set both to 0 for a faster, cruder search).
    pub mobility: i32,
    /// Bonus for having the move.
    pub tempo: i32,
    /// Scale of the conversion to an expected score: an evaluation `e` maps to `tanh(e / scale)`.
    pub scale: f32,
}

impl Default for HeuristicWeights {
    fn default() -> Self {
        HeuristicWeights {
            front_seed: 10,
            back_seed: 8,
            store_seed: 9,
            front_occupied: 4,
            front_danger: 30,
            under_attack: 4,
            capture_now: 6,
            house_owned: 25,
            house_valid: 15,
            mobility: 1,
            tempo: 5,
            scale: 300.0,
        }
    }
}

/// Largest evaluation magnitude; scores beyond it are wins and losses.
const EVAL_LIMIT: i32 = 20_000;

/// The score of a win at the root; a win `n` plies away scores `WIN - n`.
pub const WIN: i32 = 30_000;
/// Scores at least this big (in absolute value) are proven wins or losses.
pub const WIN_BOUND: i32 = WIN - 1_000;

impl HeuristicWeights {
    /// Whether the evaluation needs the leaf's legal moves (mobility or the mover's captures).
    pub(crate) fn needs_moves(&self) -> bool {
        self.mobility != 0 || self.capture_now != 0
    }

    /// The expected score for the mover in [-1, 1] of an evaluation.
    pub(crate) fn to_expected(&self, eval: i32) -> f32 {
        (eval as f32 / self.scale.max(1e-3)).tanh()
    }

    /// The evaluation of `pos` for the player to move. `moves` are its legal moves (used for
    /// mobility and the best capture; pass `None` to skip those terms).
    pub fn evaluate(&self, rules: &Rules, pos: &Position, moves: Option<&MoveList>) -> i32 {
        let me = pos.side_to_move();
        let opp = me.opponent();
        let mut e = self.side_terms(rules, pos, me) - self.side_terms(rules, pos, opp) + self.tempo;
        if let Some(list) = moves {
            e += self.mobility * list.len() as i32;
            if self.capture_now != 0 {
                let before = seeds16(pos.pits(opp));
                let best = list
                    .children()
                    .iter()
                    .map(|c| before.saturating_sub(seeds16(c.pits(opp))))
                    .max()
                    .unwrap_or(0);
                e += self.capture_now * best as i32;
            }
        }
        if self.under_attack != 0 {
            e -= self.under_attack * max_threat(rules, pos, opp) as i32;
        }
        e.clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// The features of one side.
    #[inline]
    fn side_terms(&self, rules: &Rules, pos: &Position, side: Side) -> i32 {
        let pits = pos.pits(side);
        let front = seeds8(&pits[..8]) as i32;
        let back = seeds8(&pits[8..]) as i32;
        let occupied = pits[..8].iter().filter(|&&n| n > 0).count() as i32;
        let mut e = self.front_seed * front
            + self.back_seed * back
            + self.store_seed * pos.store(side) as i32
            + self.front_occupied * occupied;
        if rules.empty_front_row_loses && occupied < 3 {
            e -= self.front_danger * (3 - occupied) * (3 - occupied);
        }
        if pos.house_owned(side) {
            e += self.house_owned;
            if let House::Nyumba(n) = &rules.house
                && pits[Pit::HOUSE.index()] >= n.valid_from
            {
                e += self.house_valid;
            }
        }
        e
    }
}

#[inline]
fn seeds16(pits: &[u8; 16]) -> u32 {
    pits.iter().map(|&n| n as u32).sum()
}

#[inline]
fn seeds8(pits: &[u8]) -> u32 {
    pits.iter().map(|&n| n as u32).sum()
}

/// The most seeds in one of the defender's pits that `attacker` could capture if it were to
/// move: a static look at the first sowing of each capture start (the planting captures of the
/// namua stage, or the lifts of the mtaji stage), ignoring takasia and later relays.
fn max_threat(rules: &Rules, pos: &Position, attacker: Side) -> u8 {
    if !rules.captures {
        return 0;
    }
    let a = pos.pits(attacker);
    let d = pos.pits(attacker.opponent());
    let mut best = 0u8;
    if pos.store(attacker) > 0 && pos.opening_phase() == 0 {
        if rules.planting.captures {
            for r in 0..8 {
                if a[r] > 0 {
                    best = best.max(d[7 - r]);
                }
            }
        }
        return best;
    }
    let max_lift = rules.max_capture_lift.unwrap_or(u8::MAX);
    let (cw, acw) = match rules.sowing {
        Sowing::Both => (true, true),
        Sowing::Clockwise => (true, false),
        Sowing::Anticlockwise => (false, true),
    };
    for (p, &n) in a.iter().enumerate() {
        if n < rules.min_lift || n > max_lift {
            continue;
        }
        let laps = n as usize / 16;
        for (ok, step) in [(cw, n as usize), (acw, 16 - (n as usize % 16))] {
            if !ok {
                continue;
            }
            let end = (p + step) % 16;
            if end >= 8 {
                continue;
            }
            let after = if end == p {
                laps
            } else {
                a[end] as usize + laps + 1
            };
            let facing = d[7 - end];
            if after > 1 && facing > 0 {
                let mut take = facing;
                if rules.capture_back_row {
                    take = take.saturating_add(d[15 - (7 - end)]);
                }
                best = best.max(take);
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    #[test]
    fn the_start_is_balanced_apart_from_the_move() {
        let rules = Variant::Kiswahili.rules();
        let pos = Position::start(&rules);
        let w = HeuristicWeights {
            mobility: 0,
            capture_now: 0,
            under_attack: 0,
            ..HeuristicWeights::default()
        };
        assert_eq!(w.evaluate(&rules, &pos, None), w.tempo);
    }

    #[test]
    fn threats_are_seen_in_both_stages() {
        let rules = Variant::Kiswahili.rules();
        // Nothing faces anything at the start.
        let pos = Position::start(&rules);
        assert_eq!(max_threat(&rules, &pos, Side::North), 0);
        // Namua: South's A5 (6 seeds) faces a4 (6 seeds): each threatens the other.
        let pos = Position::from_text(
            "0,0,0,0,0,0,0,0/0,2,2,0,6,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 22,22 H - - 0",
            &rules,
        )
        .unwrap();
        assert_eq!(max_threat(&rules, &pos, Side::North), 6);
        assert_eq!(max_threat(&rules, &pos, Side::South), 6);
        // Mtaji: South A6 holds 2; sowing right ends in A8 (1 seed) facing a1 (3 seeds).
        // A hand-made study with few seeds: built without the gate's seed count.
        let pos = Position::from_setup_unchecked(
            "0,0,0,0,0,0,0,4/0,0,0,0,0,0,0,3/0,0,0,0,0,2,0,1/0,0,0,0,0,0,0,4 S 0,0 - - - 40"
                .parse()
                .unwrap(),
        );
        assert_eq!(max_threat(&rules, &pos, Side::South), 3);
        assert_eq!(max_threat(&rules, &pos, Side::North), 0);
    }

    #[test]
    fn weights_read_from_json_keep_missing_defaults_and_reject_typos() {
        let w: HeuristicWeights = serde_json::from_str(r#"{"mobility": 0}"#).unwrap();
        assert_eq!(w.mobility, 0);
        assert_eq!(w.front_seed, HeuristicWeights::default().front_seed);
        assert!(serde_json::from_str::<HeuristicWeights>(r#"{"mobilty": 0}"#).is_err());
    }
}
