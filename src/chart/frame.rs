//! The axes every x–y chart shares (bars, curves, histogram, log–log): a data rectangle with
//! grid lines, tick labels and axis lines, and data → pixel mapping for what is drawn in it.
//! Lines, rectangles and dots are plotters' pixel-space elements, so the four chart kinds share
//! one copy of the drawing code in the .wasm instead of compiling plotters' chart builder once
//! per coordinate type; labels are the canvas's own text calls, the font set once per chart.
//! Tick choice and labels are pure and tested natively.

use super::surface::Plot;
use plotters::prelude::*;

/// A tick: its position in data units and its label.
pub type Tick = (f64, String);

/// What the axes show.
pub struct Axes {
    /// Data ranges, (low, high).
    pub x: (f64, f64),
    pub y: (f64, f64),
    pub x_ticks: Vec<Tick>,
    pub y_ticks: Vec<Tick>,
    /// Vertical grid lines at the x ticks (horizontal ones are always drawn).
    pub x_grid: bool,
    /// Write the x labels upwards (long token labels under narrow bars).
    pub rotate_x: bool,
    /// Room for the labels, CSS px: (left of the frame, under it).
    pub label_room: (f64, f64),
}

/// Axes drawn on a plot; maps data points into the data rectangle.
pub struct Frame<'a> {
    plot: &'a Plot,
    /// The data rectangle in device pixels.
    left: f64,
    top: f64,
    right: f64,
    bottom: f64,
    x: (f64, f64),
    y: (f64, f64),
}

const TOP_MARGIN: f64 = 8.0;
/// Room for half of the last x label.
const RIGHT_MARGIN: f64 = 22.0;

impl<'a> Frame<'a> {
    /// Draw `axes` on `plot` and return the frame to draw data into.
    pub fn draw(plot: &'a Plot, axes: &Axes) -> Result<Self, String> {
        let d = plot.dpr;
        let (w, h) = plot.root.dim_in_pixel();
        let frame = Frame {
            plot,
            left: axes.label_room.0 * d,
            top: TOP_MARGIN * d,
            right: (w as f64 - RIGHT_MARGIN * d).max(axes.label_room.0 * d + 1.0),
            bottom: (h as f64 - axes.label_room.1 * d).max(TOP_MARGIN * d + 1.0),
            x: axes.x,
            y: axes.y,
        };
        let grid = plot.frame.mix(0.18).stroke_width(1);
        // Labels are drawn with the canvas's own text calls, the font set once for all of them.
        plot.ctx.set_font(&format!("{}px sans-serif", plot.font));
        for (v, label) in &axes.y_ticks {
            let y = frame.py(*v);
            frame.path(&[(frame.left, y), (frame.right, y)], grid)?;
            frame.label(label, (frame.left - 5.0 * d, y), ("right", "middle"), false);
        }
        let x_anchor = if axes.rotate_x { ("right", "middle") } else { ("center", "top") };
        for (v, label) in &axes.x_ticks {
            let x = frame.px(*v);
            if axes.x_grid {
                frame.path(&[(x, frame.top), (x, frame.bottom)], grid)?;
            }
            frame.label(label, (x, frame.bottom + 5.0 * d), x_anchor, axes.rotate_x);
        }
        let axis = plot.frame.stroke_width(1);
        frame.path(&[(frame.left, frame.top), (frame.left, frame.bottom), (frame.right, frame.bottom)], axis)?;
        Ok(frame)
    }

    /// A polyline through data points, `width` CSS px wide.
    pub fn line(
        &self,
        points: impl IntoIterator<Item = (f64, f64)>,
        color: RGBColor,
        width: f64,
    ) -> Result<(), String> {
        let pts: Vec<(f64, f64)> = points.into_iter().map(|p| self.at(p)).collect();
        self.path(&pts, color.stroke_width((width * self.plot.dpr).round().max(1.0) as u32))
    }

