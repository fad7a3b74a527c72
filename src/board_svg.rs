//! A position drawn as an SVG picture: four rows of pits with their seed counts, the stores, the
//! houses (nyumba) and whether each is still owned, takasia, the side to move and the stage.
//!
//! The same drawing serves `bao show --svg FILE` and the board of `bao serve`'s page. Every pit
//! is a `<g class="pit" data-pit="A1">` whose only text is its seed count, so scripts and tests
//! find a pit by its KIBA name (`A1`..`A8`, `B1`..`B8` for South, `a1`..`b8` for North); the
//! stores are `<g data-store="south">`/`"north"`. The picture carries its own `<style>`, so it
//! looks the same alone and inside the page, where classes such as `legal` or `active` are added.

use crate::rules::{Pit, Position, Row, Rules, Side, Stage};
use std::fmt::Write;

/// Distance between pit centres.
const STEP: f64 = 64.0;
/// Pit radius.
const RADIUS: f64 = 27.0;
/// Left margin (row names).
const LEFT: f64 = 44.0;
/// Top margin (column numbers).
const TOP: f64 = 34.0;
/// Width of the store column at the right.
const STORE_W: f64 = 120.0;
/// Gap between the two players' halves.
const MIDDLE: f64 = 18.0;

/// The picture's width and height.
pub const SIZE: (f64, f64) = (
    LEFT + 8.0 * STEP + STORE_W,
    TOP + 4.0 * STEP + MIDDLE + 74.0,
);

/// The style sheet inside every picture.
const STYLE: &str = "\
.board{fill:#c8955a;stroke:#7a5230;stroke-width:3}\
.half{fill:#b9844b}\
.pit circle,.pit rect{fill:#f3e3c3;stroke:#7a5230;stroke-width:2}\
.pit text{font:600 22px sans-serif;fill:#2b1d0e;text-anchor:middle;dominant-baseline:central;pointer-events:none}\
.pit.house rect{fill:#ffe9a8;stroke:#b33;stroke-width:3}\
.pit.house-lost rect{fill:#f3e3c3;stroke:#7a5230;stroke-dasharray:5 4}\
.pit.blocked circle,.pit.blocked rect{fill:#bbb;stroke:#555;stroke-dasharray:4 3}\
.pit.empty text{fill:#9a8466}\
.label{font:14px sans-serif;fill:#5a3b1c;text-anchor:middle;dominant-baseline:central}\
.store rect{fill:#e9d3a8;stroke:#7a5230;stroke-width:2}\
.store text{font:600 20px sans-serif;fill:#2b1d0e;text-anchor:middle;dominant-baseline:central}\
.store .name{font:13px sans-serif}\
.status{font:16px sans-serif;fill:#2b1d0e}\
.tomove{fill:#2a7;stroke:#174;stroke-width:2}";

/// Where a pit is drawn: the centre of `side`'s `pit`. South's front row (A) is the third row
/// from the top, left to right A1..A8; North's rows are seen from South, so a1 is at the right.
pub fn pit_centre(side: Side, pit: Pit) -> (f64, f64) {
    let n = f64::from(pit.number());
    let (column, row) = match (side, pit.row()) {
        (Side::North, Row::Back) => (8.0 - n, 0.0),
        (Side::North, Row::Front) => (8.0 - n, 1.0),
        (Side::South, Row::Front) => (n - 1.0, 2.0),
        (Side::South, Row::Back) => (n - 1.0, 3.0),
    };
    let gap = if row >= 2.0 { MIDDLE } else { 0.0 };
    (LEFT + STEP * (column + 0.5), TOP + STEP * (row + 0.5) + gap)
}

