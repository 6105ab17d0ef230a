//! The Leptos user interface. State lives in [`App`] (see `page`); components read it through
//! the [`page::Page`] context and own only their local UI state.
//!
//! - `charts`: the components that show a chart (heatmap, bars, curves, any canvas);
//! - `stages`, `stepper`: the seven-stage lesson; `saturation`: the √d_k slider experiment;
//! - `views`: the deeper lessons; `controls`, `header`: what the learner sets;
//! - `keys`, `url_sync`, `download`: the keyboard, the address bar and saving files.

#[cfg(feature = "bench")]
mod bench;
mod charts;
mod clipboard;
mod controls;
mod download;
mod header;
mod hooks;
mod keys;
mod model_loader;
pub mod page;
mod root;
mod saturation;
mod share;
mod specs;
mod stages;
mod stepper;
mod updates;
mod url_sync;
mod views;
pub mod yours;

pub use charts::Heatmap;
pub use root::App;
