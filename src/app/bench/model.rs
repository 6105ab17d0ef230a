//! A pretrained model's figures in the benchmark: loading it from the browser's cache, the
//! first pretrained heatmap after switching to it, the forward pass with every layer's trace
//! kept in the forward worker (where the page runs it; with the build of the kernels it chose)
//! and on the page's thread, beside onnxruntime-web running the same model (fp32, from
//! benches/peer/make_model.py) on the same tokens, and the page's Wasm memory once loaded.
//! MiniLM at n = 16 and 128 tokens (`model n=…` lines, in the main run) and multilingual-e5-small
//! at 16 and 64 (`model e5 n=…`, in a page of its own, `?bench=e5`, so its memory is its own).

use super::{median_p95, now, peer, settle, sleep, time};
use crate::app::page::Page;
use crate::compute::client::{Forwarder, Reply};
use crate::compute::message::{SweepQuestion, Work};
use crate::compute::sweeper::{Heard, Sweeper};
use crate::core::ablate::{Ablation, Replacement};
use crate::core::intervene::{Experiment, Readout};
use crate::core::model::{Encoding, Input, Model, Origin, RunOptions};
use crate::fetch::load;
use crate::fetch::LoadState;
use crate::models::{Delivery, ModelId};
use crate::settings::{Stage, View};
use leptos::prelude::*;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;

/// Token counts measured for MiniLM ([CLS] and [SEP] included).
pub(super) const NS: [usize; 2] = [16, 128];

/// One pretrained model's benchmark: which, its lines' prefix, the token counts, the peer's
/// graph.
pub struct Bench {
    /// The model, as the weights switch names it.
    pub id: ModelId,
    /// What its lines start with (`model`, `model e5`).
    pub prefix: &'static str,
    /// The token counts measured, the frame included.
    pub ns: &'static [usize],
    /// The peer's graph of the same model, in the benchmark build's `peer/` folder.
    pub peer_file: &'static str,
}

/// all-MiniLM-L6-v2, as the main run measures it.
pub const MINILM: Bench = Bench { id: ModelId::Minilm, prefix: "model", ns: &NS, peer_file: "minilm.onnx" };

/// multilingual-e5-small, in its own page.
pub const E5: Bench = Bench { id: ModelId::E5, prefix: "model e5", ns: &[16, 64], peer_file: "e5.onnx" };

/// A sentence of `n` tokens with [CLS] and [SEP]: common one-piece words.
pub(super) fn sentence(n: usize) -> Input {
    let words = ["the", "animal", "did", "not", "cross", "street", "because", "it", "was", "too", "tired", "wide"];
    let text: Vec<&str> = (0..n.saturating_sub(2)).map(|i| words[i % words.len()]).collect();
    Input { text: text.join(" "), kv_text: None }
}

/// The Wasm memory's size, MB.
fn memory_mb() -> f64 {
    let memory: js_sys::WebAssembly::Memory = wasm_bindgen::memory().unchecked_into();
    js_sys::ArrayBuffer::from(memory.buffer()).byte_length() as f64 / 1e6
}

/// Measure `bench`, printing one line per figure through `print`.
pub async fn run(page: Page, bench: &Bench, print: &impl Fn(String)) {
    let Bench { id, prefix, ns, peer_file } = *bench;
    let Delivery::Download(download) = id.delivery() else { return };
    // The first load downloads the file and keeps it; the timed one reads the kept copy.
    if let Err(e) = load(&download, |_| ()).await {
        print(format!("model unavailable: {e:?}"));
        return;
    }
    // From asking for the pretrained weights (model kept in the cache) to the heatmap drawn.
    let seeded = crate::models::ModelId::default();
    page.apply(|s, c| {
        let _ = s.set_model(seeded, c);
        let _ = s.set_text("The animal didn't cross the street because it was too tired", c);
        s.set_view(View::Lesson);
        s.lesson_mut().set_stage(Stage::Softmax);
        true
    });
    page.models.update(|m| m.forget(id));
    page.set_load_state(id, LoadState::Idle);
    settle().await;
    let t0 = now();
    page.apply(|s, c| s.set_model(id, c));
    let pretrained = |o: &crate::core::model::Outcome| matches!(o.shape().origin, Origin::Pretrained { .. });
    while page.outcome.with_untracked(|o| o.as_ref().is_none_or(|o| !pretrained(&o.0)))
        || page.settings.with_untracked(|s| s.choice().id()) != id
    {
        leptos::task::tick().await;
        super::next_frame().await;
    }
    settle().await;
    let first_heatmap_ms = now() - t0;
    // The page's memory as the lesson holds the model (before the benchmark's own copy below).
    let memory = memory_mb();
    let t0 = now();
    let Ok(model) = load(&download, |_| ()).await else { return };
    let load_ms = now() - t0;
    let options = RunOptions::default();
    let worker = WorkerRun::start();
    for &n in ns {
        let input = sentence(n);
        let ids: Vec<u32> = model.tokenize(&input.text).map(|t| t.iter().map(|p| p.id).collect()).unwrap_or_default();
        if ids.len() != n {
            print(format!("{prefix} n={n}: the sentence is {} tokens to this model", ids.len()));
        }
        let ours = model.forward(&input, &options).ok();
        let (page_ms, _) = median_p95(time(10, || drop(model.forward(&input, &options))));
        // The page's path: the forward worker (its own build of the kernels), asked and
        // answered as the lesson asks: the pass in the worker, and the whole round trip.
        let (mut in_worker, mut round_trip, mut kernels) = (Vec::new(), Vec::new(), "none".to_string());
        if let Some(worker) = &worker {
            for i in 0..11 {
                // Two temperatures in turn: each question is a new one.
                let options = RunOptions { temperature: if i % 2 == 0 { 1.0 } else { 1.01 }, ..RunOptions::default() };
                let t0 = now();
                if let Some(work) = worker.ask(id, std::sync::Arc::clone(&model), &input, options).await {
                    if i > 0 {
                        in_worker.push(work.ms);
                        round_trip.push(now() - t0);
                    }
                    kernels = work.kernels;
                }
            }
        }
        let (forward_ms, _) = median_p95(in_worker);
        let (round_trip_ms, _) = median_p95(round_trip);
        print(format!(
            "{prefix} n={n} forward_ms={forward_ms:.2} kernels={kernels} round_trip_ms={round_trip_ms:.2} page_forward_ms={page_ms:.2} load_ms={load_ms:.0} first_heatmap_ms={first_heatmap_ms:.0} memory_mb={memory:.0}"
        ));
        if n == 16 {
            if let Some(intact) = &ours {
                let worker_ms = sweep_in_worker(id, &input, &intact.options).await;
                print(format!("{} sweep_worker_ms={worker_ms:.0}", ablate_line(&*model, &input, intact, page_ms)));
            }
        }
        let line = match peer::prepare_model(peer_file, &ids).await {
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
                    let layer1 = e.layers[0].trace.head_traces.iter().flat_map(|h| h.weights.iter().copied()).collect();
                    (diff(&pooled, e.pooled().to_vec()), diff(&weights, layer1))
                });
                format!(
                    "peer ort-web {prefix} n={n} forward_ms={run_ms:.2} ratio={:.2} max_diff_pooled={pooled_diff:.1e} max_diff_layer1_weights={weight_diff:.1e}",
                    forward_ms / run_ms.max(1e-6)
                )
            }
            Err(e) => format!("peer ort-web {prefix} n={n} unavailable: {e}"),
        };
        print(line);
    }
}

