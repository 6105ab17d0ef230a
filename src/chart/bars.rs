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
    // Labels at least `every` bars apart, so that they do not overlap.
    let every = ((f64::from(plot.font) * 1.3) / ((width - 50.0) * plot.dpr / n as f64)).ceil().max(1.0) as usize;
    let x_ticks =
        labelled(weights, every).into_iter().filter_map(|i| Some((i as f64 + 0.5, short_label(labels.get(i)?))));
    let x_ticks = x_ticks.collect();
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

/// Which bars get a label when labels must stand at least `every` bars apart: the three
/// tallest first (the bars a reading names), then the rest from the left wherever there is room.
fn labelled(weights: &[f32], every: usize) -> Vec<usize> {
    let every = every.max(1);
    let tallest = crate::core::order::largest_first(weights);
    let mut taken = vec![false; weights.len()];
    for i in tallest.into_iter().take(3).chain(0..weights.len()) {
        let near = i.saturating_sub(every - 1)..i.saturating_add(every).min(weights.len());
        if !taken[near].contains(&true) {
            taken[i] = true;
        }
    }
    (0..weights.len()).filter(|&i| taken[i]).collect()
}

#[cfg(test)]
mod tests {
    use super::labelled;

    #[test]
    fn the_three_tallest_bars_keep_their_labels_when_not_all_fit() {
        // Every other label fits: the tallest three (indices 3, 5, 8) are labelled all the same.
        let weights = [0.05, 0.1, 0.05, 0.52, 0.08, 0.2, 0.0, 0.01, 0.15];
        let taken = labelled(&weights, 2);
        assert!([3, 5, 8].iter().all(|i| taken.contains(i)), "{taken:?}");
        assert!(taken.windows(2).all(|w| w[1] - w[0] >= 2), "no two labels closer than 2 bars: {taken:?}");
        assert_eq!(labelled(&weights, 1), (0..weights.len()).collect::<Vec<_>>(), "room for every label");
        assert!(labelled(&[], 3).is_empty());
    }
}
