//! Readouts against d_k (log₂ axis) as line charts, with the current d_k marked.

use super::colormap::Rgb;
use super::frame::{pow2_ticks, round_labels, round_ticks, Axes, Frame};
use super::ink::Ink;
use super::surface::plot;
use plotters::prelude::RGBColor;

/// One line: its colour and (d_k, value) points (the legend is the page's, in HTML). A dashed
/// line is a reference, drawn without dots.
#[derive(Debug, Clone, PartialEq)]
pub struct Curve {
    pub color: Rgb,
    pub points: Vec<(usize, f32)>,
    pub dashed: bool,
}

/// How many dashes each stretch between two points of a dashed line gets.
const DASHES_PER_STRETCH: usize = 3;

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
        if curve.dashed {
            for dash in dashes(&points) {
                frame.line(dash, color, 1.5)?;
            }
            continue;
        }
        frame.line(points.iter().copied(), color, 2.0)?;
        for p in &points {
            frame.dot(*p, 3.0, color)?;
        }
    }
    frame.finish()
}

/// The dashes of a dashed line through `points`: each stretch is cut into 2·DASHES_PER_STRETCH
/// pieces and every other one is drawn.
fn dashes(points: &[(f64, f64)]) -> Vec<[(f64, f64); 2]> {
    let pieces = 2 * DASHES_PER_STRETCH;
    let at = |a: (f64, f64), b: (f64, f64), t: f64| (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t);
    points
        .windows(2)
        .flat_map(|w| {
            (0..pieces).step_by(2).map(move |i| {
                let (t0, t1) = (i as f64 / pieces as f64, (i + 1) as f64 / pieces as f64);
                [at(w[0], w[1], t0), at(w[0], w[1], t1)]
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dashed_line_draws_every_other_piece_of_each_stretch() {
        let d = dashes(&[(0.0, 1.0), (6.0, 1.0), (12.0, 1.0)]);
        assert_eq!(d.len(), 2 * DASHES_PER_STRETCH);
        assert_eq!(d[0], [(0.0, 1.0), (1.0, 1.0)]);
        assert_eq!(d[1], [(2.0, 1.0), (3.0, 1.0)]);
        assert_eq!(d[3], [(6.0, 1.0), (7.0, 1.0)]);
    }
}
