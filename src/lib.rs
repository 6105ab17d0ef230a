//! Attention Lab (自注意力实验室): teaches self-attention by running it in the browser.
//!
//! - [`core`]: the numbers (pure ndarray, tested natively and against ONNX Runtime);
//! - [`chart`]: drawing already-computed matrices on a canvas;
//! - [`app`]: the Leptos interface; [`i18n`]: every string in English and Chinese.

pub mod app;
pub mod chart;
pub mod core;
pub mod export;
pub mod i18n;
pub mod number;
pub mod panic_notice;
pub mod settings;
pub mod slug;
