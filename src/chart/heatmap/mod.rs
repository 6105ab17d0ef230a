//! Draws a matrix as a heatmap on a `<canvas>`: cells as pixels (one pixel per cell into an
//! `ImageData`, then one scaled `drawImage` with smoothing off: cost grows with the cell count,
//! not the canvas size), then the token labels, the frames and the legend text with the
//! canvas's own calls (one font for all of them). The benchmark's naive baseline draws each
//! cell as a plotters rectangle instead.
//! Sharp on high-DPI screens: the canvas has devicePixelRatio device pixels per CSS pixel.

mod layout;

pub use layout::{Layout, Sizing, PROJECTOR_FONT};

use super::colormap::{Maps, Scale, BLOCKED};
use super::ink::Ink;
use super::label::short_label;
use super::surface::{context2d, fit_canvas};
use crate::number::{show, Room};
use ndarray::Array2;
#[cfg(feature = "bench")]
use plotters::prelude::*;
#[cfg(feature = "bench")]
use plotters_canvas::CanvasBackend;
use wasm_bindgen::{Clamped, JsCast};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData};

/// What to draw: already computed, owned, comparable (so a `Memo` can skip equal redraws).
#[derive(Debug, Clone, PartialEq)]
pub struct HeatmapSpec {
    /// (rows, cols).
    pub values: Array2<f32>,
    /// One label per row (queries).
    pub row_labels: Vec<String>,
    /// One label per column (keys, or feature indices).
    pub col_labels: Vec<String>,
    pub scale: Scale,
    /// (rows, cols); `true` cells are drawn in the blocked grey instead of their value.
    pub blocked: Option<Array2<bool>>,
}

/// How to draw, beyond the data.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DrawOptions {
    pub ink: Ink,
    /// The widest a cell may be, and the narrowest a labelled one (the legend's room is
    /// measured from the data).
    pub sizing: Sizing,
    /// A row and/or column to outline (the spotlight).
    pub highlight: (Option<usize>, Option<usize>),
}

/// Draw `spec` into `canvas`, `avail_width` CSS px wide at most; returns the geometry drawn.
pub fn draw(
    canvas: &HtmlCanvasElement,
    spec: &HeatmapSpec,
    avail_width: f64,
    opts: DrawOptions,
) -> Result<Layout, String> {
    let ink = opts.ink;
    let (rows, cols) = spec.values.dim();
    let layout = layout_of(spec, avail_width, opts.sizing);
    let dpr = fit_canvas(canvas, layout.width, layout.height)?;
    let ctx = context2d(canvas)?;

    let cells = cell_pixels(spec, ink.maps);
    blit(
        &ctx,
        &cells,
        cols as u32,
        rows as u32,
        (layout.grid_x, layout.grid_y),
        (layout.cell_w * cols as f64, layout.cell_h * rows as f64),
        dpr,
    )?;
    if layout.legend_bar > 0.0 {
        let bar = legend_pixels(spec.scale, 128, ink.maps);
        let bar_h = layout.legend_height();
        blit(&ctx, &bar, 1, 128, (layout.legend_x, layout.grid_y), (layout.legend_bar, bar_h), dpr)?;
    }

    labels_and_frame(&ctx, spec, &layout, dpr, ink, opts.highlight);
    Ok(layout)
}

/// A small map of `values` with no labels, frame or legend, `size` CSS px square (a
/// thumbnail, as in the model view's grid of heads).
pub fn draw_thumbnail(
    canvas: &HtmlCanvasElement,
    values: &Array2<f32>,
    scale: Scale,
    maps: Maps,
    size: f64,
) -> Result<(), String> {
    let dpr = fit_canvas(canvas, size, size)?;
    let ctx = context2d(canvas)?;
    let (rows, cols) = values.dim();
    let spec = HeatmapSpec { values: values.clone(), row_labels: vec![], col_labels: vec![], scale, blocked: None };
    blit(&ctx, &cell_pixels(&spec, maps), cols as u32, rows as u32, (0.0, 0.0), (size, size), dpr)
}

