//! Numeric charts for the deeper views: a histogram with a reference density curve, and
//! log₂–log₂ charts of lines and points.

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

/// "0.5", "64", "2K", "8G": powers of two for an axis in log₂ units (binary prefixes).
fn pow2_label(v: &f64) -> String {
    let e = v.round() as i32;
    if e < 0 {
        return format!("{:.1}", 2f64.powi(e));
    }
    let (prefix, rest) = match e / 10 {
        0 => ("", e),
        1 => ("K", e - 10),
        2 => ("M", e - 20),
        3 => ("G", e - 30),
        _ => ("T", e - 40),
    };
    format!("{}{prefix}", 1u64 << rest.min(60))
}

/// Draw `c` `width` CSS px wide.
pub fn draw_log_log(canvas: &web_sys::HtmlCanvasElement, c: &LogLog, width: f64, ink: Ink) -> Result<(), String> {
    let Plot { root, dpr, text, frame, font } = plot(canvas, width, 220.0, ink)?;
    let err = |e: DrawingAreaErrorKind<_>| e.to_string();
    let log2 = |v: f64| v.max(1e-9).log2();
    let (y0, y1) = c.y_exp.unwrap_or_else(|| {
        let ys = c.lines.iter().flat_map(|(_, pts)| pts.iter()).chain(c.dots.iter().flat_map(|d| d.1.iter())).map(|p| log2(p.1));
        let (lo, hi) = ys.fold((f64::MAX, f64::MIN), |(a, b), y| (a.min(y), b.max(y)));
        if lo < hi { (lo.floor(), hi.ceil()) } else { (0.0, 1.0) }
    });
    let mut chart = ChartBuilder::on(&root)
        .margin((8.0 * dpr) as u32)
        .margin_right((22.0 * dpr) as u32)
        .x_label_area_size((24.0 * dpr) as u32)
        .y_label_area_size((56.0 * dpr) as u32)
        .build_cartesian_2d(c.x_exp.0..c.x_exp.1, y0..y1)
        .map_err(err)?;
    chart
        .configure_mesh()
        .x_labels(7)
        .y_labels(6)
        .x_label_formatter(&pow2_label)
        .y_label_formatter(&pow2_label)
        .label_style(("sans-serif", font).into_font().color(&text))
        .axis_style(frame)
        .light_line_style(frame.mix(0.12))
        .bold_line_style(frame.mix(0.25))
        .draw()
        .map_err(err)?;
    if c.diagonal {
        let (a, b) = (c.x_exp.0.max(y0), c.x_exp.1.min(y1));
        chart.draw_series(LineSeries::new([(a, a), (b, b)], text.stroke_width((1.5 * dpr) as u32))).map_err(err)?;
    }
    let m = log2(c.marker);
    chart.draw_series(LineSeries::new([(m, y0), (m, y1)], frame.stroke_width((1.5 * dpr) as u32))).map_err(err)?;
    for (color, pts) in c.lines {
        let color = RGBColor(color[0], color[1], color[2]);
        chart
            .draw_series(LineSeries::new(pts.iter().map(|(x, y)| (log2(*x), log2(*y))), color.stroke_width((2.5 * dpr) as u32)))
            .map_err(err)?;
    }
    if let Some((color, pts)) = c.dots {
        let color = RGBColor(color[0], color[1], color[2]);
        chart
            .draw_series(pts.iter().map(|(x, y)| Circle::new((log2(*x), log2(*y)), (4.0 * dpr) as i32, color.filled())))
            .map_err(err)?;
    }
    root.present().map_err(err)
}

#[cfg(test)]
mod tests {
    use super::pow2_label;

    #[test]
    fn axis_labels_are_powers_of_two() {
        assert_eq!([pow2_label(&0.0), pow2_label(&6.0), pow2_label(&17.0), pow2_label(&-1.0)], ["1", "64", "128K", "0.5"]);
        assert_eq!([pow2_label(&20.0), pow2_label(&33.0), pow2_label(&43.0)], ["1M", "8G", "8T"]);
    }
}
