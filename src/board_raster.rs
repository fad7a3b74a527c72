//! A position drawn as an RGB picture: the board of [`crate::board_svg`] (same layout, colours
//! and text) painted into a pixel buffer with plotters, for `render_mode="rgb_array"` in Python.
//!
//! Only the SVG module's public geometry is used ([`pit_centre`], [`SIZE`]), so both pictures
//! place every pit in the same spot. Text is drawn with the embedded font the charts use, so no
//! system font is needed.

use crate::board_svg::{SIZE, pit_centre, status_line};
use crate::rules::{Pit, Position, Row, Rules, Side};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::sync::Once;

/// The font family the picture's text is registered under.
const FONT: &str = "bao-board";
/// Pit radius (as in the SVG).
const RADIUS: i32 = 27;

/// Width and height of the picture in pixels.
pub const RASTER_SIZE: (u32, u32) = (SIZE.0 as u32, SIZE.1 as u32);

/// The SVG's colours.
const BOARD: RGBColor = RGBColor(0xc8, 0x95, 0x5a);
const HALF: RGBColor = RGBColor(0xb9, 0x84, 0x4b);
const PIT: RGBColor = RGBColor(0xf3, 0xe3, 0xc3);
const EDGE: RGBColor = RGBColor(0x7a, 0x52, 0x30);
const HOUSE: RGBColor = RGBColor(0xff, 0xe9, 0xa8);
const HOUSE_EDGE: RGBColor = RGBColor(0xbb, 0x33, 0x33);
const BLOCKED: RGBColor = RGBColor(0xbb, 0xbb, 0xbb);
const INK: RGBColor = RGBColor(0x2b, 0x1d, 0x0e);
const FAINT: RGBColor = RGBColor(0x9a, 0x84, 0x66);
const LABEL: RGBColor = RGBColor(0x5a, 0x3b, 0x1c);
const STORE: RGBColor = RGBColor(0xe9, 0xd3, 0xa8);
const TO_MOVE: RGBColor = RGBColor(0x22, 0xaa, 0x77);

/// Registers the embedded font once.
fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The font is a constant of a dependency; it always parses.
        let _ = plotters::style::register_font(
            FONT,
            FontStyle::Normal,
            epaint_default_fonts::UBUNTU_LIGHT,
        );
    });
}

/// The picture of `pos` under `rules`: `RASTER_SIZE.1` rows of `RASTER_SIZE.0` pixels, three
/// bytes (red, green, blue) each, row by row from the top.
pub fn board_rgb(pos: &Position, rules: &Rules) -> anyhow::Result<Vec<u8>> {
    register_font();
    let (w, h) = RASTER_SIZE;
    let mut buf = vec![255u8; w as usize * h as usize * 3];
    {
        let area = BitMapBackend::with_buffer(&mut buf, (w, h)).into_drawing_area();
        draw(&area, pos, rules).map_err(|e| anyhow::anyhow!("cannot draw the board: {e}"))?;
        area.present()
            .map_err(|e| anyhow::anyhow!("cannot draw the board: {e}"))?;
    }
    Ok(buf)
}

type Area<'a> = DrawingArea<BitMapBackend<'a>, plotters::coord::Shift>;
type DrawResult =
    Result<(), DrawingAreaErrorKind<<BitMapBackend<'static> as DrawingBackend>::ErrorType>>;

/// The board's geometry, read back from the SVG's pit centres.
struct Layout {
    step: f64,
    left: f64,
    top: f64,
    middle: f64,
}

impl Layout {
    fn new() -> Layout {
        let a1 = pit_centre(Side::South, pit(Row::Front, 1));
        let a2 = pit_centre(Side::South, pit(Row::Front, 2));
        let n_front = pit_centre(Side::North, pit(Row::Front, 1));
        let n_back = pit_centre(Side::North, pit(Row::Back, 1));
        let step = a2.0 - a1.0;
        Layout {
            step,
            left: a1.0 - step / 2.0,
            top: n_back.1 - step / 2.0,
            middle: a1.1 - n_front.1 - step,
        }
    }
}

