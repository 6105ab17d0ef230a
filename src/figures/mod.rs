//! The components that show a chart: each takes its data, its colours and its size as props,
//! owns its canvas and redraws it when one of them changes, and leaves the drawing to
//! `crate::chart`. The page's lesson and the training view's module both use them.
//!
//! - [`Heatmap`]: one matrix, captioned with its shape, with its parts beside it: the
//!   export buttons, the read-out of the cell under the pointer and the table of values;
//! - [`CanvasChart`]: any other chart (bars, curves, histograms, a run's history);
//! - [`heads`]: the boards of the experiments on heads (switches, one number per head).
//!
//! `probe` counts draws and times work for the benchmark, in benchmark builds only.

mod canvas;
pub mod download;
mod format;
mod frames;
pub mod heads;
mod heatmap;
mod parts;
#[macro_use]
pub mod probe;
pub mod resize;

pub use canvas::CanvasChart;
pub use format::caption;
pub use heatmap::Heatmap;
pub use resize::{use_resize_tick, use_width, width_now};
