//! Drawing only: these modules take data that is already computed and put it on a canvas.
//! Nothing here knows what attention is; the colour maps, the layouts and the tick choice are
//! pure and tested natively, the canvas calls run in the browser. A chart is one module (its
//! drawing and its layout); `frame` is the axes the x–y charts share, `surface` the canvas
//! plumbing, `ink` the theme colours.

pub mod bars;
pub mod colormap;
pub mod curves;
pub mod frame;
pub mod heatmap;
pub mod ink;
pub mod label;
pub mod qr;
pub mod surface;
pub mod training;
pub mod xy;
