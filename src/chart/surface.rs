//! Canvas plumbing shared by every chart: size the backing store for the screen's pixel
//! density, and get the 2D context.

use super::ink::Ink;
use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, IntoDrawingArea, RGBColor};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// Give `canvas` a CSS size of `width × height` and devicePixelRatio times as many device
/// pixels, so drawings stay sharp on high-DPI screens, and leave it blank. Returns the ratio.
/// A redraw at the same size only clears it: resizing reallocates the backing store and
/// restyles the page, which costs more than the drawing.
pub fn fit_canvas(canvas: &HtmlCanvasElement, width: f64, height: f64) -> Result<f64, String> {
    let dpr = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio()).clamp(1.0, 4.0);
    let (w, h) = ((width * dpr).round() as u32, (height * dpr).round() as u32);
    if (canvas.width(), canvas.height()) == (w, h) {
        context2d(canvas)?.clear_rect(0.0, 0.0, f64::from(w), f64::from(h));
        return Ok(dpr);
    }
    canvas.set_width(w);
    canvas.set_height(h);
    let style = canvas.style();
    style.set_property("width", &format!("{width}px")).map_err(|_| "cannot size the canvas")?;
    style.set_property("height", &format!("{height}px")).map_err(|_| "cannot size the canvas")?;
    Ok(dpr)
}

/// Empty `canvas`: no picture, no room, and its backing store given back (a map with no numbers
/// must not go on showing the last ones; on an iPad every backing store counts).
pub fn empty_canvas(canvas: &HtmlCanvasElement) {
    canvas.set_width(0);
    canvas.set_height(0);
    let style = canvas.style();
    let _ = style.set_property("width", "0px");
    let _ = style.set_property("height", "0px");
}

/// A canvas made ready for a plotters chart: its drawing area, its 2D context (for text) and
/// the theme's pens.
pub struct Plot {
    pub root: DrawingArea<CanvasBackend, Shift>,
    pub ctx: CanvasRenderingContext2d,
    /// Device pixels per CSS pixel.
    pub dpr: f64,
    pub text: RGBColor,
    pub frame: RGBColor,
    /// The label font size, in device pixels.
    pub font: u32,
}

/// Size `canvas` to `width × height` CSS px and open it for plotters in the colours of `ink`.
pub fn plot(canvas: &HtmlCanvasElement, width: f64, height: f64, ink: Ink) -> Result<Plot, String> {
    let dpr = fit_canvas(canvas, width, height)?;
    let backend = CanvasBackend::with_canvas_object(canvas.clone()).ok_or("no 2d context")?;
    Ok(Plot {
        root: backend.into_drawing_area(),
        ctx: context2d(canvas)?,
        dpr,
        text: RGBColor(ink.text[0], ink.text[1], ink.text[2]),
        frame: RGBColor(ink.frame[0], ink.frame[1], ink.frame[2]),
        font: (12.0 * dpr).round() as u32,
    })
}

/// The canvas's 2D context.
pub fn context2d(canvas: &HtmlCanvasElement) -> Result<CanvasRenderingContext2d, String> {
    canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into().ok())
        .ok_or_else(|| "this browser gave no 2D canvas context".to_string())
}
