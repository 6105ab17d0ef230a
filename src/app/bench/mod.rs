//! The benchmark mode (`?bench=1`), built only with the `bench` feature (scripts/bench.sh):
//! for each n × d_model it times the setup (tokens, embeddings, seeded weights), the core's
//! trace (from X and the weights to every intermediate kept: the work the peer does),
//! onnxruntime-web on the same layer, input and weights in the same page (with the largest
//! differences from our numbers), and the full update after a sentence edit (recompute with
//! the kept weights, redraw what is on screen). Every case runs once untimed first, then the
//! whole list forwards and backwards. Then the saturation lab's slider-to-paint and the fast
//! heatmap drawing against the naive one, the pretrained model (see `model`) and the training view's
//! model beside TensorFlow.js (see `train`). Lines go into `<pre data-testid="bench-output">` for
//! `cargo bench --bench browser` to read. Figures only: no thresholds here. In this mode
//! sentences may have up to 256 tokens (64 otherwise).

mod model;
mod peer;
mod threads;
mod train;

use super::page::Page;
use crate::chart::heatmap::{draw, draw_naive, DrawOptions, Layout, Sizing};
use crate::core::attention::run as attention;
use crate::core::embed::{positional_encoding, EmbeddingTable};
use crate::core::order::ascending;
use crate::core::projections::Projections;
use crate::core::rng::SplitMix64;
use crate::core::tokenize::tokenize;
use crate::figures::probe::{COMPUTE_MS, DRAWS, DRAW_MS, LAST_DRAW};
use crate::settings::{Stage, View};
use leptos::prelude::*;
use std::sync::atomic::Ordering;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Sequence lengths and widths measured.
const NS: [usize; 4] = [8, 32, 128, 256];
const D_MODELS: [usize; 3] = [64, 256, 512];
/// The sizes the lesson's whole update has a goal at (4 and 8 ms, issue 23).
const UPDATE_GOALS: [(usize, usize); 2] = [(32, 64), (128, 256)];
/// Repetitions per figure.
const REPS: usize = 50;

fn now() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// Wait `ms` milliseconds.
async fn sleep(ms: f64) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms as i32);
        }
    });
    let _ = JsFuture::from(promise).await;
}

/// (median, p95) of `xs` in ms.
fn median_p95(xs: Vec<f64>) -> (f64, f64) {
    let xs = ascending(&xs.iter().map(|&x| x as f32).collect::<Vec<_>>());
    let at = |q: f64| xs.get(((xs.len() as f64 - 1.0) * q).round() as usize).map_or(0.0, |&x| f64::from(x));
    (at(0.5), at(0.95))
}

/// How many back-to-back runs of `f` fill about 2 ms: the page's clock ticks in 0.1 ms (no
/// cross-origin isolation), so a sample is the mean of that many runs. The peer is timed the
/// same way (benches/peer/peer.js).
fn batch_for(mut f: impl FnMut()) -> usize {
    let t0 = now();
    f();
    (2.0 / (now() - t0).max(0.01)).ceil().clamp(1.0, 1000.0) as usize
}

/// One sample: the mean time of `batch` runs of `f`, in ms.
fn sample(batch: usize, mut f: impl FnMut()) -> f64 {
    let t0 = now();
    (0..batch).for_each(|_| f());
    (now() - t0) / batch as f64
}

/// `samples` samples of `f`, in ms.
fn time(samples: usize, mut f: impl FnMut()) -> Vec<f64> {
    let batch = batch_for(&mut f);
    (0..samples).map(|_| sample(batch, &mut f)).collect()
}

/// The time from `t0` to the end of the last drawing (or now, if nothing drew since `t0`).
fn drawn_since(t0: f64) -> f64 {
    let last = f64::from_bits(LAST_DRAW.load(Ordering::Relaxed));
    if last > t0 {
        last - t0
    } else {
        now() - t0
    }
}

/// Wait until the reactive work a change started has finished drawing.
async fn settle() {
    let mut quiet = 0;
    while quiet < 3 {
        let before = DRAWS.load(Ordering::Relaxed);
        leptos::task::tick().await;
        quiet = if DRAWS.load(Ordering::Relaxed) == before { quiet + 1 } else { 0 };
    }
}

