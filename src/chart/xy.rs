//! Numeric charts for the deeper views: a histogram with a reference density curve, and
//! points against a reference line on log₂–log₂ axes.

use super::colormap::Rgb;
use super::heatmap::Ink;
use super::surface::{plot, Plot};
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
    let Plot { root, dpr, text, frame, font } = plot(canvas, width, 200.0, ink)?;
    let err = |e: DrawingAreaErrorKind<_>| e.to_string();
    let top = counts.iter().copied().max().unwrap_or(1).max(1) as f32;
    let top = curve.iter().map(|p| p.1).fold(top, f32::max) * 1.1;
    let mut chart = ChartBuilder::on(&root)
        .margin((8.0 * dpr) as u32)
        .margin_right((16.0 * dpr) as u32)
        .x_label_area_size((24.0 * dpr) as u32)
        .y_label_area_size((44.0 * dpr) as u32)
        .build_cartesian_2d(lo..hi, 0f32..top)
        .map_err(err)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(7)
        .y_labels(4)
        .y_label_formatter(&|v| format!("{v:.0}"))
        .label_style(("sans-serif", font).into_font().color(&text))
        .axis_style(frame)
        .light_line_style(frame.mix(0.12))
        .draw()
        .map_err(err)?;
    let w = (hi - lo) / counts.len().max(1) as f32;
    let fill = RGBColor(bar[0], bar[1], bar[2]).mix(0.8).filled();
    chart
        .draw_series(counts.iter().enumerate().map(|(i, c)| {
            let x0 = lo + i as f32 * w;
            Rectangle::new([(x0, 0.0), (x0 + w, *c as f32)], fill)
        }))
        .map_err(err)?;
    chart.draw_series(LineSeries::new(curve.iter().copied(), text.stroke_width((2.0 * dpr) as u32))).map_err(err)?;
    root.present().map_err(err)
}

/// `points` (x, y) as dots and the line y = x, on log₂ axes over [1, 2^max_exp]; a vertical
/// mark at `marker`.
pub fn draw_loglog(
    canvas: &web_sys::HtmlCanvasElement,
    points: &[(f64, f64)],
    max_exp: f64,
    marker: f64,
    width: f64,
    ink: Ink,
    dot: Rgb,
) -> Result<(), String> {
    let Plot { root, dpr, text, frame, font } = plot(canvas, width, 220.0, ink)?;
    let err = |e: DrawingAreaErrorKind<_>| e.to_string();
    let log2 = |v: f64| v.max(1e-9).log2();
    let mut chart = ChartBuilder::on(&root)
        .margin((8.0 * dpr) as u32)
        .margin_right((22.0 * dpr) as u32)
        .x_label_area_size((24.0 * dpr) as u32)
        .y_label_area_size((52.0 * dpr) as u32)
        .build_cartesian_2d(0f64..max_exp, -1f64..max_exp + 1.0)
        .map_err(err)?;
    let pow2 = |v: &f64| {
        let p = 2f64.powf(v.round());
        if p >= 1024.0 { format!("{}K", p / 1024.0) } else if p >= 1.0 { format!("{p}") } else { format!("{p:.1}") }
    };
    chart
        .configure_mesh()
        .x_labels(6)
        .y_labels(6)
        .x_label_formatter(&pow2)
        .y_label_formatter(&pow2)
        .label_style(("sans-serif", font).into_font().color(&text))
        .axis_style(frame)
        .light_line_style(frame.mix(0.12))
        .bold_line_style(frame.mix(0.25))
        .draw()
        .map_err(err)?;
    chart.draw_series(LineSeries::new([(0.0, 0.0), (max_exp, max_exp)], text.stroke_width((1.5 * dpr) as u32))).map_err(err)?;
    let m = log2(marker);
    chart.draw_series(LineSeries::new([(m, -1.0), (m, max_exp + 1.0)], frame.stroke_width((1.5 * dpr) as u32))).map_err(err)?;
    let color = RGBColor(dot[0], dot[1], dot[2]);
    chart
        .draw_series(points.iter().map(|(x, y)| Circle::new((log2(*x), log2(*y)), (4.0 * dpr) as i32, color.filled())))
        .map_err(err)?;
    root.present().map_err(err)
}

/// Lines of (x, y) on log₂–log₂ axes, x over [2^x_exp.0, 2^x_exp.1], with a vertical mark at
/// `marker`. The y range is fitted to the data.
pub fn draw_log_lines(
    canvas: &web_sys::HtmlCanvasElement,
    lines: &[(Rgb, Vec<(f64, f64)>)],
    x_exp: (f64, f64),
    marker: f64,
    width: f64,
    ink: Ink,
) -> Result<(), String> {
    let Plot { root, dpr, text, frame, font } = plot(canvas, width, 220.0, ink)?;
    let err = |e: DrawingAreaErrorKind<_>| e.to_string();
    let log2 = |v: f64| v.max(1.0).log2();
    let ys = lines.iter().flat_map(|(_, pts)| pts.iter().map(|p| log2(p.1)));
    let (y0, y1) = ys.fold((f64::MAX, f64::MIN), |(a, b), y| (a.min(y), b.max(y)));
    let (y0, y1) = if y0 < y1 { (y0.floor(), y1.ceil()) } else { (0.0, 1.0) };
    let mut chart = ChartBuilder::on(&root)
        .margin((8.0 * dpr) as u32)
        .margin_right((22.0 * dpr) as u32)
        .x_label_area_size((24.0 * dpr) as u32)
        .y_label_area_size((56.0 * dpr) as u32)
        .build_cartesian_2d(x_exp.0..x_exp.1, y0..y1)
        .map_err(err)?;
    let x_fmt = |v: &f64| {
        let p = 2f64.powf(v.round());
        if p >= 1024.0 { format!("{}K", p / 1024.0) } else { format!("{p}") }
    };
    let y_fmt = |v: &f64| format!("2^{}", v.round());
    chart
        .configure_mesh()
        .x_labels(7)
        .y_labels(6)
        .x_label_formatter(&x_fmt)
        .y_label_formatter(&y_fmt)
        .label_style(("sans-serif", font).into_font().color(&text))
        .axis_style(frame)
        .light_line_style(frame.mix(0.12))
        .bold_line_style(frame.mix(0.25))
        .draw()
        .map_err(err)?;
    let m = log2(marker);
    chart.draw_series(LineSeries::new([(m, y0), (m, y1)], frame.stroke_width((1.5 * dpr) as u32))).map_err(err)?;
    for (color, pts) in lines {
        let color = RGBColor(color[0], color[1], color[2]);
        chart
            .draw_series(LineSeries::new(pts.iter().map(|(x, y)| (log2(*x), log2(*y))), color.stroke_width((2.5 * dpr) as u32)))
            .map_err(err)?;
    }
    root.present().map_err(err)
}
