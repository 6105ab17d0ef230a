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
#[path = "../tests/e2e/engine.rs"]
mod engine;
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

/// The page's benchmark mode `mode` (`?bench=…`): its lines once it is done.
#[cfg(not(target_arch = "wasm32"))]
async fn bench_page(site: &Site, mode: &str) -> String {
    let b = Browser::open(1280, 900).await;
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
    let text = b.text_of("bench-output").await;
    b.close().await;
    text
}

/// The value of `key=` in `line`.
#[cfg(not(target_arch = "wasm32"))]
fn field(line: &str, key: &str) -> Option<f64> {
    line.split_whitespace().find_map(|w| w.strip_prefix(key)?.strip_prefix('=')?.parse().ok())
}

/// A `peer ort-web-2t …` line with `ratio=` ours ÷ theirs, ours read from the main run's lines
/// for the same case (the single layer's first pass, or the model's worker forward).
#[cfg(not(target_arch = "wasm32"))]
fn with_our_ratio(line: &str, ours: &str) -> String {
    let case = |l: &str| (field(l, "n"), field(l, "d_model"));
    let (theirs, our_key, prefix) = match line.contains(" model ") {
        true => (field(line, "forward_ms"), "forward_ms", "model "),
        false => (field(line, "run_ms"), "trace_ms", "bench "),
    };
    let ours = ours.lines().find(|l| l.starts_with(prefix) && case(l) == case(line)).and_then(|l| field(l, our_key));
    match (ours, theirs) {
        (Some(o), Some(t)) if t > 0.0 => format!("{line} ratio={:.2}", o / t),
        _ => line.to_string(),
    }
}

/// 21 × "the cat sat on the mat": 126 words, 128 tokens with [CLS] and [SEP], the most the
/// pretrained model reads.
#[cfg(not(target_arch = "wasm32"))]
const SENTENCE_128: &str = "the cat sat on the mat";

/// The page's main thread while the pretrained model computes in its worker: typing a 128-token
/// sentence into the sentence box one character every 20 ms (`type-128-minilm`), and dragging
/// the temperature slider ten steps, one every 100 ms, at 128 tokens (`slider-minilm-128`).
/// Each waits for the last answer; tasks over 50 ms and the longest, as a `PerformanceObserver`
/// for long tasks saw them, and how long the last answer took after the last change.
#[cfg(not(target_arch = "wasm32"))]
async fn main_thread_with_the_pretrained_model(site: &Site) {
    let long = vec![SENTENCE_128; 21].join(" ");
    let settled = "const main = document.querySelector('.page__main');
         const settled = async () => { while (main.dataset.computing !== 'false') await new Promise((r) => setTimeout(r, 5)); };
         const long = [];
         new PerformanceObserver((list) => long.push(...list.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
         const report = (t0) => done([long.length, Math.max(0, ...long), performance.now() - t0]);";
    let scenarios = [
        (
            "type-128-minilm",
            "the".to_string(),
            "const box = document.querySelector(`[data-testid='token-input']`);
             let t0 = 0;
             for (const c of TYPED) {
               box.value += c; box.dispatchEvent(new Event('input', { bubbles: true }));
               t0 = performance.now();
               await new Promise((r) => setTimeout(r, 20));
             }",
        ),
        (
            "slider-minilm-128",
            long.clone(),
            "const slider = document.querySelector(`[data-testid='temperature-slider']`);
             let t0 = 0;
             for (let i = 1; i <= 10; i++) {
               slider.value = String(-0.5 + i * 0.1); slider.dispatchEvent(new Event('input', { bubbles: true }));
               t0 = performance.now();
               await new Promise((r) => setTimeout(r, 100));
             }",
        ),
    ];
    for (name, text, drive) in scenarios {
        let b = Browser::open(1280, 900).await;
        let text = text.replace(' ', "%20");
        b.open_page(&site.url(&format!("?lang=en&model=minilm&stage=softmax&text={text}"))).await;
        b.wait_for("[data-testid='weights-note'][data-weights='minilm']").await;
        b.wait_for(".page__main[data-computing='false']").await;
        let typed = serde_json::to_string(&long[3..]).unwrap_or_default();
        let script = format!(
            "const done = arguments[arguments.length - 1]; const TYPED = {typed};
             (async () => {{ {settled} {drive} await settled(); report(t0); }})();"
        );
        let seen = b.js_async(&script).await;
        println!(
            "main-thread scenario={name} tasks_over_50ms={} longest_task_ms={:.0} last_answer_ms={:.0}",
            seen[0],
            seen[1].as_f64().unwrap_or(f64::NAN),
            seen[2].as_f64().unwrap_or(f64::NAN)
        );
        b.close().await;
    }
}

#[cfg(not(target_arch = "wasm32"))]
#[tokio::main]
async fn main() {
    // Cross-origin isolated: the peer's two-thread line needs it (our page runs the same).
    let site = Site::start_isolated("").await;

    // BENCH_QUICK=1: the corners only (see src/app/bench), for working on the kernels;
    // BENCH_TRAIN=1: the training lines and the main-thread scenarios only; BENCH_UPDATE=1:
    // the lesson's whole update at its goals' sizes only; BENCH_E5=1: multilingual-e5-small's
    // lines only.
    let var = |name| std::env::var_os(name).is_some();
    let mode = match (var("BENCH_QUICK"), var("BENCH_TRAIN"), var("BENCH_UPDATE"), var("BENCH_E5")) {
        (true, ..) => "quick",
        (_, true, ..) => "train",
        (_, _, true, _) => "update",
        (.., true) => "e5",
        _ => "1",
    };
    let ours = bench_page(&site, mode).await;
    println!("{}", ours.trim_end());
    if mode == "e5" {
        return;
    }
    if mode == "1" {
        // The peer with two threads, in a page of its own, each line with our ratio to it.
        for line in bench_page(&site, "ort2t").await.lines() {
            println!("{}", with_our_ratio(line, &ours));
        }
        // multilingual-e5-small in a page of its own (its memory is the model's alone).
        println!("{}", bench_page(&site, "e5").await.trim_end());
    }
    println!();
    if mode == "quick" || mode == "update" {
        return;
    }
    main_thread_while_training(&site).await;
    main_thread_with_the_pretrained_model(&site).await;
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
    let loads = attention_lab::core::order::ascending(&loads);
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
