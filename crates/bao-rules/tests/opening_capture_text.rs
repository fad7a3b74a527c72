//! Text naming an opening capture is compared with every listed move, back-row sowings too: that
//! must answer "no" rather than take the opposite of a pit that faces nothing (a subtraction that
//! overflowed in debug builds).

use bao_rules::notation::MoveSpec;
use bao_rules::{Dir, Move, Pit, Row, Side};

#[test]
fn opening_capture_text_never_takes_the_opposite_of_a_back_row_pit() {
    let spec = MoveSpec::parse("xa4", Side::South).unwrap();
    let back: Vec<Pit> = (1..=8).filter_map(|n| Pit::at(Row::Back, n)).collect();
    assert_eq!(back.len(), 8);
    let back_moves: Vec<Move> = back
        .iter()
        .flat_map(|&p| [Move::sow(p, Dir::Left), Move::opening_capture(p)])
        .collect();
    assert!(back_moves.iter().all(|&m| !spec.matches(m)));
    let facing = Pit::at(Row::Front, 5).unwrap();
    assert_eq!(facing.opposite().number(), 4);
    assert!(spec.matches(Move::opening_capture(facing)));
    assert!(!spec.matches(Move::sow(facing, Dir::Left)));
}