    /// A filled rectangle between two data corners.
    pub fn rect(&self, a: (f64, f64), b: (f64, f64), fill: ShapeStyle) -> Result<(), String> {
        let (a, b) = (pixel(self.at(a)), pixel(self.at(b)));
        self.plot.root.draw(&Rectangle::new([a, b], fill)).map_err(|e| e.to_string())
    }

    /// A filled dot of `radius` CSS px at a data point.
    pub fn dot(&self, p: (f64, f64), radius: f64, color: RGBColor) -> Result<(), String> {
        let r = (radius * self.plot.dpr).round() as i32;
        self.plot.root.draw(&Circle::new(pixel(self.at(p)), r, color.filled())).map_err(|e| e.to_string())
    }

    /// A mark in the label font with its bottom centre at a data point.
    pub fn mark(&self, text: &str, p: (f64, f64)) {
        self.label(text, self.at(p), ("center", "bottom"), false);
    }

    /// Show everything drawn.
    pub fn finish(self) -> Result<(), String> {
        self.plot.root.present().map_err(|e| e.to_string())
    }

    /// Device pixel x of data x.
    fn px(&self, x: f64) -> f64 {
        self.left + (x - self.x.0) / span(self.x) * (self.right - self.left)
    }

    /// Device pixel y of data y (up is larger).
    fn py(&self, y: f64) -> f64 {
        self.bottom - (y - self.y.0) / span(self.y) * (self.bottom - self.top)
    }

    /// A data point in device pixels, kept inside the data rectangle.
    fn at(&self, (x, y): (f64, f64)) -> (f64, f64) {
        (self.px(x).clamp(self.left, self.right), self.py(y).clamp(self.top, self.bottom))
    }

    fn path(&self, pts: &[(f64, f64)], style: ShapeStyle) -> Result<(), String> {
        let pts: Vec<(i32, i32)> = pts.iter().copied().map(pixel).collect();
        self.plot.root.draw(&PathElement::new(pts, style)).map_err(|e| e.to_string())
    }

    /// `text` at device pixel `at`, anchored by (text-align, text-baseline); written upwards
    /// when `rotate`.
    fn label(&self, text: &str, at: (f64, f64), (align, baseline): (&str, &str), rotate: bool) {
        let ctx = &self.plot.ctx;
        let RGBColor(r, g, b) = self.plot.text;
        ctx.set_fill_style_str(&format!("rgb({r}, {g}, {b})"));
        ctx.set_text_align(align);
        ctx.set_text_baseline(baseline);
        let (x, y) = (at.0.round(), at.1.round());
        if rotate {
            ctx.save();
            let _ = ctx.translate(x, y);
            let _ = ctx.rotate(-std::f64::consts::FRAC_PI_2);
            let _ = ctx.fill_text(text, 0.0, 0.0);
            ctx.restore();
        } else {
            let _ = ctx.fill_text(text, x, y);
        }
    }
}

fn pixel((x, y): (f64, f64)) -> (i32, i32) {
    (x.round() as i32, y.round() as i32)
}

/// The width of a range, never zero (a flat range still maps somewhere).
fn span((lo, hi): (f64, f64)) -> f64 {
    let s = hi - lo;
    if s.abs() > f64::EPSILON {
        s
    } else {
        1.0
    }
}

/// Round numbers covering [lo, hi] about `count` intervals apart: steps of 1, 2 or 5 × 10^k.
pub fn round_ticks(lo: f64, hi: f64, count: usize) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite() && hi > lo) {
        return vec![];
    }
    let raw = (hi - lo) / count.max(1) as f64;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step =
        [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * magnitude).find(|s| *s >= raw * 0.999).unwrap_or(10.0 * magnitude);
    let (first, last) = ((lo / step - 1e-9).ceil() as i64, (hi / step + 1e-9).floor() as i64);
    (first..=last).map(|k| k as f64 * step).collect()
}

