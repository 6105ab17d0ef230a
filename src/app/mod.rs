//! The Leptos user interface. State lives in [`App`]; components get narrow signals.

mod heatmap;
mod root;

pub use heatmap::Heatmap;
pub use root::App;