/// Wait for the next frame to be painted.
async fn next_frame() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(w) = web_sys::window() {
            let _ = w.request_animation_frame(&resolve);
        }
    });
    let _ = JsFuture::from(promise).await;
}

/// A sentence of `n` distinct tokens; `variant` changes its last word only.
fn sentence(n: usize, variant: bool) -> String {
    let last = if variant { "v" } else { "w" };
    (0..n).map(|i| if i + 1 == n { format!("{last}{i}") } else { format!("w{i}") }).collect::<Vec<_>>().join(" ")
}

/// The largest |a − b|; infinite when the lengths differ.
fn max_diff(a: &[f32], b: impl ExactSizeIterator<Item = f32>) -> f32 {
    if a.len() != b.len() {
        return f32::INFINITY;
    }
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).fold(0.0, f32::max)
}

/// Random weights' input X for `text` and their projections, made afresh: the setup the page
/// does when nothing is kept (tokens, embeddings, positional encoding, projections).
fn setup(text: &str, d_model: usize, seed: u64) -> Option<(ndarray::Array2<f32>, Projections)> {
    let tokens = tokenize(text);
    let x = EmbeddingTable::default().embed(&tokens, d_model, seed).ok()? + &positional_encoding(tokens.len(), d_model);
    Some((x, Projections::seeded(d_model, seed).ok()?))
}

/// Show the lesson's softmax stage on random weights at `n` tokens × `d_model` (a head per 64).
async fn show_case(page: Page, n: usize, d_model: usize) {
    let heads = (d_model / 64).max(1);
    page.apply(|s, c| {
        let _ = s.set_text(&sentence(n, false), c).is_ok()
            && s.change_choice(c, |m| m.set_d_model(d_model))
            && s.change_choice(c, |m| m.set_n_heads(heads));
        let _ = s.set_head(0, c);
        s.set_view(View::Lesson);
        s.lesson_mut().set_stage(Stage::Softmax);
        s.classroom_mut().set_present(false);
        true
    });
    settle().await;
}

/// The lesson's whole update after `reps` sentence edits (recompute with the kept weights,
/// redraw what is on screen): `update_ms=… update_p95_ms=… update_compute_ms=…
/// update_draw_ms=…`, the last two the mean time of each part.
async fn time_updates(page: Page, n: usize, reps: usize) -> String {
    let mut update = Vec::with_capacity(reps);
    let counter = |c: &std::sync::atomic::AtomicU64| f64::from_bits(c.load(Ordering::Relaxed));
    let (draw0, compute0) = (counter(&DRAW_MS), counter(&COMPUTE_MS));
    for i in 0..reps {
        let t0 = now();
        page.apply(|s, c| s.set_text(&sentence(n, i % 2 == 0), c).is_ok());
        settle().await;
        update.push(drawn_since(t0));
    }
    let per_update = |c: &std::sync::atomic::AtomicU64, start: f64| (counter(c) - start) / reps.max(1) as f64;
    let (draw_ms, compute_ms) = (per_update(&DRAW_MS, draw0), per_update(&COMPUTE_MS, compute0));
    let (update_ms, update_p95) = median_p95(update);
    format!("update_ms={update_ms:.2} update_p95_ms={update_p95:.2} update_compute_ms={compute_ms:.2} update_draw_ms={draw_ms:.2}")
}

