//! The check that a rule set's options fit together and leave a game to play
//! ([`Rules::validate`]), and what it refuses ([`RulesError`]): a file of its own, since the
//! check plays the start position, which itself reads the rules.

use super::options::{House, Opening};
use super::position::{Outcome, Position};
use super::rule_set::{MAX_BOUND, Rules};

impl Rules {
    /// Checks that the options fit together and give a game to play (the start is not over
    /// already); says what is wrong.
    pub fn validate(&self) -> Result<(), RulesError> {
        let total = self.total_seeds();
        if total == 0 || total > 250 {
            return Err(RulesError::SeedTotal(total));
        }
        if self.min_lift == 0 {
            return Err(RulesError::MinLift);
        }
        if self.max_sown == 0 || self.lap_limit == Some(0) {
            return Err(RulesError::MaxSown);
        }
        if self.max_sown > MAX_BOUND {
            return Err(RulesError::BoundTooLarge(
                "max_sown",
                self.max_sown,
                MAX_BOUND,
            ));
        }
        if let Some(laps) = self.lap_limit.filter(|&l| l > MAX_BOUND / 16) {
            return Err(RulesError::BoundTooLarge("lap_limit", laps, MAX_BOUND / 16));
        }
        if self.opening == Opening::MalawiAdvanced
            && (self.setup.store == 0 || self.house != House::Kuu)
        {
            return Err(RulesError::MalawiOpening);
        }
        // Last: it plays the start, which the checks above keep cheap.
        if let Some(outcome) = Position::start(self).outcome(self) {
            return Err(RulesError::OverAtStart(outcome));
        }
        Ok(())
    }
}

/// A rule set whose options do not fit together, or rule options that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesError {
    /// The start holds too few or too many seeds.
    #[error("setup: the start has {0} seeds; it must have 1..=250")]
    SeedTotal(u32),
    /// `min_lift` is zero.
    #[error("min_lift must be at least 1")]
    MinLift,
    /// `max_sown` or `lap_limit` is zero.
    #[error("max_sown and lap_limit must be at least 1")]
    MaxSown,
    /// `max_sown` or `lap_limit` above [`MAX_BOUND`] seeds: a move could cost seconds.
    #[error(
        "{0} = {1} is above {2}: a move may sow at most 1,000,000 seeds (max_sown, or 16 lap_limit)"
    )]
    BoundTooLarge(&'static str, u32, u32),
    /// The game is over before the first move (say every start move sows more than the bound).
    #[error("the game is over before the first move ({0}): these rules leave nothing to play")]
    OverAtStart(Outcome),
    /// The Malawi advanced opening without a kuu or a store.
    #[error("opening: the Malawi advanced opening needs a kuu and seeds in store")]
    MalawiOpening,
    /// Rule options (TOML) that cannot be read or name an unknown option.
    #[error("{0}")]
    Options(String),
}
