//! The Leptos user interface. State lives in [`App`] (see `state`); components read it through
//! the `LabCtx` context and own only their local UI state.

mod bench;
mod charts;
mod controls;
mod download;
mod formulas;
mod header;
mod heatmap;
mod hooks;
mod keys;
mod lab;
mod root;
mod specs;
mod stages;
pub mod state;
mod stepper;
mod url_sync;
mod views;

pub use heatmap::Heatmap;
pub use root::App;