/// One case's lines: ours, and the peer's (or why it did not run).
async fn measure(page: Page, n: usize, d_model: usize, reps: usize) -> (String, String) {
    let heads = (d_model / 64).max(1);
    show_case(page, n, d_model).await;
    let (text, seed, config) = page.settings.with_untracked(|s| {
        let model = page.model.get_untracked();
        let config = s.run_options(&*model.0).attention(0, heads);
        (s.lesson().text().to_string(), s.choice().random().seed, config)
    });
    let setup_times = time(reps, || drop(setup(&text, d_model, seed)));
    let Some((x, weights)) = setup(&text, d_model, seed) else {
        return (format!("bench n={n} d_model={d_model} error=setup"), String::new());
    };
    let trace = attention(&x, None, &weights, &config).ok();
    let mut run_ours = || drop(attention(&x, None, &weights, &config));

    // Ours and the peer's samples alternate, so a slower or faster stretch of the machine
    // falls on both alike.
    let flat = |m: &ndarray::Array2<f32>| m.as_slice().map(<[f32]>::to_vec).unwrap_or_default();
    let ws = [flat(weights.w_q()), flat(weights.w_k()), flat(weights.w_v()), flat(weights.w_o())];
    let prepared = peer::prepare((n, d_model, heads), &flat(&x), [&ws[0], &ws[1], &ws[2], &ws[3]]).await;
    let (mut ours, mut theirs) = (Vec::with_capacity(reps), Vec::with_capacity(reps));
    let our_batch = batch_for(&mut run_ours);
    let their_batch = match &prepared {
        Ok(_) => peer::sample(1).await.map(|ms| (2.0 / ms.max(0.01)).ceil().clamp(1.0, 1000.0) as usize).unwrap_or(1),
        Err(_) => 0,
    };
    for _ in 0..reps {
        ours.push(sample(our_batch, &mut run_ours));
        if their_batch > 0 {
            if let Ok(ms) = peer::sample(their_batch).await {
                theirs.push(ms);
            }
        }
    }
    let (trace_ms, _) = median_p95(ours);
    let mut ratio = String::new();
    let peer_line = match prepared {
        Ok((output, peer_weights)) if !theirs.is_empty() => {
            let (run_ms, _) = median_p95(theirs);
            let (out_diff, weight_diff) = trace.as_ref().map_or((f32::INFINITY, f32::INFINITY), |t| {
                let ours = t.head_traces.iter().flat_map(|h| h.weights.iter().copied()).collect::<Vec<_>>();
                (max_diff(&output, t.output.iter().copied()), max_diff(&peer_weights, ours.into_iter()))
            });
            ratio = format!(" ratio={:.2}", trace_ms / run_ms.max(1e-6));
            format!(
                "peer ort-web n={n} d_model={d_model} run_ms={run_ms:.2} max_diff_output={out_diff:.1e} max_diff_weights={weight_diff:.1e}"
            )
        }
        Ok(_) => format!("peer ort-web n={n} d_model={d_model} unavailable: no timing"),
        Err(e) => format!("peer ort-web n={n} d_model={d_model} unavailable: {e}"),
    };

    let updates = time_updates(page, n, reps).await;
    let (setup_ms, _) = median_p95(setup_times);
    let ours = format!(
        "bench n={n} d_model={d_model} kernels={} setup_ms={setup_ms:.2} trace_ms={trace_ms:.2}{ratio} {updates}",
        crate::core::kernels::BUILD
    );
    (ours, peer_line)
}

/// What a benchmark run measures.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Mode {
    /// Everything (`?bench=1`).
    Full,
    /// The corners of the single-layer table, forwards only (`?bench=quick`), for working on
    /// the kernels.
    Quick,
    /// The training lines only (`?bench=train`), for working on training.
    Train,
    /// onnxruntime-web with two threads only (`?bench=ort2t`, a page of its own).
    PeerThreads,
    /// The lesson's whole update only, at the sizes of its goals (`?bench=update`), for
    /// working on it.
    Update,
    /// multilingual-e5-small only (`?bench=e5`, a page of its own: its memory is the model's).
    E5,
}

impl Mode {
    /// The mode a query string names.
    pub fn of(query: &str) -> Self {
        if query.contains("bench=quick") {
            Mode::Quick
        } else if query.contains("bench=train") {
            Mode::Train
        } else if query.contains("bench=ort2t") {
            Mode::PeerThreads
        } else if query.contains("bench=update") {
            Mode::Update
        } else if query.contains("bench=e5") {
            Mode::E5
        } else {
            Mode::Full
        }
    }
}

