//! Readouts against d_k (log₂ axis) as line charts, with the current d_k marked.

use super::colormap::Rgb;
use super::heatmap::Ink;
use super::surface::{plot, Plot};
use plotters::prelude::*;

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
    let height = 200.0;
    let Plot { root, dpr, text, frame, font } = plot(canvas, width, height, ink)?;
    let err = |e: DrawingAreaErrorKind<_>| e.to_string();
    let log2 = |d: usize| (d.max(1) as f32).log2();
    let mut chart = ChartBuilder::on(&root)
        .margin((8.0 * dpr) as u32)
        .margin_right((22.0 * dpr) as u32)
        .x_label_area_size((26.0 * dpr) as u32)
        .y_label_area_size((40.0 * dpr) as u32)
        .build_cartesian_2d(0f32..10f32, y_range.0..y_range.1)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_labels(6)
        .x_label_formatter(&|x| format!("{}", 2f32.powf(x.round()) as u32))
        .y_labels(5)
        .label_style(("sans-serif", font).into_font().color(&text))
        .axis_style(frame)
        .light_line_style(frame.mix(0.12))
        .bold_line_style(frame.mix(0.25))
        .draw()
        .map_err(err)?;
    let x = log2(marker);
    chart
        .draw_series(LineSeries::new([(x, y_range.0), (x, y_range.1)], frame.stroke_width((1.5 * dpr) as u32)))
        .map_err(err)?;
    for curve in curves {
        let color = RGBColor(curve.color[0], curve.color[1], curve.color[2]);
        let points: Vec<(f32, f32)> = curve.points.iter().map(|(d, v)| (log2(*d), *v)).collect();
        chart.draw_series(LineSeries::new(points.clone(), color.stroke_width((2.0 * dpr) as u32))).map_err(err)?;
        chart
            .draw_series(points.iter().map(|p| Circle::new(*p, (3.0 * dpr) as i32, color.filled())))
            .map_err(err)?;
    }
    root.present().map_err(err)
}