/// Switching heads off on the page's thread, on `intact` (the model's run on `input`): one
/// head of layer 1 (every layer after the embeddings runs again), one of the last layer (the
/// layers before it are reused), and the sweep that switches every head off alone in turn, beside
/// the whole forward pass (`forward_ms`).
fn ablate_line(model: &dyn Model, input: &Input, intact: &Encoding, forward_ms: f64) -> String {
    let shape = model.shape();
    let (layers, heads) = (shape.n_layers, shape.n_heads);
    let off =
        |layer: usize| RunOptions { ablation: Ablation::one(layer, 0, Replacement::Zero), ..intact.options.clone() };
    let (first, last) = (off(0), off(layers.saturating_sub(1)));
    let (one_ms, _) = median_p95(time(10, || drop(model.ablated(input, intact, &first))));
    let (last_ms, _) = median_p95(time(10, || drop(model.ablated(input, intact, &last))));
    let t0 = now();
    let experiment = Experiment { input: input.clone(), intact: intact.clone(), other: None };
    let swept = experiment.sweep(model, Replacement::Zero, Readout::Final, |_, _, _| ());
    let sweep_ms = now() - t0;
    let ok = if swept.is_ok() { "" } else { " sweep_failed=1" };
    format!(
        "ablate model={} n={} heads={} one_ms={one_ms:.2} last_layer_ms={last_ms:.2} forward_ms={forward_ms:.2} sweep_ms={sweep_ms:.0}{ok}",
        shape.origin.name(),
        intact.tokens.len(),
        layers * heads
    )
}

/// The sweep as the model view runs it: in a forward worker of its own, started for it (the
/// model brought from the browser's cache), until its last head is in (ms; NaN if it failed).
async fn sweep_in_worker(id: ModelId, input: &Input, options: &RunOptions) -> f64 {
    let question = SweepQuestion {
        number: 1,
        model: id,
        input: input.clone(),
        options: options.clone(),
        replacement: Replacement::Zero,
        readout: Readout::Final,
        other: None,
    };
    let done = Rc::new(std::cell::Cell::new(None::<bool>));
    let heard = Rc::clone(&done);
    let t0 = now();
    let sweeper = Sweeper::start(&question, move |h| match h {
        Heard::Head { done, of, .. } if done == of => heard.set(Some(true)),
        Heard::Head { .. } => {}
        Heard::Failed(_) => heard.set(Some(false)),
    });
    if !matches!(sweeper, Some(Ok(_))) {
        return f64::NAN;
    }
    while done.get().is_none() && now() - t0 < 120_000.0 {
        sleep(20.0).await;
    }
    if done.get() == Some(true) {
        now() - t0
    } else {
        f64::NAN
    }
}

/// The page's forward worker, driven one question at a time.
struct WorkerRun {
    forwarder: Forwarder,
    replies: Rc<RefCell<Vec<Option<Work>>>>,
}

impl WorkerRun {
    fn start() -> Option<WorkerRun> {
        let replies = Rc::new(RefCell::new(Vec::new()));
        let kept = Rc::clone(&replies);
        let forwarder = Forwarder::new(move |reply: Reply| kept.borrow_mut().push(reply.result.ok().and(reply.work)))?;
        Some(WorkerRun { forwarder, replies })
    }

    /// How the worker computed `model` on `input`, once it answers.
    async fn ask(
        &self,
        id: ModelId,
        model: std::sync::Arc<dyn crate::core::model::Model>,
        input: &Input,
        options: RunOptions,
    ) -> Option<Work> {
        self.forwarder.ask(id, model, input.clone(), options);
        loop {
            if let Some(answer) = self.replies.borrow_mut().pop() {
                return answer;
            }
            super::next_frame().await;
        }
    }
}