/// Pit `number` of `row` (1..=8 always exists).
fn pit(row: Row, number: u8) -> Pit {
    Pit::at(row, number).unwrap_or(Pit::HOUSE)
}

/// A text style of `size` pixels in `color`, centred on its point.
fn text(size: u32, color: &'static RGBColor) -> TextStyle<'static> {
    TextStyle::from((FONT, size).into_font())
        .color(color)
        .pos(Pos::new(HPos::Center, VPos::Center))
}

/// Rounds a coordinate to a pixel.
fn px(x: f64) -> i32 {
    x.round() as i32
}

fn draw(area: &Area<'_>, pos: &Position, rules: &Rules) -> DrawResult {
    let l = Layout::new();
    let h = SIZE.1;
    area.fill(&WHITE)?;
    let board_h = 4.0 * l.step + l.middle + 12.0;
    area.draw(&Rectangle::new(
        [
            (px(l.left - 8.0), px(l.top - 6.0)),
            (px(l.left + 8.0 * l.step + 8.0), px(l.top - 6.0 + board_h)),
        ],
        BOARD.filled(),
    ))?;
    for top in [l.top, l.top + 2.0 * l.step + l.middle] {
        area.draw(&Rectangle::new(
            [
                (px(l.left - 2.0), px(top)),
                (px(l.left + 8.0 * l.step + 2.0), px(top + 2.0 * l.step)),
            ],
            HALF.filled(),
        ))?;
    }
    for c in 0..8 {
        let x = px(l.left + l.step * (f64::from(c) + 0.5));
        let label = text(14, &LABEL);
        area.draw_text(&(8 - c).to_string(), &label, (x, px(l.top - 18.0)))?;
        let below = px(l.top + 4.0 * l.step + l.middle + 16.0);
        area.draw_text(&(c + 1).to_string(), &label, (x, below))?;
    }
    for (name, side, row) in [
        ("b", Side::North, Row::Back),
        ("a", Side::North, Row::Front),
        ("A", Side::South, Row::Front),
        ("B", Side::South, Row::Back),
    ] {
        let (_, y) = pit_centre(side, pit(row, 1));
        area.draw_text(name, &text(14, &LABEL), (px(l.left - 24.0), px(y)))?;
    }
    for side in Side::BOTH {
        for p in Pit::all() {
            draw_pit(area, pos, rules, side, p)?;
        }
        draw_store(area, &l, pos, rules, side)?;
    }
    let status = TextStyle::from((FONT, 16).into_font())
        .color(&INK)
        .pos(Pos::new(HPos::Left, VPos::Center));
    area.draw_text(
        &status_line(pos, rules),
        &status,
        (px(l.left), px(h - 16.0)),
    )?;
    Ok(())
}

/// One pit: a circle (a square for a house) and its count.
fn draw_pit(area: &Area<'_>, pos: &Position, rules: &Rules, side: Side, p: Pit) -> DrawResult {
    let (x, y) = pit_centre(side, p);
    let (x, y) = (px(x), px(y));
    let seeds = pos.seeds(side, p);
    let blocked = pos.blocked() == Some(p) && side == pos.side_to_move();
    let house = rules.has_house() && p == Pit::HOUSE;
    let (fill, edge) = match (blocked, house && pos.house_owned(side)) {
        (true, _) => (BLOCKED, RGBColor(0x55, 0x55, 0x55)),
        (false, true) => (HOUSE, HOUSE_EDGE),
        (false, false) => (PIT, EDGE),
    };
    if house {
        let r = RADIUS + 1;
        let corners = [(x - r, y - r), (x + r, y + r)];
        area.draw(&Rectangle::new(corners, fill.filled()))?;
        area.draw(&Rectangle::new(corners, edge.stroke_width(3)))?;
    } else {
        area.draw(&Circle::new((x, y), RADIUS, fill.filled()))?;
        area.draw(&Circle::new((x, y), RADIUS, edge.stroke_width(2)))?;
    }
    let ink = if seeds == 0 { &FAINT } else { &INK };
    area.draw_text(&seeds.to_string(), &text(22, ink), (x, y))
}

/// A side's store at the right of its half, with the move marker.
fn draw_store(
    area: &Area<'_>,
    l: &Layout,
    pos: &Position,
    rules: &Rules,
    side: Side,
) -> DrawResult {
    let top = match side {
        Side::North => l.top,
        Side::South => l.top + 2.0 * l.step + l.middle,
    };
    let x = l.left + 8.0 * l.step + 20.0;
    let (wd, hg) = (SIZE.0 - l.left - 8.0 * l.step - 28.0, 2.0 * l.step - 8.0);
    let corners = [(px(x), px(top + 4.0)), (px(x + wd), px(top + 4.0 + hg))];
    area.draw(&Rectangle::new(corners, STORE.filled()))?;
    area.draw(&Rectangle::new(corners, EDGE.stroke_width(2)))?;
    let centre = px(x + wd / 2.0);
    let count = pos.store(side).to_string();
    area.draw_text(&count, &text(20, &INK), (centre, px(top + hg / 2.0 + 4.0)))?;
    let name = format!("{side} store");
    area.draw_text(&name, &text(13, &LABEL), (centre, px(top + 20.0)))?;
    if rules.has_house() {
        let house = if pos.house_owned(side) {
            "house owned"
        } else {
            "house lost"
        };
        area.draw_text(house, &text(13, &LABEL), (centre, px(top + hg - 8.0)))?;
    }
    if pos.side_to_move() == side && pos.outcome(rules).is_none() {
        let marker = (px(x - 8.0), px(top + l.step));
        area.draw(&Circle::new(marker, 7, TO_MOVE.filled()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    /// The pixel at `(x, y)`.
    fn pixel(buf: &[u8], x: f64, y: f64) -> [u8; 3] {
        let i = (px(y) as usize * RASTER_SIZE.0 as usize + px(x) as usize) * 3;
        [buf[i], buf[i + 1], buf[i + 2]]
    }

    #[test]
    fn pits_are_painted_where_the_svg_puts_them() {
        let rules = Variant::Kiswahili.rules();
        let pos = Position::start(&rules);
        let buf = board_rgb(&pos, &rules).unwrap();
        let (w, h) = RASTER_SIZE;
        assert_eq!(buf.len(), (w * h * 3) as usize);
        // A pit's rim (left of its centre, inside the circle but clear of the count's text).
        let (x, y) = pit_centre(Side::South, pit(Row::Back, 1));
        assert_eq!(pixel(&buf, x - 20.0, y), [0xf3, 0xe3, 0xc3]);
        // The house pit is a square: its corner is painted too.
        let (x, y) = pit_centre(Side::South, Pit::HOUSE);
        assert_eq!(pixel(&buf, x - 24.0, y - 24.0), [0xff, 0xe9, 0xa8]);
        // Between the pits, the board.
        let (x0, y0) = pit_centre(Side::South, pit(Row::Back, 2));
        assert_eq!(pixel(&buf, x0 + 32.0, y0 + 30.0), [0xb9, 0x84, 0x4b]);
        // Text was drawn: some pixel of the status line is dark.
        let dark = (0..w as usize)
            .map(|x| pixel(&buf, x as f64, f64::from(h) - 16.0))
            .any(|p| p.iter().all(|&c| c < 0x80));
        assert!(dark, "no status text");
    }

    #[test]
    fn the_picture_changes_with_the_position() {
        let rules = Variant::Kujifunza.rules();
        let start = Position::start(&rules);
        let mut list = crate::rules::MoveList::new();
        start.legal_moves(&rules, &mut list);
        let next = list.children()[0];
        assert_ne!(
            board_rgb(&start, &rules).unwrap(),
            board_rgb(&next, &rules).unwrap()
        );
    }
}
