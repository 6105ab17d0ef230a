//! One row of attention weights as a bar chart (fixed 0–1 axis), drawn with plotters.

use super::colormap::Rgb;
use super::heatmap::Ink;
use super::layout::short_label;
use super::surface::{plot, Plot};
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
    let height = 220.0;
    let Plot { root, dpr, text, frame, font } = plot(canvas, width, height, ink)?;
    let err = |e: DrawingAreaErrorKind<_>| e.to_string();
    let n = weights.len().max(1);
    let every = ((font as f64 * 1.3) / ((width - 50.0) * dpr / n as f64)).ceil().max(1.0) as usize;
    let mut chart = ChartBuilder::on(&root)
        .margin((6.0 * dpr) as u32)
        .x_label_area_size((70.0 * dpr) as u32)
        .y_label_area_size((40.0 * dpr) as u32)
        .build_cartesian_2d((0..n).into_segmented(), 0f32..1f32)
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .y_labels(5)
        .x_labels(n)
        .x_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) if i % every == 0 => labels.get(*i).map(|l| short_label(l)).unwrap_or_default(),
            _ => String::new(),
        })
        .x_label_style(("sans-serif", font).into_font().transform(FontTransform::Rotate270).color(&text))
        .y_label_style(("sans-serif", font).into_font().color(&text))
        .axis_style(frame)
        .light_line_style(frame.mix(0.15))
        .draw()
        .map_err(err)?;
    let fill = RGBColor(bar[0], bar[1], bar[2]).filled();
    chart
        .draw_series(weights.iter().enumerate().filter(|(i, _)| !blocked.get(*i).copied().unwrap_or(false)).map(|(i, w)| {
            Rectangle::new([(SegmentValue::Exact(i), 0.0), (SegmentValue::Exact(i + 1), w.clamp(0.0, 1.0))], fill)
        }))
        .map_err(err)?;
    let cross = ("sans-serif", font).into_font().color(&text).pos(plotters::style::text_anchor::Pos::new(
        plotters::style::text_anchor::HPos::Center,
        plotters::style::text_anchor::VPos::Bottom,
    ));
    chart
        .draw_series(
            (0..n)
                .filter(|i| blocked.get(*i).copied().unwrap_or(false))
                .map(|i| Text::new("×", (SegmentValue::CenterOf(i), 0.0), cross.clone())),
        )
        .map_err(err)?;
    root.present().map_err(err)
}