/// `ticks` labelled with as many decimals as their spacing needs: "0.5", "20", never "-0".
pub fn round_labels(ticks: &[f64]) -> Vec<Tick> {
    let step = match ticks {
        [a, b, ..] => b - a,
        _ => 1.0,
    };
    let decimals = if step >= 1.0 { 0 } else { (-step.log10() - 1e-9).ceil() as usize };
    ticks
        .iter()
        .map(|&v| {
            let s = format!("{v:.decimals$}");
            let zero = s.trim_start_matches('-').chars().all(|c| c == '0' || c == '.');
            (v, if zero { s.trim_start_matches('-').to_string() } else { s })
        })
        .collect()
}

/// Whole exponents in [lo, hi], evenly stepped, at most `count` of them, labelled as the
/// powers of two they stand for (an axis in log₂ units).
pub fn pow2_ticks(lo: f64, hi: f64, count: usize) -> Vec<Tick> {
    if !(lo.is_finite() && hi.is_finite()) || hi < lo {
        return vec![];
    }
    let (a, b) = (lo.ceil() as i64, hi.floor() as i64);
    if b < a {
        return vec![];
    }
    let step = ((b - a) as usize).div_ceil(count.saturating_sub(1).max(1)).max(1);
    (a..=b).step_by(step).map(|e| (e as f64, pow2_label(e))).collect()
}

/// "0.5", "64", "2K", "8G": 2^e with a binary prefix.
pub fn pow2_label(e: i64) -> String {
    if e < 0 {
        return format!("{:.1}", 2f64.powi(e.max(-60) as i32));
    }
    let (prefix, rest) = match e / 10 {
        0 => ("", e),
        1 => ("K", e - 10),
        2 => ("M", e - 20),
        3 => ("G", e - 30),
        _ => ("T", e - 40),
    };
    format!("{}{prefix}", 1u64 << rest.clamp(0, 60))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_ticks_use_one_two_five_steps_inside_the_range() {
        assert_eq!(round_ticks(0.0, 1.0, 2), vec![0.0, 0.5, 1.0]);
        assert_eq!(round_ticks(-32.0, 32.0, 6), vec![-20.0, 0.0, 20.0]);
        assert_eq!(round_ticks(-32.0, 32.0, 8), vec![-30.0, -20.0, -10.0, 0.0, 10.0, 20.0, 30.0]);
        assert_eq!(round_ticks(0.0, 330.0, 4), vec![0.0, 100.0, 200.0, 300.0]);
        assert!(round_ticks(1.0, 1.0, 4).is_empty() && round_ticks(f64::NAN, 1.0, 4).is_empty());
    }

    #[test]
    fn round_labels_have_the_decimals_the_step_needs() {
        let labels: Vec<String> = round_labels(&[-0.5, 0.0, 0.5]).into_iter().map(|t| t.1).collect();
        assert_eq!(labels, ["-0.5", "0.0", "0.5"]);
        let labels: Vec<String> = round_labels(&[-20.0, 0.0, 20.0]).into_iter().map(|t| t.1).collect();
        assert_eq!(labels, ["-20", "0", "20"]);
        assert_eq!(round_labels(&[-1e-12, 1.0])[0].1, "0");
    }

    #[test]
    fn pow2_ticks_are_whole_exponents_and_at_most_count() {
        let t = pow2_ticks(0.0, 10.0, 6);
        assert_eq!(t.iter().map(|t| t.1.as_str()).collect::<Vec<_>>(), ["1", "4", "16", "64", "256", "1K"]);
        assert!(pow2_ticks(0.0, 40.0, 7).len() <= 7);
        assert!(pow2_ticks(0.3, 0.7, 6).is_empty());
        assert_eq!(pow2_ticks(-1.0, 0.0, 6).iter().map(|t| t.1.as_str()).collect::<Vec<_>>(), ["0.5", "1"]);
    }

    #[test]
    fn pow2_labels_use_binary_prefixes() {
        assert_eq!([pow2_label(0), pow2_label(6), pow2_label(17), pow2_label(-1)], ["1", "64", "128K", "0.5"]);
        assert_eq!([pow2_label(20), pow2_label(33), pow2_label(43)], ["1M", "8G", "8T"]);
    }
}
