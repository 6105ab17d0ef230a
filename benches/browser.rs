//! The benchmark: serves the benchmark build (the release site with the `bench` feature, in
//! `E2E_DIST`, built by scripts/bench.sh) on 127.0.0.1, runs the page's benchmark mode
//! (`?bench=1`) in headless Chromium and prints its figures, the cold load to the first drawn
//! heatmap, and the sizes of the published .wasm and .js in `dist/` (raw and gzip). Prints
//! figures; asserts nothing about speed.

#![cfg_attr(target_arch = "wasm32", allow(unused))]

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
#[path = "../tests/e2e/browser.rs"]
mod browser;
#[cfg(not(target_arch = "wasm32"))]
#[path = "../tests/e2e/server.rs"]
mod server;

#[cfg(not(target_arch = "wasm32"))]
use browser::Browser;
#[cfg(not(target_arch = "wasm32"))]
use server::{built_in, gzip_len, published_dir, Site};
#[cfg(not(target_arch = "wasm32"))]
use std::time::{Duration, Instant};

/// The page's main thread while the largest model a learner can set trains for 6 s in the
/// training view (its pool of workers): tasks over 50 ms and the longest, as a
/// `PerformanceObserver` for long tasks saw them.
#[cfg(not(target_arch = "wasm32"))]
async fn main_thread_while_training(site: &Site) {
    let b = Browser::open(1280, 900).await;
    b.open_page(&site.url("?view=learn&lang=en&task=induction&ld=128&lh=8&ll=2&lb=256&lmlp=1")).await;
    b.wait_for("[data-testid='learn-train']").await;
    let seen = b
        .js_async(
            "const done = arguments[arguments.length - 1];
             const long = [];
             new PerformanceObserver((list) => long.push(...list.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
             document.querySelector(`[data-testid='learn-train']`).click();
             setTimeout(() => done([long.length, Math.max(0, ...long), Number(document.querySelector(`[data-testid='learn-steps']`).textContent)]), 6000);",
        )
        .await;
    println!(
        "main-thread scenario=train-largest tasks_over_50ms={} longest_task_ms={:.0} steps_in_6s={}",
        seen[0],
        seen[1].as_f64().unwrap_or(f64::NAN),
        seen[2]
    );
    b.close().await;
}

#[cfg(not(target_arch = "wasm32"))]
#[tokio::main]
async fn main() {
    let site = Site::start("").await;

    let b = Browser::open(1280, 900).await;
    // BENCH_QUICK=1: the corners only (see src/app/bench), for working on the kernels;
    // BENCH_TRAIN=1: the training lines only.
    let mode = match (std::env::var_os("BENCH_QUICK"), std::env::var_os("BENCH_TRAIN")) {
        (Some(_), _) => "quick",
        (None, Some(_)) => "train",
        _ => "1",
    };
    b.open_page(&site.url(&format!("?bench={mode}&lang=en"))).await;
    let started = Instant::now();
    let mut shown = 0;
    loop {
        // The page may be busy for a while (a long measurement): a timed-out poll is retried.
        let state = b
            .client
            .execute("const o = document.querySelector(`[data-testid='bench-output']`); return o ? [o.dataset.done === 'true', o.textContent] : [false, ''];", vec![])
            .await;
        if let Ok(state) = state {
            let text = state[1].as_str().unwrap_or_default();
            if std::env::var_os("BENCH_PROGRESS").is_some() && text.len() > shown {
                eprint!("{}", &text[shown..]);
                shown = text.len();
            }
            if state[0] == true {
                break;
            }
        }
        assert!(started.elapsed() < Duration::from_secs(900), "the benchmark did not finish in 15 minutes");
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    print!("{}", b.text_of("bench-output").await);
    println!();
    b.close().await;
    if mode == "quick" {
        return;
    }
    main_thread_while_training(&site).await;
    if mode != "1" {
        return;
    }

    // Cold load: a fresh browser each time, navigation start → first heatmap drawn.
    let mut loads = Vec::new();
    for _ in 0..5 {
        let b = Browser::open(1280, 900).await;
        b.client.goto(&site.url("?lang=en")).await.expect("navigate");
        b.wait_for("canvas[data-drawn='true']").await;
        let ms = b
            .js("const m = performance.getEntriesByName('first-heatmap')[0]; return m ? m.startTime : -1;", vec![])
            .await;
        loads.push(ms.as_f64().unwrap_or(-1.0));
        b.close().await;
    }
    loads.sort_by(f64::total_cmp);
    // Sizes of what is published, not of the benchmark build the figures above came from.
    // The page's own files (`attention-lab-<hash>…`), then the training view's module.
    let page = |suffix| built_in(&published_dir(), "attention-lab-", suffix);
    let (wasm, js, learn) = (page("_bg.wasm"), page(".js"), built_in(&published_dir(), "learn", "_bg.wasm"));
    println!(
        "size wasm_gz={} js_gz={} learn_wasm_gz={} first_heatmap_ms={:.0}",
        gzip_len(&wasm),
        gzip_len(&js),
        gzip_len(&learn),
        loads[loads.len() / 2]
    );
    println!("size wasm_raw={} js_raw={} first_heatmap_runs_ms={loads:?}", wasm.len(), js.len());
}
