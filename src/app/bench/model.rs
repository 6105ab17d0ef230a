//! The trained model's figures in the benchmark: loading it from the browser's cache, the
//! first trained heatmap after switching to it, the forward pass with every layer's trace kept
//! for n = 16 and 128 tokens beside onnxruntime-web running the same model (fp32, from
//! benches/peer/make_model.py) on the same tokens, and the Wasm memory once loaded.

use super::{median_p95, now, peer, settle, time};
use crate::app::model_loader::load;
use crate::app::page::{ModelState, Page};
use crate::core::bert::{forward, Model, Piece};
use crate::core::scenario::Source;
use crate::core::AttentionConfig;
use crate::settings::{Stage, View};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// Token counts measured ([CLS] and [SEP] included).
const NS: [usize; 2] = [16, 128];

/// Exactly `n` pieces: [CLS], common one-piece words, [SEP].
fn pieces(model: &Model, n: usize) -> Vec<Piece> {
    let words = ["the", "animal", "did", "not", "cross", "street", "because", "it", "was", "too", "tired", "wide"];
    let text: Vec<&str> = (0..n.saturating_sub(2)).map(|i| words[i % words.len()]).collect();
    model.vocab.encode(&text.join(" "))
}

/// The Wasm memory's size, MB.
fn memory_mb() -> f64 {
    let memory: js_sys::WebAssembly::Memory = wasm_bindgen::memory().unchecked_into();
    js_sys::ArrayBuffer::from(memory.buffer()).byte_length() as f64 / 1e6
}

/// Measure, printing one line per figure through `print`.
pub async fn run(page: Page, print: &impl Fn(String)) {
    // The first load downloads the file and keeps it; the timed one reads the kept copy.
    if let Err(e) = load(|_| ()).await {
        print(format!("model unavailable: {e:?}"));
        return;
    }
    let t0 = now();
    let Ok(model) = load(|_| ()).await else { return };
    let load_ms = now() - t0;
    // From asking for trained weights (model kept in the cache) to the heatmap drawn.
    page.settings.update(|s| {
        s.text = "The animal didn't cross the street because it was too tired".into();
        s.view = View::Lesson;
        s.stage = Stage::Softmax;
        s.set_source(Source::Random);
    });
    page.model.set(ModelState::Idle);
    settle().await;
    let t0 = now();
    page.apply(|s| s.set_source(Source::Minilm));
    while page.outcome.with_untracked(|o| o.as_ref().is_none_or(|o| o.0.scenario.source != Source::Minilm)) {
        leptos::task::tick().await;
        super::next_frame().await;
    }
    settle().await;
    let first_heatmap_ms = now() - t0;
    let memory = memory_mb();
    let cfg = AttentionConfig::default();
    for n in NS {
        let tokens = pieces(&model, n);
        let ids: Vec<u32> = tokens.iter().map(|p| p.id).collect();
        let ours = forward(&model, tokens.clone(), &cfg).ok();
        let (forward_ms, _) = median_p95(time(10, || drop(forward(&model, tokens.clone(), &cfg))));
        print(format!(
            "model n={n} forward_ms={forward_ms:.2} load_ms={load_ms:.0} first_heatmap_ms={first_heatmap_ms:.0} memory_mb={memory:.0}"
        ));
        let line = match peer::prepare_model(&ids).await {
            Ok((pooled, weights)) => {
                let samples: Vec<f64> = {
                    let mut v = Vec::new();
                    for _ in 0..10 {
                        if let Ok(ms) = peer::sample(1).await {
                            v.push(ms);
                        }
                    }
                    v
                };
                let (run_ms, _) = median_p95(samples);
                let diff = |a: &[f32], b: Vec<f32>| a.iter().zip(&b).map(|(x, y)| (x - y).abs()).fold(0.0f32, f32::max);
                let (pooled_diff, weight_diff) = ours.as_ref().map_or((f32::NAN, f32::NAN), |e| {
                    let layer1 = e.layers[0].trace.heads.iter().flat_map(|h| h.weights.iter().copied()).collect();
                    (diff(&pooled, e.pooled.to_vec()), diff(&weights, layer1))
                });
                format!(
                    "peer ort-web model n={n} forward_ms={run_ms:.2} ratio={:.2} max_diff_pooled={pooled_diff:.1e} max_diff_layer1_weights={weight_diff:.1e}",
                    forward_ms / run_ms.max(1e-6)
                )
            }
            Err(e) => format!("peer ort-web model n={n} unavailable: {e}"),
        };
        print(line);
    }
}
