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
use serde_json::Value;
#[cfg(not(target_arch = "wasm32"))]
use server::{built_in, gzip_len, published_dir, Site};
#[cfg(not(target_arch = "wasm32"))]
use std::time::{Duration, Instant};

/// The page's main thread while the largest model a learner can set trains for 6 s in the
/// training view (its pool of workers), with the CPU at 1× and at 4× slower (Chromium's
/// throttling): tasks over 50 ms and the longest, as a `PerformanceObserver` for long tasks saw
/// them.
#[cfg(not(target_arch = "wasm32"))]
async fn main_thread_while_training(site: &Site) {
    for rate in RATES {
        let b = Browser::open(1280, 900).await;
        let Some(cpu) = throttled(&b, rate).await else {
            b.close().await;
            continue;
        };
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
            "main-thread scenario=train-largest{cpu} tasks_over_50ms={} longest_task_ms={:.0} steps_in_6s={}",
            seen[0],
            seen[1].as_f64().unwrap_or(f64::NAN),
            seen[2]
        );
        b.close().await;
    }
}

/// The CPU rates the main-thread scenarios run at: as the machine is, and 4× slower (a
/// Chromebook or an old laptop, as Lighthouse's mobile audit takes it).
#[cfg(not(target_arch = "wasm32"))]
const RATES: [f64; 2] = [1.0, 4.0];

