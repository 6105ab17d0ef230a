//! The benchmark: serves the release build (`dist/`, built by scripts/bench.sh) on 127.0.0.1,
//! runs the page's benchmark mode (`?bench=1`) in headless Chromium and prints its figures,
//! then the sizes of the .wasm and .js (raw and gzip) and the cold load to the first drawn
//! heatmap. Prints figures; asserts nothing about speed.

#[path = "../tests/e2e/browser.rs"]
mod browser;
#[path = "../tests/e2e/server.rs"]
mod server;

use browser::Browser;
use server::{dist_dir, Site};
use std::io::Write;
use std::time::{Duration, Instant};

/// Bytes of `data` after gzip -9, the way static servers send it.
fn gzip_len(data: &[u8]) -> usize {
    let mut child = std::process::Command::new("gzip")
        .arg("-9c")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("gzip on PATH");
    // Feed gzip from another thread while this one reads, or both pipes fill and stall.
    let mut stdin = child.stdin.take().expect("stdin");
    let data = data.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&data));
    let out = child.wait_with_output().expect("gzip output").stdout.len();
    writer.join().expect("writer thread").expect("write to gzip");
    out
}

/// The first file in dist/ whose name ends with `suffix`.
fn built(suffix: &str) -> Vec<u8> {
    let entry = std::fs::read_dir(dist_dir())
        .expect("dist/ exists: run scripts/bench.sh")
        .filter_map(Result::ok)
        .find(|e| e.file_name().to_string_lossy().ends_with(suffix) && !e.file_name().to_string_lossy().starts_with("sw"))
        .unwrap_or_else(|| panic!("no *{suffix} in dist/"));
    std::fs::read(entry.path()).expect("read built file")
}

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
