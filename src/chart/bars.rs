//! One row of attention weights as a bar chart (fixed 0–1 axis).

use super::colormap::Rgb;
use super::frame::{round_labels, round_ticks, Axes, Frame};
use super::ink::Ink;
use super::label::{max_label_em, short_label};
use super::surface::plot;
use plotters::prelude::*;

/// Draw `weights` (one per key, each in [0, 1]) with `labels` under the bars, `width` CSS px
/// wide; bars whose key is blocked are left out and marked with "×".
pub fn draw_bars(
    canvas: &web_sys::HtmlCanvasElement,
    weights: &[f32],
    labels: &[String],
    blocked: &[bool],
    width: f64,
    ink: Ink,
    bar: Rgb,
) -> Result<(), String> {
    let plot = plot(canvas, width, 220.0, ink)?;
    let n = weights.len().max(1);
    // Single characters (Chinese tokens) stand upright; longer labels are written upwards.
    let upright = max_label_em(labels) <= 1.25;
    // Label every k-th bar so that the labels do not overlap.
    let every = ((f64::from(plot.font) * 1.3) / ((width - 50.0) * plot.dpr / n as f64)).ceil().max(1.0) as usize;
    let x_ticks = labels.iter().enumerate().step_by(every).map(|(i, l)| (i as f64 + 0.5, short_label(l))).collect();
    let axes = Axes {
        x: (0.0, n as f64),
        y: (0.0, 1.0),
        x_ticks,
        y_ticks: round_labels(&round_ticks(0.0, 1.0, 2)),
        x_grid: false,
        rotate_x: !upright,
        label_room: (40.0, if upright { 26.0 } else { 70.0 }),
    };
    let frame = Frame::draw(&plot, &axes)?;
    let fill = RGBColor(bar[0], bar[1], bar[2]).filled();
    for (i, w) in weights.iter().enumerate() {
        let x = i as f64;
        if blocked.get(i).copied().unwrap_or(false) {
            frame.mark("×", (x + 0.5, 0.0));
        } else {
            frame.rect((x + 0.1, 0.0), (x + 0.9, f64::from(w.clamp(0.0, 1.0))), fill)?;
        }
    }
    frame.finish()
}
