//! Drawing only: these modules take data that is already computed and put it on a canvas.
//! Nothing here knows what attention is; the colour maps and the layout are pure and tested
//! natively, the canvas calls run in the browser.

pub mod bars;
pub mod colormap;
pub mod curves;
pub mod frame;
pub mod heatmap;
pub mod layout;
pub mod surface;
pub mod xy;
