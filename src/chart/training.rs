//! A quantity of a training run against its steps (the loss, the held-out accuracy), one line
//! per run: linear axes, the steps from 0 to the longest run.

use super::frame::{round_labels, round_ticks, Axes, Frame};
use super::ink::Ink;
use super::surface::plot;
use plotters::prelude::RGBColor;

/// Draw each run's (step, value) points as a line in the ink's series colours (run 0 in the
/// first), with y from 0 to `y_top` (or to the largest value when `None`).
pub fn draw_runs(
    canvas: &web_sys::HtmlCanvasElement,
    runs: &[Vec<(usize, f64)>],
    y_top: Option<f64>,
    width: f64,
    ink: Ink,
) -> Result<(), String> {
    let plot = plot(canvas, width, 180.0, ink)?;
    let last = runs.iter().flatten().map(|p| p.0).max().unwrap_or(0).max(10) as f64;
    let top = y_top.unwrap_or_else(|| runs.iter().flatten().map(|p| p.1).filter(|v| v.is_finite()).fold(0.0, f64::max));
    let top = if top > 0.0 { top } else { 1.0 };
    let axes = Axes {
        x: (0.0, last),
        y: (0.0, top),
        x_ticks: round_labels(&round_ticks(0.0, last, 5)),
        y_ticks: round_labels(&round_ticks(0.0, top, 4)),
        x_grid: true,
        rotate_x: false,
        label_room: (44.0, 26.0),
    };
    let frame = Frame::draw(&plot, &axes)?;
    for (run, colour) in runs.iter().zip(ink.series) {
        let colour = RGBColor(colour[0], colour[1], colour[2]);
        frame.line(run.iter().map(|&(s, v)| (s as f64, v.min(top))), colour, 2.0)?;
    }
    frame.finish()
}
