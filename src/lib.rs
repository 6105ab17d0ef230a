//! Attention Lab (自注意力实验室): teaches self-attention by running it in the browser.
//!
//! - [`core`]: the numbers (its own crate, `src/core/`: pure ndarray, tested natively and
//!   against ONNX Runtime), every model one implementation of `core::model::Model`;
//! - [`models`]: the registry of the models the lesson can show; [`settings`]: what a learner
//!   controls, by owner, and its link;
//! - [`chart`]: drawing already-computed matrices on a canvas; [`figures`]: the components that
//!   show one (the heatmap, with its export, read-out and table), taking their data as props;
//! - [`app`]: the page's Leptos interface; [`i18n`]: every string in English and Chinese;
//! - [`learn`]: the training view, [`pretrained`]: the pretrained model's views, and
//!   [`side`]: the side lessons that read only the settings, each its own .wasm loaded when
//!   its view first opens ([`hosted`]); [`bridge`]: all the page and
//!   they share; [`trainer`]: training in a pool of Web Workers (the `trainer` binary);
//!   `compute`: the downloaded models' forward passes in a Web Worker (the `forward` binary).

pub use attention_core as core;
pub use attention_core::slugged;

pub mod app;
pub mod bridge;
pub mod chart;
pub mod compute;
pub mod export;
pub mod fetch;
pub mod figures;
pub mod hosted;
pub mod i18n;
pub mod learn;
pub mod models;
pub mod number;
pub mod own_worker;
pub mod panic_notice;
pub mod percent;
pub mod predict;
pub mod pretrained;
pub mod protocol;
pub mod reading;
pub mod settings;
pub mod shared;
pub mod side;
pub mod stage_code;
pub mod stage_texts;
pub mod study_texts;
pub mod trainer;
pub mod ui;
pub mod wire;

/// The memory benchmark's build's report of its own Wasm memory (`report-memory` feature;
/// nothing otherwise):
/// every 0.5 s, `"{tag}={MB}"` on the `BroadcastChannel` "attention-lab-memory", which the
/// memory benchmark listens to (`BENCH_MEMORY_MODULES=1`, benches/memory.rs). The page, each
/// module and each worker call it once as they start; a Wasm memory never shrinks, so this is
/// what each instance holds until it ends.
#[cfg(all(target_arch = "wasm32", feature = "report-memory"))]
pub fn report_memory(tag: &'static str) {
    use wasm_bindgen::JsCast;
    let tell = wasm_bindgen::closure::Closure::<dyn Fn()>::new(move || {
        let memory = wasm_bindgen::memory().unchecked_into::<js_sys::WebAssembly::Memory>();
        let bytes = memory.buffer().unchecked_into::<js_sys::ArrayBuffer>().byte_length();
        if let Ok(channel) = web_sys::BroadcastChannel::new("attention-lab-memory") {
            let _ = channel.post_message(&format!("{tag}={}", bytes >> 20).into());
            channel.close();
        }
    });
    let global = js_sys::global();
    if let Ok(every) = js_sys::Reflect::get(&global, &"setInterval".into()) {
        let _ = every.unchecked_ref::<js_sys::Function>().call2(&global, tell.as_ref(), &500.into());
    }
    tell.forget();
}

/// Nothing outside the memory benchmark's build.
#[cfg(not(all(target_arch = "wasm32", feature = "report-memory")))]
pub fn report_memory(_tag: &'static str) {}
