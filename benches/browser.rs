//! The benchmark: serves the release build (`dist/`, built by scripts/bench.sh) on 127.0.0.1,
//! runs the page's benchmark mode (`?bench=1`) in headless Chromium and prints its figures,
//! then the sizes of the .wasm and .js (raw and gzip) and the cold load to the first drawn
//! heatmap. Prints figures; asserts nothing about speed.

#[path = "../tests/e2e/browser.rs"]
mod browser;
#[path = "../tests/e2e/server.rs"]
mod server;

use browser::Browser;
use server::{built, gzip_len, Site};
use std::time::{Duration, Instant};

#[tokio::main]
async fn main() {
    let site = Site::start("").await;

    let b = Browser::open(1280, 900).await;
    b.open_page(&site.url("?bench=1&lang=en")).await;
    let started = Instant::now();
    loop {
        let done = b.js("const o = document.querySelector(`[data-testid='bench-output']`); return o && o.dataset.done === 'true';", vec![]).await;
        if done == true {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(900), "the benchmark did not finish in 15 minutes");
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    print!("{}", b.text_of("bench-output").await);
    println!();
    b.close().await;

    // Cold load: a fresh browser each time, navigation start → first heatmap drawn.
    let mut loads = Vec::new();
    for _ in 0..5 {
        let b = Browser::open(1280, 900).await;
        b.client.goto(&site.url("?lang=en")).await.expect("navigate");
        b.wait_for("canvas[data-drawn='true']").await;
        let ms = b.js("const m = performance.getEntriesByName('first-heatmap')[0]; return m ? m.startTime : -1;", vec![]).await;
        loads.push(ms.as_f64().unwrap_or(-1.0));
        b.close().await;
    }
    loads.sort_by(f64::total_cmp);
    let (wasm, js) = (built("_bg.wasm"), built(".js"));
    println!(
        "size wasm_gz={} js_gz={} first_heatmap_ms={:.0}",
        gzip_len(&wasm),
        gzip_len(&js),
        loads[loads.len() / 2]
    );
    println!("size wasm_raw={} js_raw={} first_heatmap_runs_ms={loads:?}", wasm.len(), js.len());
}
