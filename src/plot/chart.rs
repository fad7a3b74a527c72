//! One line chart drawn with plotters, the same way into a PNG and an SVG file.

use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;
use std::sync::Once;

/// Width and height of a chart in pixels.
pub const SIZE: (u32, u32) = (900, 500);

/// The chart font family (Ubuntu Light, registered from `epaint_default_fonts`).
const FONT: &str = "sans-serif";

/// Line colours, one per series in order.
const COLOURS: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(140, 86, 75),
    RGBColor(23, 190, 207),
    RGBColor(127, 127, 127),
];

/// One line of a chart, with optional intervals drawn as error bars.
#[derive(Clone, Debug, Default)]
pub struct Series {
    /// The legend's name.
    pub name: String,
    /// `(iteration, value)` points.
    pub points: Vec<(f64, f64)>,
    /// `(iteration, low, high)` intervals.
    pub intervals: Vec<(f64, f64, f64)>,
}

/// A chart: its title, the y axis' label and its lines.
#[derive(Clone, Debug)]
pub struct Chart {
    /// Base name of the files (`losses` gives `losses.png` and `losses.svg`).
    pub file: &'static str,
    /// The title above the chart.
    pub title: String,
    /// The label of the y axis.
    pub y_label: &'static str,
    /// The lines.
    pub series: Vec<Series>,
}

/// The range `lo..hi` widened by `frac` of its span on each side, and by at least a millionth of
/// its magnitude, so that the axis has a width its tick arithmetic can step through (values are
/// at most [`super::metrics::MAX_SHOWN`]); `0..1` around nothing finite.
fn pad(lo: f64, hi: f64, frac: f64) -> std::ops::Range<f64> {
    if lo > hi {
        return 0.0..1.0;
    }
    let least = (lo.abs().max(hi.abs()) * 1e-6).max(1e-6);
    let d = if hi > lo {
        ((hi - lo) * frac).max(least)
    } else {
        least.max(1.0)
    };
    (lo - d)..(hi + d)
}

/// Registers the embedded font once (plotters' `ab_glyph` text needs a registered font).
fn register_font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let font = epaint_default_fonts::UBUNTU_LIGHT;
        // The font is a constant of a dependency; it always parses.
        let _ = plotters::style::register_font(FONT, FontStyle::Normal, font);
    });
}

impl Chart {
    /// Whether the chart has anything to draw.
    pub fn is_empty(&self) -> bool {
        self.series.iter().all(|s| s.points.is_empty())
    }

    /// The ranges of the axes, padded so no point sits on the frame. Only finite values count:
    /// an unbounded interval end is drawn to the frame.
    fn ranges(&self) -> (std::ops::Range<f64>, std::ops::Range<f64>) {
        let xs = self
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.0));
        let ys = self.series.iter().flat_map(|s| {
            s.points
                .iter()
                .map(|p| p.1)
                .chain(s.intervals.iter().flat_map(|i| [i.1, i.2]))
        });
        let span = |it: &mut dyn Iterator<Item = f64>| {
            it.filter(|x| x.is_finite())
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
                    (lo.min(x), hi.max(x))
                })
        };
        let (x0, x1) = span(&mut xs.into_iter());
        let (y0, y1) = span(&mut ys.into_iter());
        (pad(x0, x1, 0.02), pad(y0, y1, 0.06))
    }

    /// Draws the chart onto a drawing area of any backend.
    pub fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> anyhow::Result<()> {
        register_font();
        let err = |e: DrawingAreaErrorKind<DB::ErrorType>| anyhow::anyhow!("drawing: {e}");
        root.fill(&WHITE).map_err(err)?;
        let (xr, yr) = self.ranges();
        let y_span = yr.end - yr.start;
        let y_range = yr.clone();
        let mut chart = ChartBuilder::on(root)
            .caption(&self.title, (FONT, 26))
            .margin(16)
            .x_label_area_size(44)
            .y_label_area_size(70)
            .build_cartesian_2d(xr, yr)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("iteration")
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| {
                if y_span >= 20.0 {
                    format!("{y:.0}")
                } else {
                    format!("{y:.2}")
                }
            })
            .y_desc(self.y_label)
            .label_style((FONT, 15))
            .axis_desc_style((FONT, 17))
            .light_line_style(RGBColor(235, 235, 235))
            .draw()
            .map_err(err)?;
        for (k, s) in self.series.iter().enumerate() {
            let colour = COLOURS[k % COLOURS.len()];
            let style = ShapeStyle::from(colour).stroke_width(2);
            if !s.intervals.is_empty() {
                // The bar's mark sits on the estimate itself (drawn again as the line's point).
                let estimate = |x: f64, lo: f64, hi: f64| {
                    s.points
                        .iter()
                        .find(|p| p.0 == x)
                        .map_or((lo + hi) / 2.0, |p| p.1)
                };
                // An unbounded end reaches the frame.
                let frame = |y: f64| y.clamp(y_range.start, y_range.end);
                chart
                    .draw_series(s.intervals.iter().map(|&(x, lo, hi)| {
                        let (lo, hi) = (frame(lo), frame(hi));
                        let mid = estimate(x, lo, hi);
                        ErrorBar::new_vertical(x, lo, mid, hi, colour.mix(0.5).stroke_width(1), 8)
                    }))
                    .map_err(err)?;
            }
            chart
                .draw_series(LineSeries::new(s.points.iter().copied(), style))
                .map_err(err)?
                .label(s.name.as_str())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], style));
            if s.points.len() <= 60 {
                chart
                    .draw_series(
                        s.points
                            .iter()
                            .map(|&p| Circle::new(p, 3, ShapeStyle::from(colour).filled())),
                    )
                    .map_err(err)?;
            }
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK.mix(0.3))
            .label_font((FONT, 15))
            .position(SeriesLabelPosition::UpperRight)
            .draw()
            .map_err(err)?;
        root.present().map_err(err)?;
        Ok(())
    }

    /// The chart as PNG bytes.
    pub fn png(&self) -> anyhow::Result<Vec<u8>> {
        use image::ImageEncoder;
        let (w, h) = SIZE;
        let mut rgb = vec![0u8; w as usize * h as usize * 3];
        self.draw(&BitMapBackend::with_buffer(&mut rgb, SIZE).into_drawing_area())?;
        let mut png = Vec::new();
        image::codecs::png::PngEncoder::new(&mut png)
            .write_image(&rgb, w, h, image::ColorType::Rgb8)
            .map_err(|e| anyhow::anyhow!("encoding {}.png: {e}", self.file))?;
        Ok(png)
    }

    /// The chart as SVG text.
    pub fn svg(&self) -> anyhow::Result<String> {
        let mut svg = String::new();
        self.draw(&SVGBackend::with_string(&mut svg, SIZE).into_drawing_area())?;
        Ok(svg)
    }

    /// Writes `DIR/<file>.png` and `DIR/<file>.svg` atomically (a reader never sees half a
    /// chart); returns their paths.
    pub fn write(&self, dir: &Path) -> anyhow::Result<Vec<std::path::PathBuf>> {
        let png = dir.join(format!("{}.png", self.file));
        let svg = dir.join(format!("{}.svg", self.file));
        crate::util::fs::write_atomic(&png, &self.png()?)?;
        crate::util::fs::write_atomic(&svg, self.svg()?.as_bytes())?;
        Ok(vec![png, svg])
    }
}