/// The naive way, kept as the benchmark's baseline: one plotters rectangle per cell (plus the
/// same labels and legend). Only in benchmark builds.
#[cfg(feature = "bench")]
pub fn draw_naive(
    canvas: &HtmlCanvasElement,
    spec: &HeatmapSpec,
    avail_width: f64,
    opts: DrawOptions,
) -> Result<Layout, String> {
    let layout = layout_of(spec, avail_width, opts.sizing);
    let dpr = fit_canvas(canvas, layout.width, layout.height)?;
    let ctx = context2d(canvas)?;
    {
        let backend = CanvasBackend::with_canvas_object(canvas.clone()).ok_or("no 2d context")?;
        let root = backend.into_drawing_area();
        let px = |v: f64| (v * dpr).round() as i32;
        for ((r, c), v) in spec.values.indexed_iter() {
            let rgb = spec.scale.color(*v, opts.ink.maps);
            let (x, y) = (layout.grid_x + c as f64 * layout.cell_w, layout.grid_y + r as f64 * layout.cell_h);
            let cell = Rectangle::new(
                [(px(x), px(y)), (px(x + layout.cell_w), px(y + layout.cell_h))],
                RGBColor(rgb[0], rgb[1], rgb[2]).filled(),
            );
            root.draw(&cell).map_err(|e| e.to_string())?;
        }
    }
    labels_and_frame(&ctx, spec, &layout, dpr, opts.ink, opts.highlight);
    Ok(layout)
}

/// RGBA for each cell, row-major: one pixel per cell.
fn cell_pixels(spec: &HeatmapSpec, maps: Maps) -> Vec<u8> {
    let mut px = Vec::with_capacity(spec.values.len() * 4);
    for ((r, c), v) in spec.values.indexed_iter() {
        let blocked = spec.blocked.as_ref().is_some_and(|b| b.get((r, c)).copied().unwrap_or(false));
        let rgb = if blocked { BLOCKED } else { spec.scale.color(*v, maps) };
        px.extend_from_slice(&[rgb[0], rgb[1], rgb[2], 255]);
    }
    px
}

/// A vertical colour bar, highest value at the top: `steps` pixels of one column.
fn legend_pixels(scale: Scale, steps: usize, maps: Maps) -> Vec<u8> {
    let (lo, hi) = scale.range();
    (0..steps)
        .flat_map(|i| {
            let t = 1.0 - i as f32 / (steps - 1) as f32;
            let c = scale.color(lo + (hi - lo) * t, maps);
            [c[0], c[1], c[2], 255]
        })
        .collect()
}

thread_local! {
    /// One off-screen canvas the blits share (the page has one thread).
    static SCRATCH: std::cell::RefCell<Option<HtmlCanvasElement>> = const { std::cell::RefCell::new(None) };
}

/// The shared off-screen canvas, made on first use.
fn scratch_canvas() -> Result<HtmlCanvasElement, String> {
    if let Some(c) = SCRATCH.with(|s| s.borrow().clone()) {
        return Ok(c);
    }
    let document = web_sys::window().and_then(|w| w.document()).ok_or("no document")?;
    let canvas: HtmlCanvasElement = document
        .create_element("canvas")
        .map_err(|_| "cannot create a canvas")?
        .dyn_into()
        .map_err(|_| "not a canvas")?;
    SCRATCH.with(|s| *s.borrow_mut() = Some(canvas.clone()));
    Ok(canvas)
}

/// Put `w × h` RGBA pixels at CSS position `at`, stretched to CSS size `size`, unsmoothed.
fn blit(
    ctx: &CanvasRenderingContext2d,
    rgba: &[u8],
    w: u32,
    h: u32,
    at: (f64, f64),
    size: (f64, f64),
    dpr: f64,
) -> Result<(), String> {
    let scratch = scratch_canvas()?;
    scratch.set_width(w);
    scratch.set_height(h);
    let image = ImageData::new_with_u8_clamped_array_and_sh(Clamped(rgba), w, h).map_err(|_| "bad image data")?;
    context2d(&scratch)?.put_image_data(&image, 0.0, 0.0).map_err(|_| "putImageData failed")?;
    ctx.set_image_smoothing_enabled(false);
    ctx.draw_image_with_html_canvas_element_and_dw_and_dh(&scratch, at.0 * dpr, at.1 * dpr, size.0 * dpr, size.1 * dpr)
        .map_err(|_| "drawImage failed".to_string())
}

