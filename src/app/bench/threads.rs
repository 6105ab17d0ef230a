//! onnxruntime-web with two threads (`?bench=ort2t`: a page of its own, since the peer fixes
//! its thread count when its first session starts), on the same single-layer cases and the
//! same model as the main run: `peer ort-web-2t …` lines. Its threads need cross-origin
//! isolation, which the benchmark's server sends (benches/browser.rs); the harness puts our
//! ratio beside each line.

use super::{median_p95, peer, sentence, setup, D_MODELS, NS, REPS};
use crate::core::model::random::RandomSetup;
use crate::fetch::load;
use crate::models::Delivery;

/// Measure, printing one line per case through `print`.
pub async fn run(print: &impl Fn(String)) {
    let isolated =
        js_sys::Reflect::get(&js_sys::global(), &"crossOriginIsolated".into()).ok().and_then(|v| v.as_bool());
    let isolated = isolated == Some(true);
    if !isolated {
        return print("peer ort-web-2t unavailable: the page is not cross-origin isolated".into());
    }
    if let Err(e) = peer::load_with_threads(2).await {
        return print(format!("peer ort-web-2t unavailable: {e}"));
    }
    let seed = RandomSetup::default().seed;
    for d_model in D_MODELS {
        for n in NS {
            let heads = (d_model / 64).max(1);
            let Some((x, w)) = setup(&sentence(n, false), d_model, seed) else { continue };
            let flat = |m: &ndarray::Array2<f32>| m.as_slice().map(<[f32]>::to_vec).unwrap_or_default();
            let ws = [flat(w.w_q()), flat(w.w_k()), flat(w.w_v()), flat(w.w_o())];
            if let Err(e) = peer::prepare((n, d_model, heads), &flat(&x), [&ws[0], &ws[1], &ws[2], &ws[3]]).await {
                print(format!("peer ort-web-2t n={n} d_model={d_model} unavailable: {e}"));
                continue;
            }
            let batch = peer::sample(1).await.map_or(1, |ms| (2.0 / ms.max(0.01)).ceil().clamp(1.0, 1000.0) as usize);
            let mut samples = Vec::with_capacity(REPS);
            for _ in 0..REPS {
                if let Ok(ms) = peer::sample(batch).await {
                    samples.push(ms);
                }
            }
            let (run_ms, _) = median_p95(samples);
            print(format!("peer ort-web-2t n={n} d_model={d_model} run_ms={run_ms:.2}"));
        }
    }
    let Delivery::Download(download) = super::model::MINILM.id.delivery() else { return };
    let Ok(model) = load(&download, |_| ()).await else {
        return print("peer ort-web-2t model unavailable: the model did not load".into());
    };
    for n in super::model::NS {
        let input = super::model::sentence(n);
        let ids: Vec<u32> = model.tokenize(&input.text).map(|t| t.iter().map(|p| p.id).collect()).unwrap_or_default();
        if let Err(e) = peer::prepare_model(super::model::MINILM.peer_file, &ids).await {
            print(format!("peer ort-web-2t model n={n} unavailable: {e}"));
            continue;
        }
        let mut samples = Vec::new();
        for _ in 0..10 {
            if let Ok(ms) = peer::sample(1).await {
                samples.push(ms);
            }
        }
        let (run_ms, _) = median_p95(samples);
        print(format!("peer ort-web-2t model n={n} forward_ms={run_ms:.2}"));
    }
}
