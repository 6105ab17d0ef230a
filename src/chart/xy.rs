//! Numeric charts for the deeper views: a histogram with a reference density curve, and
//! log₂–log₂ charts of lines and points.

use super::colormap::Rgb;
use super::frame::{pow2_ticks, round_labels, round_ticks, Axes, Frame};
use super::ink::Ink;
use super::surface::plot;
use plotters::prelude::*;

/// Bars of `counts` over [lo, hi), and `curve` (x, count) drawn over them.
pub fn draw_histogram(
    canvas: &web_sys::HtmlCanvasElement,
    counts: &[u32],
    (lo, hi): (f32, f32),
    curve: &[(f32, f32)],
    width: f64,
    ink: Ink,
    bar: Rgb,
) -> Result<(), String> {
    let plot = plot(canvas, width, 200.0, ink)?;
    let (lo, hi) = (f64::from(lo), f64::from(hi));
    let top = counts.iter().copied().max().unwrap_or(1).max(1) as f64;
    let top = curve.iter().map(|p| f64::from(p.1)).fold(top, f64::max) * 1.1;
    let axes = Axes {
        x: (lo, hi),
        y: (0.0, top),
        x_ticks: round_labels(&round_ticks(lo, hi, 8)),
        y_ticks: round_labels(&round_ticks(0.0, top, 3)),
        x_grid: false,
        rotate_x: false,
        label_room: (44.0, 24.0),
    };
    let frame = Frame::draw(&plot, &axes)?;
    let w = (hi - lo) / counts.len().max(1) as f64;
    let fill = RGBColor(bar[0], bar[1], bar[2]).mix(0.8).filled();
    for (i, c) in counts.iter().enumerate() {
        let x0 = lo + i as f64 * w;
        frame.rect((x0, 0.0), (x0 + w, f64::from(*c)), fill)?;
    }
    frame.line(curve.iter().map(|(x, y)| (f64::from(*x), f64::from(*y))), plot.text, 2.0)?;
    frame.finish()
}

/// What a log₂–log₂ chart shows: lines, dots, optionally the diagonal y = x, and a vertical
/// mark at `marker`. x runs over [2^x_exp.0, 2^x_exp.1]; y over `y_exp` (exponents) or, if
/// `None`, the range the data needs.
pub struct LogLog<'a> {
    pub lines: &'a [(Rgb, Vec<(f64, f64)>)],
    pub dots: Option<(Rgb, &'a [(f64, f64)])>,
    pub diagonal: bool,
    pub x_exp: (f64, f64),
    pub y_exp: Option<(f64, f64)>,
    pub marker: f64,
}

/// Draw `c` `width` CSS px wide.
pub fn draw_log_log(canvas: &web_sys::HtmlCanvasElement, c: &LogLog, width: f64, ink: Ink) -> Result<(), String> {
    let plot = plot(canvas, width, 220.0, ink)?;
    let log2 = |v: f64| v.max(1e-9).log2();
    let (y0, y1) = c.y_exp.unwrap_or_else(|| {
        let ys = c
            .lines
            .iter()
            .flat_map(|(_, pts)| pts.iter())
            .chain(c.dots.iter().flat_map(|d| d.1.iter()))
            .map(|p| log2(p.1));
        let (lo, hi) = ys.fold((f64::MAX, f64::MIN), |(a, b), y| (a.min(y), b.max(y)));
        if lo < hi {
            (lo.floor(), hi.ceil())
        } else {
            (0.0, 1.0)
        }
    });
    let axes = Axes {
        x: c.x_exp,
        y: (y0, y1),
        x_ticks: pow2_ticks(c.x_exp.0, c.x_exp.1, 7),
        y_ticks: pow2_ticks(y0, y1, 6),
        x_grid: true,
        rotate_x: false,
        label_room: (56.0, 24.0),
    };
    let frame = Frame::draw(&plot, &axes)?;
    if c.diagonal {
        let (a, b) = (c.x_exp.0.max(y0), c.x_exp.1.min(y1));
        frame.line([(a, a), (b, b)], plot.text, 1.5)?;
    }
    let m = log2(c.marker);
    frame.line([(m, y0), (m, y1)], plot.frame, 1.5)?;
    for (color, pts) in c.lines {
        let color = RGBColor(color[0], color[1], color[2]);
        frame.line(pts.iter().map(|(x, y)| (log2(*x), log2(*y))), color, 2.5)?;
    }
    if let Some((color, pts)) = c.dots {
        let color = RGBColor(color[0], color[1], color[2]);
        for (x, y) in pts {
            frame.dot((log2(*x), log2(*y)), 4.0, color)?;
        }
    }
    frame.finish()
}
