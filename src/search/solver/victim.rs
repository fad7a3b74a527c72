//! The victim of a best-response search ([`super::best_response`]): a deterministic player asked
//! for its one move wherever it is to move, its answers kept.
//!
//! A victim is deterministic when its move depends only on its seed and the positions it was
//! asked in this game (its history): a seeded greedy player breaks ties from a generator whose
//! state the earlier moves set, an alpha-beta player may keep a table between moves. Such a victim
//! is asked again along a line by replaying its earlier positions to a fresh one, and its answers
//! are kept by history. Where [`check_determinism`] finds that the history does not matter (a
//! fresh victim and a used one answer alike), answers are kept by position, and transpositions
//! of the search merge.

use crate::players::RandomPlayer;
use crate::players::{Limits, Player};
use crate::rules::{Game, Move, MoveList, Position, Side};
use crate::search::zobrist;
use anyhow::{Context, bail};
use std::collections::HashMap;

/// Builds a fresh victim, seeded as the game it stands for seeds it.
pub type VictimBuilder = dyn FnMut() -> anyhow::Result<Box<dyn Player>> + Send;

/// What the victim's move depends on, as [`check_determinism`] found it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Memory {
    /// The position only.
    Position,
    /// The position and the positions it was asked before in the game.
    History,
}

/// The key of a history: the key of the history before it and the position now asked.
pub fn chain(before: u64, pos: &Position) -> u64 {
    crate::util::hash::mix64(before ^ zobrist::hash(pos))
}

/// A deterministic victim with its answers (see the module docs).
pub struct Victim {
    build: Box<VictimBuilder>,
    live: Box<dyn Player>,
    /// The history keys of the positions `live` was asked, in order.
    asked: Vec<u64>,
    memory: Memory,
    replies: HashMap<u64, Move>,
    /// Moves asked of a player (replays included).
    pub calls: u64,
    list: MoveList,
}

impl Victim {
    /// A victim from its builder, its answers kept by `memory`.
    pub fn new(mut build: Box<VictimBuilder>, memory: Memory) -> anyhow::Result<Victim> {
        let live = build()?;
        Ok(Victim {
            build,
            live,
            asked: Vec::new(),
            memory,
            replies: HashMap::new(),
            calls: 0,
            list: MoveList::new(),
        })
    }

    /// What its answers are kept by.
    pub fn memory(&self) -> Memory {
        self.memory
    }

    /// The victim's move in `pos`, where it was asked `earlier` before in this game, whose history
    /// keys are `earlier_keys` (`key` that of `pos` after them).
    pub fn reply(
        &mut self,
        pos: &Position,
        earlier: &[Position],
        earlier_keys: &[u64],
        key: u64,
    ) -> anyhow::Result<Move> {
        let cache_key = match self.memory {
            Memory::Position => zobrist::hash(pos),
            Memory::History => key,
        };
        if let Some(&mv) = self.replies.get(&cache_key) {
            return Ok(mv);
        }
        if self.memory == Memory::History && self.asked != earlier_keys {
            self.replay(earlier, earlier_keys)?;
        }
        let mv = self.ask(pos)?;
        self.asked.push(key);
        self.replies.insert(cache_key, mv);
        Ok(mv)
    }

    /// A fresh victim, asked `earlier` again (the answers checked against those kept).
    fn replay(&mut self, earlier: &[Position], keys: &[u64]) -> anyhow::Result<()> {
        self.live = (self.build)()?;
        self.asked.clear();
        for (pos, &key) in earlier.iter().zip(keys) {
            let mv = self.ask(pos)?;
            if self.replies.get(&key).is_some_and(|&kept| kept != mv) {
                bail!(
                    "the victim `{}` is not deterministic: it chose two moves in {pos} after the \
                     same history",
                    self.live.name()
                );
            }
            self.asked.push(key);
        }
        Ok(())
    }

    fn ask(&mut self, pos: &Position) -> anyhow::Result<Move> {
        self.calls += 1;
        let name = self.live.name();
        let mv = self
            .live
            .choose(pos, &Limits::NONE)
            .with_context(|| format!("the victim `{name}` failed to move in {pos}"))?
            .mv;
        pos.legal_moves(self.live.rules(), &mut self.list);
        if self.list.find(mv).is_none() {
            bail!("the victim `{name}` chose an illegal move in {pos}");
        }
        Ok(mv)
    }
}

/// The longest game of the check.
const CHECK_PLIES: usize = 200;

/// Positions of each of the check's games at which a fresh victim's answer is compared.
const CHECKED_MOVES: usize = 16;

/// Checks that the victim `build` makes is deterministic, along a game against a seeded random
/// player from each of `starts` (the victim South in the even ones): a second fresh victim asked
/// the same positions in the same order must answer alike (else a one-line refusal). Then
/// whether its history matters: a fresh victim asked a position alone, against the used one.
pub fn check_determinism(
    build: &mut VictimBuilder,
    rules: &Game,
    starts: &[Position],
) -> anyhow::Result<Memory> {
    let mut memory = Memory::Position;
    for (g, start) in starts.iter().enumerate() {
        let side = if g % 2 == 0 { Side::South } else { Side::North };
        let asked = victim_turns(build, rules, start, side, g as u64)?;
        let mut again = build()?;
        for (pos, mv) in &asked {
            if again.choose(pos, &Limits::NONE)?.mv != *mv {
                bail!(
                    "the victim `{}` is not deterministic: asked the same positions again, it \
                     chose another move in {pos} (a time limit, several threads, or randomness)",
                    again.name()
                );
            }
        }
        for (pos, mv) in asked.iter().skip(1).take(CHECKED_MOVES) {
            if memory == Memory::Position && build()?.choose(pos, &Limits::NONE)?.mv != *mv {
                memory = Memory::History;
            }
        }
    }
    Ok(memory)
}

/// The victim's positions and moves along one game against a random player seeded `seed`.
fn victim_turns(
    build: &mut VictimBuilder,
    rules: &Game,
    start: &Position,
    side: Side,
    seed: u64,
) -> anyhow::Result<Vec<(Position, Move)>> {
    let mut victim = build()?;
    let mut other = RandomPlayer::new(rules, seed);
    let mut pos = *start;
    let mut list = MoveList::new();
    let mut asked = Vec::new();
    for _ in 0..CHECK_PLIES {
        pos.legal_moves(rules, &mut list);
        if pos.outcome_given(&list).is_some() {
            break;
        }
        let mv = if pos.side_to_move() == side {
            let mv = victim.choose(&pos, &Limits::NONE)?.mv;
            asked.push((pos, mv));
            mv
        } else {
            other.choose(&pos, &Limits::NONE)?.mv
        };
        let Some(child) = list.find(mv) else {
            bail!(
                "the victim `{}` chose an illegal move in {pos}",
                victim.name()
            );
        };
        pos = *child;
    }
    Ok(asked)
}