/// Escapes text for XML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The line under the board: side to move, stage, ply, takasia, and the result once over.
pub fn status_line(pos: &Position, rules: &Rules) -> String {
    let mover = pos.side_to_move();
    let stage = match pos.stage() {
        Stage::Opening => format!("opening ({} seeds to place)", pos.hand()),
        Stage::Namua => "namua stage (planting)".to_string(),
        Stage::Mtaji => "mtaji stage".to_string(),
    };
    let mut line = format!("{mover} to move · {stage} · ply {}", pos.ply());
    if let Some(b) = pos.blocked() {
        let _ = write!(line, " · {} blocked (takasia)", b.name(mover));
    }
    if let Some(t) = pos.target() {
        let _ = write!(line, " · must capture {}", t.name(mover.opponent()));
    }
    if let Some(o) = pos.outcome(rules) {
        line = match o.winner {
            Some(w) => format!("Game over: {w} wins ({}) · ply {}", o.reason, pos.ply()),
            None => format!("Game over: void ({}) · ply {}", o.reason, pos.ply()),
        };
    }
    line
}

/// The SVG picture of `pos` under `rules`.
pub fn board_svg(pos: &Position, rules: &Rules) -> String {
    let (w, h) = SIZE;
    let mut s = String::with_capacity(12_000);
    let _ = write!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" class="bao-board" viewBox="0 0 {w} {h}" width="{w}" height="{h}" font-family="sans-serif"><style>{STYLE}</style>"#
    );
    let board_h = 4.0 * STEP + MIDDLE + 12.0;
    let _ = write!(
        s,
        r#"<rect class="board" x="{}" y="{}" width="{}" height="{board_h}" rx="14"/>"#,
        LEFT - 8.0,
        TOP - 6.0,
        8.0 * STEP + 16.0
    );
    for (k, top) in [(0, TOP), (1, TOP + 2.0 * STEP + MIDDLE)] {
        let _ = write!(
            s,
            r#"<rect class="half half-{k}" x="{}" y="{top}" width="{}" height="{}" rx="10"/>"#,
            LEFT - 2.0,
            8.0 * STEP + 4.0,
            2.0 * STEP
        );
    }
    // Column numbers: North's above (8..1, as North counts), South's below (1..8).
    for c in 0..8 {
        let x = LEFT + STEP * (f64::from(c) + 0.5);
        let _ = write!(
            s,
            r#"<text class="label" x="{x}" y="{}">{}</text><text class="label" x="{x}" y="{}">{}</text>"#,
            TOP - 18.0,
            8 - c,
            TOP + 4.0 * STEP + MIDDLE + 16.0,
            c + 1
        );
    }
    for (name, side, row) in [
        ("b", Side::North, Row::Back),
        ("a", Side::North, Row::Front),
        ("A", Side::South, Row::Front),
        ("B", Side::South, Row::Back),
    ] {
        let pit = Pit::at(row, 1).expect("pit 1 exists");
        let (_, y) = pit_centre(side, pit);
        let _ = write!(
            s,
            r#"<text class="label" x="{}" y="{y}">{name}</text>"#,
            LEFT - 24.0
        );
    }
    for side in Side::BOTH {
        for pit in Pit::all() {
            pit_svg(&mut s, pos, rules, side, pit);
        }
        store_svg(&mut s, pos, rules, side);
    }
    let _ = write!(
        s,
        r#"<text class="status" x="{LEFT}" y="{}" data-status="">{}</text></svg>"#,
        h - 16.0,
        escape(&status_line(pos, rules))
    );
    s
}