/// Token labels, the frames of the grid and the colour bar, the spotlight and the colour
/// bar's numbers, with the canvas's own text and line calls: the font is set once, not once
/// per label, which is what made labels the slow part of a redraw.
fn labels_and_frame(
    ctx: &CanvasRenderingContext2d,
    spec: &HeatmapSpec,
    l: &Layout,
    dpr: f64,
    ink: Ink,
    (hl_row, hl_col): (Option<usize>, Option<usize>),
) {
    let px = |v: f64| (v * dpr).round();
    let colour = |c: [u8; 3]| format!("rgb({}, {}, {})", c[0], c[1], c[2]);
    ctx.set_font(&format!("{}px sans-serif", l.font_px * dpr));
    ctx.set_fill_style_str(&colour(ink.text));
    let text = |label: &str, x: f64, y: f64| {
        let _ = ctx.fill_text(label, x, y);
    };

    let grid_bottom = l.grid_y + l.cell_h * l.rows as f64;
    ctx.set_text_align("right");
    ctx.set_text_baseline("middle");
    for (r, label) in spec.row_labels.iter().enumerate().filter(|(i, _)| i % l.row_label_every == 0) {
        text(&short_label(label), px(l.grid_x - 5.0), px(l.grid_y + (r as f64 + 0.5) * l.cell_h));
    }
    let columns = spec.col_labels.iter().enumerate().filter(|(i, _)| i % l.col_label_every == 0);
    if l.upright_cols {
        ctx.set_text_align("center");
        ctx.set_text_baseline("top");
        for (c, label) in columns {
            text(&short_label(label), px(l.grid_x + (c as f64 + 0.5) * l.cell_w), px(grid_bottom + 5.0));
        }
    } else {
        // Written upwards, ending just under the grid.
        for (c, label) in columns {
            ctx.save();
            let _ = ctx.translate(px(l.grid_x + (c as f64 + 0.5) * l.cell_w), px(grid_bottom + 5.0));
            let _ = ctx.rotate(-std::f64::consts::FRAC_PI_2);
            text(&short_label(label), 0.0, 0.0);
            ctx.restore();
        }
    }

    let grid_right = l.grid_x + l.cell_w * l.cols as f64;
    let bar_bottom = l.grid_y + l.legend_height();
    let bar_right = l.legend_x + l.legend_bar;
    let rect = |x0: f64, y0: f64, x1: f64, y1: f64| {
        ctx.stroke_rect(px(x0), px(y0), px(x1) - px(x0), px(y1) - px(y0));
    };
    ctx.set_stroke_style_str(&colour(ink.frame));
    ctx.set_line_width(1.0);
    rect(l.grid_x, l.grid_y, grid_right, grid_bottom);
    if l.legend_bar > 0.0 {
        rect(l.legend_x, l.grid_y, bar_right, bar_bottom);
    }

    ctx.set_stroke_style_str(&colour(ink.accent));
    ctx.set_line_width((3.0 * dpr).round());
    if let Some(r) = hl_row.filter(|r| *r < l.rows) {
        rect(l.grid_x, l.grid_y + r as f64 * l.cell_h, grid_right, l.grid_y + (r + 1) as f64 * l.cell_h);
    }
    if let Some(c) = hl_col.filter(|c| *c < l.cols) {
        rect(l.grid_x + c as f64 * l.cell_w, l.grid_y, l.grid_x + (c + 1) as f64 * l.cell_w, grid_bottom);
    }

    if l.legend_bar == 0.0 {
        return;
    }
    ctx.set_text_align("left");
    ctx.set_text_baseline("middle");
    let [hi, mid, lo] = legend_ticks(spec.scale);
    for (value, y) in [(hi, l.grid_y), (mid, (l.grid_y + bar_bottom) / 2.0), (lo, bar_bottom)] {
        text(&show(value, Room::Legend), px(bar_right + 4.0), px(y));
    }
}

/// Where `spec`'s parts go in `avail_width`, the legend given the room its numbers need.
fn layout_of(spec: &HeatmapSpec, avail_width: f64, sizing: Sizing) -> Layout {
    let (rows, cols) = spec.values.dim();
    let sizing = Sizing { legend_chars: legend_chars(spec.scale), ..sizing };
    Layout::fit_with(avail_width, sizing, rows, cols, &spec.row_labels, &spec.col_labels)
}

/// The legend's numbers: its top, middle and bottom.
fn legend_ticks(scale: Scale) -> [f32; 3] {
    let (lo, hi) = scale.range();
    [hi, (lo + hi) / 2.0, lo]
}

/// The longest of the legend's numbers, in characters (the room the layout leaves them).
fn legend_chars(scale: Scale) -> usize {
    legend_ticks(scale).iter().map(|&v| show(v, Room::Legend).chars().count()).max().unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocked_cells_are_grey_and_pixels_are_row_major() {
        let spec = HeatmapSpec {
            values: ndarray::arr2(&[[0.0, 1.0], [0.5, 0.25]]),
            row_labels: vec![],
            col_labels: vec![],
            scale: Scale::Sequential { min: 0.0, max: 1.0 },
            blocked: Some(ndarray::arr2(&[[false, true], [false, false]])),
        };
        let px = cell_pixels(&spec, Maps::Standard);
        assert_eq!(px.len(), 16);
        assert_eq!(&px[4..7], &BLOCKED);
        assert_eq!(&px[0..3], &spec.scale.color(0.0, Maps::Standard));
        assert_eq!(&px[12..15], &spec.scale.color(0.25, Maps::Standard));
    }
}