/// Run every measurement of `mode`, appending lines to the output element, then mark it done.
pub async fn run(page: Page, mode: Mode) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let Some(body) = document.body() else { return };
    let Ok(out) = document.create_element("pre") else { return };
    let _ = out.set_attribute("data-testid", "bench-output");
    let _ = body.append_child(&out);
    let print =
        |line: String| out.set_text_content(Some(&format!("{}{line}\n", out.text_content().unwrap_or_default())));

    if mode == Mode::PeerThreads {
        threads::run(&print).await;
        let _ = out.set_attribute("data-done", "true");
        return;
    }
    if mode == Mode::E5 {
        if let Err(e) = peer::load().await {
            print(format!("peer ort-web unavailable: {e}"));
        }
        model::run(page, &model::E5, &print).await;
        let _ = out.set_attribute("data-done", "true");
        return;
    }
    if mode == Mode::Train {
        train::run(&print).await;
        let _ = out.set_attribute("data-done", "true");
        return;
    }
    if mode == Mode::Update {
        for &(n, d_model) in &UPDATE_GOALS {
            show_case(page, n, d_model).await;
            let _ = time_updates(page, n, 10).await;
            print(format!("update n={n} d_model={d_model} {}", time_updates(page, n, REPS * 2).await));
        }
        let _ = out.set_attribute("data-done", "true");
        return;
    }
    let quick = mode == Mode::Quick;
    if let Err(e) = peer::load().await {
        print(format!("peer ort-web unavailable: {e}"));
    }
    let cases: Vec<(usize, usize)> = if quick {
        vec![(32, 64), (256, 64), (32, 512), (256, 512)]
    } else {
        D_MODELS.iter().flat_map(|&d| NS.iter().map(move |&n| (n, d))).collect()
    };
    // Warm-up: the Wasm engines (ours and the peer's) tier up during the first runs.
    for &(n, d_model) in &cases {
        let _ = measure(page, n, d_model, 2).await;
    }
    let passes = if quick { 1 } else { 2 };
    for (pass, order) in
        [("forward", cases.clone()), ("backward", cases.iter().rev().copied().collect())].into_iter().take(passes)
    {
        for (n, d_model) in order {
            let (ours, theirs) = measure(page, n, d_model, REPS).await;
            print(format!("{ours} pass={pass}"));
            print(format!("{theirs} pass={pass}"));
        }
    }

    if quick {
        let _ = out.set_attribute("data-done", "true");
        return;
    }
    model::run(page, &model::MINILM, &print).await;
    // The saturation lab: slider move → recompute → redraw → next painted frame.
    page.apply(|s, c| {
        s.set_text("The animal didn't cross the street because it was too tired", c).is_ok()
            && s.change_choice(c, |m| m.set_d_model(64))
            && s.change_choice(c, |m| m.set_n_heads(4))
    });
    settle().await;
    let mut slider = Vec::with_capacity(REPS);
    for i in 0..REPS {
        let t0 = now();
        page.settings.update(|s| {
            s.lab_mut().set_dk(f64::from(1u32 << (i % 11)));
        });
        settle().await;
        next_frame().await;
        slider.push(now() - t0);
    }
    let (slider_ms, slider_p95) = median_p95(slider);
    print(format!("saturation slider_to_paint_ms={slider_ms:.2} p95_ms={slider_p95:.2}"));

    // The same heatmap the fast way and the naive way.
    if let Ok(canvas) = document.create_element("canvas").map(|c| c.unchecked_into::<web_sys::HtmlCanvasElement>()) {
        let _ = body.append_child(&canvas);
        let opts = DrawOptions { ink: page.ink.get_untracked(), sizing: Sizing::DESK, highlight: (None, None) };
        for n in [8usize, 32, 64, 128, 256] {
            let mut rng = SplitMix64::new(n as u64);
            let labels: Vec<String> = (0..n).map(|i| format!("t{i}")).collect();
            let spec = crate::ui::specs::weights(
                ndarray::Array2::from_shape_fn((n, n), |_| rng.uniform() as f32),
                &labels,
                &labels,
                &ndarray::Array2::from_elem((n, n), false),
            );
            let timed = |f: &dyn Fn() -> Result<Layout, String>| median_p95(time(20, || drop(f()))).0;
            let fast = timed(&|| draw(&canvas, &spec, 900.0, opts));
            let naive = timed(&|| draw_naive(&canvas, &spec, 900.0, opts));
            print(format!("draw n={n} fast_ms={fast:.2} naive_ms={naive:.2} ratio={:.1}", naive / fast.max(1e-3)));
        }
        canvas.remove();
    }

    train::run(&print).await;
    let _ = out.set_attribute("data-done", "true");
}
