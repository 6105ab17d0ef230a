//! Attention Lab (自注意力实验室): teaches self-attention by running it in the browser.
//!
//! - [`core`]: the numbers (its own crate, `src/core/`: pure ndarray, tested natively and
//!   against ONNX Runtime);
//! - [`chart`]: drawing already-computed matrices on a canvas;
//! - [`app`]: the Leptos interface; [`i18n`]: every string in English and Chinese;
//! - [`learn`]: the training view, its own .wasm (the `learn` binary), loaded on demand.

pub use attention_core as core;
pub use attention_core::slugged;

pub mod app;
pub mod chart;
pub mod export;
pub mod i18n;
pub mod learn;
pub mod number;
pub mod panic_notice;
pub mod reading;
pub mod settings;
