//! The benchmark mode (`?bench=1`) of the real build: times the core's trace, the full update
//! after one control change (recompute and redraw of every visible panel), the saturation
//! lab's slider-to-paint, and the fast heatmap drawing against the naive one. Prints lines into
//! `<pre data-testid="bench-output">` for `cargo bench --bench browser` to read. Figures only:
//! no thresholds here. In this mode sentences may have up to 256 tokens (64 otherwise).

use super::hooks::DRAWS;
use super::page::Page;
use crate::chart::heatmap::{draw, draw_naive, DrawOptions, Layout};
use crate::core::order::ascending;
use crate::core::rng::SplitMix64;
use crate::core::scenario::compute;
use crate::settings::{Stage, View};
use leptos::prelude::*;
use std::sync::atomic::Ordering;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Sequence lengths and widths measured.
const NS: [usize; 4] = [8, 32, 128, 256];
const D_MODELS: [usize; 3] = [64, 256, 512];
/// Repetitions per figure.
const REPS: usize = 50;

fn now() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// (median, p95) of `xs` in ms.
fn median_p95(xs: Vec<f64>) -> (f64, f64) {
    let xs = ascending(&xs.iter().map(|&x| x as f32).collect::<Vec<_>>());
    let at = |q: f64| xs.get(((xs.len() as f64 - 1.0) * q).round() as usize).map_or(0.0, |&x| f64::from(x));
    (at(0.5), at(0.95))
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

/// Run every measurement, appending lines to the output element, then mark it done.
pub async fn run(page: Page) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let Some(body) = document.body() else { return };
    let Ok(out) = document.create_element("pre") else { return };
    let _ = out.set_attribute("data-testid", "bench-output");
    let _ = body.append_child(&out);
    let print =
        |line: String| out.set_text_content(Some(&format!("{}{line}\n", out.text_content().unwrap_or_default())));

    for &d_model in &D_MODELS {
        for &n in &NS {
            let text: String = (0..n).map(|i| format!("w{i}")).collect::<Vec<_>>().join(" ");
            let heads = (d_model / 64).max(1);
            page.settings.update(|s| {
                s.text = text;
                s.d_model = d_model;
                s.heads = heads;
                s.view = View::Lesson;
                s.stage = Stage::Softmax;
                s.present = false;
            });
            settle().await;
            let scenario = page.settings.with_untracked(|s| s.scenario());
            let trace: Vec<f64> = (0..REPS)
                .map(|i| {
                    let mut sc = scenario.clone();
                    sc.seed = i as u64;
                    let t0 = now();
                    let _ = compute(&sc, n);
                    now() - t0
                })
                .collect();
            let mut update = Vec::with_capacity(REPS);
            for _ in 0..REPS {
                let t0 = now();
                page.settings.update(|s| s.seed = (s.seed + 1) % 1000);
                settle().await;
                update.push(now() - t0);
            }
            let (trace_ms, _) = median_p95(trace);
            let (update_ms, update_p95) = median_p95(update);
            print(format!("bench n={n} d_model={d_model} trace_ms={trace_ms:.2} update_ms={update_ms:.2} update_p95_ms={update_p95:.2}"));
        }
    }

    // The saturation lab: slider move → recompute → redraw → next painted frame.
    page.settings.update(|s| {
        s.text = "The animal didn't cross the street because it was too tired".into();
        s.d_model = 64;
        s.heads = 4;
    });
    settle().await;
    let mut slider = Vec::with_capacity(REPS);
    for i in 0..REPS {
        let t0 = now();
        page.settings.update(|s| s.saturation_dk = 1 << (i % 11));
        settle().await;
        next_frame().await;
        slider.push(now() - t0);
    }
    let (slider_ms, slider_p95) = median_p95(slider);
    print(format!("page slider_to_paint_ms={slider_ms:.2} p95_ms={slider_p95:.2}"));

    // The same heatmap the fast way and the naive way.
    if let Ok(canvas) = document.create_element("canvas").map(|c| c.unchecked_into::<web_sys::HtmlCanvasElement>()) {
        let _ = body.append_child(&canvas);
        let opts = DrawOptions { ink: page.ink.get_untracked(), max_cell: 40.0, highlight: (None, None) };
        for n in [8usize, 32, 64, 128, 256] {
            let mut rng = SplitMix64::new(n as u64);
            let labels: Vec<String> = (0..n).map(|i| format!("t{i}")).collect();
            let spec = crate::app::specs::weights(
                ndarray::Array2::from_shape_fn((n, n), |_| rng.uniform() as f32),
                &labels,
                &labels,
                &ndarray::Array2::from_elem((n, n), false),
            );
            let time = |f: &dyn Fn() -> Result<Layout, String>| {
                median_p95(
                    (0..20)
                        .map(|_| {
                            let t0 = now();
                            let _ = f();
                            now() - t0
                        })
                        .collect(),
                )
                .0
            };
            let fast = time(&|| draw(&canvas, &spec, 900.0, opts));
            let naive = time(&|| draw_naive(&canvas, &spec, 900.0, opts));
            print(format!("draw n={n} fast_ms={fast:.2} naive_ms={naive:.2} ratio={:.1}", naive / fast.max(1e-3)));
        }
        canvas.remove();
    }
    let _ = out.set_attribute("data-done", "true");
}
