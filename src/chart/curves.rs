//! Readouts against d_k (log₂ axis) as line charts, with the current d_k marked.

use super::colormap::Rgb;
use super::frame::{pow2_ticks, round_labels, round_ticks, Axes, Frame};
use super::ink::Ink;
use super::surface::plot;
use plotters::prelude::RGBColor;

/// One line: its colour and (d_k, value) points (the legend is the page's, in HTML).
#[derive(Debug, Clone, PartialEq)]
pub struct Curve {
    pub color: Rgb,
    pub points: Vec<(usize, f32)>,
}

/// Draw `curves` on a log₂ d_k axis from 1 to 1024 with y in `y_range`, and a vertical line at
/// `marker` (the slider's d_k).
pub fn draw_curves(
    canvas: &web_sys::HtmlCanvasElement,
    curves: &[Curve],
    y_range: (f32, f32),
    marker: usize,
    width: f64,
    ink: Ink,
) -> Result<(), String> {
    let plot = plot(canvas, width, 200.0, ink)?;
    let (y0, y1) = (f64::from(y_range.0), f64::from(y_range.1));
    let log2 = |d: usize| (d.max(1) as f64).log2();
    let axes = Axes {
        x: (0.0, 10.0),
        y: (y0, y1),
        x_ticks: pow2_ticks(0.0, 10.0, 6),
        y_ticks: round_labels(&round_ticks(y0, y1, 4)),
        x_grid: true,
        rotate_x: false,
        label_room: (40.0, 26.0),
    };
    let frame = Frame::draw(&plot, &axes)?;
    let m = log2(marker);
    frame.line([(m, y0), (m, y1)], plot.frame, 1.5)?;
    for curve in curves {
        let color = RGBColor(curve.color[0], curve.color[1], curve.color[2]);
        let points: Vec<(f64, f64)> = curve.points.iter().map(|(d, v)| (log2(*d), f64::from(*v))).collect();
        frame.line(points.iter().copied(), color, 2.0)?;
        for p in &points {
            frame.dot(*p, 3.0, color)?;
        }
    }
    frame.finish()
}