/// Slow `b`'s CPU down `rate` times: the lines' ` cpu=4x` (nothing at 1×), or `None` with the
/// reason printed where the engine cannot.
#[cfg(not(target_arch = "wasm32"))]
async fn throttled(b: &Browser, rate: f64) -> Option<String> {
    if rate == 1.0 {
        return Some(String::new());
    }
    match b.throttle_cpu(rate).await {
        Ok(()) => Some(format!(" cpu={rate}x")),
        Err(why) => {
            println!("main-thread cpu={rate}x skipped: {why}");
            None
        }
    }
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

/// The page's main thread while the lesson answers a learner who types and drags, at each CPU
/// rate: on random weights, typing a sentence one character every 20 ms (`type-random`) and
/// dragging the lab's d_k slider over its eleven steps, one every 100 ms, with scaling off
/// (`dk-slider`); on the pretrained model, which computes in its worker, typing a 128-token
/// sentence (`type-128-minilm`) and dragging the temperature slider ten steps, one every 100
/// ms, at 128 tokens (`slider-minilm-128`). Each waits for the last answer; tasks over 50 ms
/// and the longest, as a `PerformanceObserver` for long tasks saw them, and how long the last
/// answer took after the last change.
#[cfg(not(target_arch = "wasm32"))]
async fn main_thread_in_the_lesson(site: &Site) {
    let long = vec![SENTENCE_128; 21].join(" ");
    let settled = "const main = document.querySelector('.page__main');
         const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
         const settled = async () => { while (main.dataset.computing !== 'false') await new Promise((r) => setTimeout(r, 5)); await frame(); await frame(); };
         const long = [];
         new PerformanceObserver((list) => long.push(...list.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
         const report = (t0) => done([long.length, Math.max(0, ...long), performance.now() - t0]);";
    let typing = "const box = document.querySelector(`[data-testid='token-input']`);
         let t0 = 0;
         for (const c of TYPED) {
           box.value += c; box.dispatchEvent(new Event('input', { bubbles: true }));
           t0 = performance.now();
           await new Promise((r) => setTimeout(r, 20));
         }";
    let typed_random = "the students read the book that the teacher wrote about attention";
    // (name, address with its sentence, the element that says it is ready, the text typed or
    // empty, the drive)
    let scenarios = [
        (
            "type-random",
            "?lang=en&stage=softmax&text=the".to_string(),
            "[data-testid='token-input']",
            typed_random[3..].to_string(),
            typing.to_string(),
        ),
        (
            "dk-slider",
            "?lang=en&view=lab&scale=0".to_string(),
            "[data-testid='lab-dk']",
            String::new(),
            "const slider = document.querySelector(`[data-testid='lab-dk']`);
             let t0 = 0;
             for (let i = 0; i <= 10; i++) {
               slider.value = String(i); slider.dispatchEvent(new Event('input', { bubbles: true }));
               t0 = performance.now();
               await new Promise((r) => setTimeout(r, 100));
             }"
            .to_string(),
        ),
        (
            "type-128-minilm",
            "?lang=en&model=minilm&stage=softmax&text=the".to_string(),
            MINILM_READY,
            long[3..].to_string(),
            typing.to_string(),
        ),
        (
            "slider-minilm-128",
            format!("?lang=en&model=minilm&stage=softmax&text={}", long.replace(' ', "%20")),
            MINILM_READY,
            String::new(),
            "const slider = document.querySelector(`[data-testid='temperature-slider']`);
             let t0 = 0;
             for (let i = 1; i <= 10; i++) {
               slider.value = String(-0.5 + i * 0.1); slider.dispatchEvent(new Event('input', { bubbles: true }));
               t0 = performance.now();
               await new Promise((r) => setTimeout(r, 100));
             }"
            .to_string(),
        ),
    ];
    for rate in RATES {
        for (name, address, ready, typed, drive) in &scenarios {
            let b = Browser::open(1280, 900).await;
            let Some(cpu) = throttled(&b, rate).await else {
                b.close().await;
                break;
            };
            b.open_page(&site.url(address)).await;
            b.wait_for(ready).await;
            b.wait_for(".page__main[data-computing='false']").await;
            let typed = serde_json::to_string(typed).unwrap_or_default();
            let script = format!(
                "const done = arguments[arguments.length - 1]; const TYPED = {typed};
                 (async () => {{ {settled} {drive} await settled(); report(t0); }})();"
            );
            let seen = b.js_async(&script).await;
            println!(
                "main-thread scenario={name}{cpu} tasks_over_50ms={} longest_task_ms={:.0} last_answer_ms={:.0}",
                seen[0],
                seen[1].as_f64().unwrap_or(f64::NAN),
                seen[2].as_f64().unwrap_or(f64::NAN)
            );
            b.close().await;
        }
    }
}

/// What says the lesson on the pretrained model is ready: its note names the model.
#[cfg(not(target_arch = "wasm32"))]
const MINILM_READY: &str = "[data-testid='weights-note'][data-weights='minilm']";

/// Cold loads at CPU `rate`, a fresh browser each time: navigation start → first heatmap drawn
/// (the page's `first-heatmap` mark), in ms, ascending; `None` where the engine cannot slow down.
#[cfg(not(target_arch = "wasm32"))]
async fn first_heatmaps(site: &Site, rate: f64, runs: usize) -> Option<Vec<f64>> {
    let mut loads = Vec::new();
    for _ in 0..runs {
        let b = Browser::open(1280, 900).await;
        if throttled(&b, rate).await.is_none() {
            b.close().await;
            return None;
        }
        b.client.goto(&site.url("?lang=en")).await.expect("navigate");
        b.wait_for("canvas[data-drawn='true']").await;
        let ms = b
            .js("const m = performance.getEntriesByName('first-heatmap')[0]; return m ? m.startTime : -1;", vec![])
            .await;
        loads.push(ms.as_f64().unwrap_or(-1.0));
        b.close().await;
    }
    Some(attention_lab::core::order::ascending(&loads))
}

/// Lighthouse's mobile audit as a stranger runs it (its defaults: a phone's screen, slow 4G and
/// a 4× slower CPU, simulated) on the published build, served gzip-compressed as a static host
/// serves it: its four scores, and the largest contentful paint, total blocking time, first
/// contentful paint, time to interactive and bytes behind the first.
#[cfg(not(target_arch = "wasm32"))]
async fn lighthouse() {
    let cli = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(".tools/node_modules/lighthouse/cli/index.js");
    if !cli.is_file() {
        println!("lighthouse skipped: {} is missing (scripts/bench.sh installs it)", cli.display());
        return;
    }
    let site = Site::start_compressed().await;
    let run = tokio::process::Command::new("node")
        .arg(&cli)
        .arg(site.url(""))
        .args(["--output=json", "--output-path=stdout", "--quiet"])
        .arg("--chrome-flags=--headless=new --no-sandbox")
        .env("CHROME_PATH", "/usr/bin/chromium")
        .output()
        .await;
    let report = match run {
        Ok(out) if out.status.success() => {
            // LIGHTHOUSE_REPORT=file keeps the whole report (Lighthouse's viewer opens it).
            if let Some(path) = std::env::var_os("LIGHTHOUSE_REPORT") {
                let _ = std::fs::write(path, &out.stdout);
            }
            serde_json::from_slice::<Value>(&out.stdout).unwrap_or_default()
        }
        Ok(out) => {
            let why = String::from_utf8_lossy(&out.stderr);
            println!("lighthouse failed: {}", why.lines().last().unwrap_or("no message"));
            return;
        }
        Err(e) => {
            println!("lighthouse failed: node did not start: {e}");
            return;
        }
    };
    let score = |category: &str| report["categories"][category]["score"].as_f64().unwrap_or(f64::NAN);
    let value = |audit: &str| report["audits"][audit]["numericValue"].as_f64().unwrap_or(f64::NAN);
    println!(
        "lighthouse performance={:.2} lcp_ms={:.0} tbt_ms={:.0} fcp_ms={:.0} tti_ms={:.0} kib={:.0} accessibility={:.2} best_practices={:.2} seo={:.2}",
        score("performance"),
        value("largest-contentful-paint"),
        value("total-blocking-time"),
        value("first-contentful-paint"),
        value("interactive"),
        value("total-byte-weight") / 1024.0,
        score("accessibility"),
        score("best-practices"),
        score("seo")
    );
    // What keeps a score below 1: each failing audit's title, by category.
    for category in ["performance", "accessibility", "best-practices", "seo"] {
        let refs = report["categories"][category]["auditRefs"].as_array().cloned().unwrap_or_default();
        let failing: Vec<&str> = refs
            .iter()
            .filter(|r| r["weight"].as_f64().unwrap_or(0.0) > 0.0)
            .filter_map(|r| r["id"].as_str())
            .filter(|id| report["audits"][id]["score"].as_f64().is_some_and(|s| s < 0.9))
            .collect();
        if !failing.is_empty() {
            println!("lighthouse-below category={category} audits={}", failing.join(","));
        }
    }
}

/// The cold first heatmap with the CPU 4× slower, the median of 3 (Chromium only).
#[cfg(not(target_arch = "wasm32"))]
async fn slow_first_heatmap(site: &Site) {
    match first_heatmaps(site, 4.0, 3).await {
        // The published build marks no first heatmap: only the benchmark build (`bench`) does.
        Some(slow) if slow.iter().all(|ms| *ms < 0.0) => {
            println!("first-heatmap cpu=4x skipped: this build marks no first heatmap (scripts/bench.sh's does)")
        }
        Some(slow) => println!("first-heatmap cpu=4x median_ms={:.0} runs_ms={slow:?}", slow[slow.len() / 2]),
        None => {}
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
    // lines only; BENCH_MAIN_THREAD=1: the page's main thread only (the scenarios and the cold
    // first heatmap, at 1× and 4×); BENCH_LIGHTHOUSE=1: Lighthouse's mobile audit only.
    let var = |name| std::env::var_os(name).is_some();
    if var("BENCH_LIGHTHOUSE") {
        lighthouse().await;
        return;
    }
    if var("BENCH_MAIN_THREAD") {
        main_thread_while_training(&site).await;
        main_thread_in_the_lesson(&site).await;
        slow_first_heatmap(&site).await;
        return;
    }
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
    main_thread_in_the_lesson(&site).await;
    if mode != "1" {
        return;
    }

    // Cold load, navigation start → first heatmap drawn: the median of 5, and of 3 at 4×.
    let loads = first_heatmaps(&site, 1.0, 5).await.unwrap_or_default();
    slow_first_heatmap(&site).await;
    lighthouse().await;
    // Sizes of what is published, not of the benchmark build the figures above came from.
    // The page's own files (`attention-lab-<hash>…`), then the training view's module.
    let page = |suffix| built_in(&published_dir(), "attention-lab-", suffix);
    let (wasm, js, learn) = (page("_bg.wasm"), page(".js"), built_in(&published_dir(), "learn", "_bg.wasm"));
    println!(
        "size wasm_gz={} js_gz={} learn_wasm_gz={} first_heatmap_ms={:.0}",
        gzip_len(&wasm),
        gzip_len(&js),
        gzip_len(&learn),
        loads.get(loads.len() / 2).copied().unwrap_or(f64::NAN)
    );
    println!("size wasm_raw={} js_raw={} first_heatmap_runs_ms={loads:?}", wasm.len(), js.len());
}
