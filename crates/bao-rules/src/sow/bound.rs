//! Never-ending moves as the rules define them: a move that sows more than N seeds in all
//! ([`Rules::never_ending_bound`]) is never-ending at the end of the sowing that passed N, and
//! the rule set says what such a move does (illegal, lost, void, or stopped right there).
//!
//! [`Rules::never_ending_bound`]: crate::Rules::never_ending_bound

use super::{Mover, Next};
use crate::options::InfiniteMoves;
use crate::position::{EndReason, Outcome};
use crate::trace::{Observer, StopReason};

impl<O: Observer> Mover<'_, O> {
    /// Whether the seeds sown so far pass the bound (checked when a sowing's last seed falls).
    #[inline]
    pub(super) fn passed_bound(&self) -> bool {
        self.sown > self.bound
    }

    /// Ends a never-ending move as the rules say: nothing more happens in it.
    #[cold]
    pub(super) fn declare_never_ending(&mut self) -> Next {
        match self.rules.infinite_moves {
            InfiniteMoves::Illegal => self.illegal = true,
            InfiniteMoves::MoverLoses => self.lose(self.side, EndReason::NeverEndingMove),
            InfiniteMoves::Void => {
                self.p.result = Some(Outcome {
                    winner: None,
                    reason: EndReason::NeverEndingMove,
                })
            }
            InfiniteMoves::Stop => {}
        }
        Next::Stop(StopReason::NeverEnding)
    }
}