/// One pit: a circle (a square for a house), its name and its count.
fn pit_svg(s: &mut String, pos: &Position, rules: &Rules, side: Side, pit: Pit) {
    let (x, y) = pit_centre(side, pit);
    let seeds = pos.seeds(side, pit);
    let mut class = String::from("pit");
    let house_pit = rules.has_house() && pit == Pit::HOUSE;
    if house_pit {
        class.push_str(if pos.house_owned(side) {
            " house"
        } else {
            " house-lost"
        });
    }
    if pos.blocked() == Some(pit) && side == pos.side_to_move() {
        class.push_str(" blocked");
    }
    if seeds == 0 {
        class.push_str(" empty");
    }
    let name = pit.name(side);
    let _ = write!(
        s,
        r#"<g class="{class}" data-pit="{name}" data-side="{}" aria-label="{name}">"#,
        side.to_string().to_lowercase()
    );
    if house_pit {
        let r = RADIUS + 1.0;
        let _ = write!(
            s,
            r#"<rect x="{}" y="{}" width="{}" height="{}" rx="6"/>"#,
            x - r,
            y - r,
            2.0 * r,
            2.0 * r
        );
    } else {
        let _ = write!(s, r#"<circle cx="{x}" cy="{y}" r="{RADIUS}"/>"#);
    }
    let _ = write!(s, r#"<text x="{x}" y="{y}">{seeds}</text></g>"#);
}

/// A side's store (and house state) at the right of its half, with the move marker.
fn store_svg(s: &mut String, pos: &Position, rules: &Rules, side: Side) {
    let top = match side {
        Side::North => TOP,
        Side::South => TOP + 2.0 * STEP + MIDDLE,
    };
    let x = LEFT + 8.0 * STEP + 20.0;
    let wd = STORE_W - 28.0;
    let hg = 2.0 * STEP - 8.0;
    let name = side.to_string();
    let _ = write!(
        s,
        r#"<g class="store" data-store="{}"><rect x="{x}" y="{}" width="{wd}" height="{hg}" rx="10"/><text x="{}" y="{}">{}</text></g>"#,
        name.to_lowercase(),
        top + 4.0,
        x + wd / 2.0,
        top + hg / 2.0 + 4.0,
        pos.store(side)
    );
    let house = if !rules.has_house() {
        String::new()
    } else if pos.house_owned(side) {
        "house owned".to_string()
    } else {
        "house lost".to_string()
    };
    let (name_y, house_y) = (top + 20.0, top + hg - 8.0);
    let _ = write!(
        s,
        r#"<text class="label" x="{}" y="{name_y}">{name} store</text><text class="label" x="{}" y="{house_y}">{house}</text>"#,
        x + wd / 2.0,
        x + wd / 2.0,
    );
    if pos.side_to_move() == side && pos.outcome(rules).is_none() {
        let _ = write!(
            s,
            r#"<circle class="tomove" data-to-move="{}" cx="{}" cy="{}" r="7"><title>{name} to move</title></circle>"#,
            name.to_lowercase(),
            x - 8.0,
            top + STEP
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    #[test]
    fn every_pit_carries_its_name_and_count() {
        let rules = Variant::Kiswahili.rules();
        let pos = Position::start(&rules);
        let svg = board_svg(&pos, &rules);
        for side in Side::BOTH {
            for pit in Pit::all() {
                let name = pit.name(side);
                let at = svg
                    .find(&format!("data-pit=\"{name}\""))
                    .unwrap_or_else(|| panic!("{name} missing"));
                let group = &svg[at..at + svg[at..].find("</g>").unwrap()];
                let count = format!(">{}</text>", pos.seeds(side, pit));
                assert!(group.contains(&count), "{name}: {group}");
            }
        }
        assert!(svg.contains("class=\"pit house\""));
        assert!(svg.contains("South to move"));
        assert!(svg.contains("namua"));
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
    }

    #[test]
    fn rows_sit_where_the_diagram_puts_them() {
        let a1 = pit_centre(Side::South, Pit::at(Row::Front, 1).unwrap());
        let a8 = pit_centre(Side::South, Pit::at(Row::Front, 8).unwrap());
        let n1 = pit_centre(Side::North, Pit::at(Row::Front, 1).unwrap());
        let b1 = pit_centre(Side::North, Pit::at(Row::Back, 1).unwrap());
        assert!(a1.0 < a8.0);
        // North's a1 faces South's A8 (the right end), and b1 is behind a1.
        assert_eq!(n1.0, a8.0);
        assert_eq!(b1.0, n1.0);
        assert!(b1.1 < n1.1 && n1.1 < a1.1);
    }
}
