//! The memory benchmark: what one tab of the published site (`dist/`) holds, in the engine
//! `E2E_BROWSER` names (scripts/bench.sh runs it in Chromium and in WebKit, the iPad's engine).
//!
//! Memory is the private memory (USS: `Private_Clean` + `Private_Dirty` of
//! `/proc/<pid>/smaps_rollup`) of the engine's web-content processes (Chromium's renderers,
//! WebKit's `WebKitWebProcess`; the page's workers live there too) under the WebDriver server
//! this benchmark started, summed and sampled every 0.5 s while a scenario runs. Each scenario
//! gets a browser of its own; `blank` (about:blank) is the engine's own floor, printed so the
//! rest can be read against it. Prints, per scenario,
//! `memory engine=… scenario=… peak_mb=… end_mb=… peak_over_floor_mb=… end_over_floor_mb=…
//! dirty_peak_over_floor_mb=… dirty_end_over_floor_mb=… processes=…` where `end` is the last
//! sample, 3 s after the scenario settled, and `dirty` the part of the private memory that was
//! written (what iOS holds against a tab); with `BENCH_MEMORY_MAPS=1`
//! also `memory-maps …`, the largest kinds of mapping holding it then. Figures only: nothing
//! passes or fails.

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
use engine::Engine;
#[cfg(not(target_arch = "wasm32"))]
use server::{published_dir, Site};
#[cfg(not(target_arch = "wasm32"))]
use std::sync::atomic::{AtomicBool, Ordering};
#[cfg(not(target_arch = "wasm32"))]
use std::sync::Arc;
#[cfg(not(target_arch = "wasm32"))]
use std::time::Duration;

/// Every process's parent, from `/proc/<pid>/stat` (its fourth field, after the name in
/// parentheses, which may itself hold spaces).
#[cfg(not(target_arch = "wasm32"))]
fn parents() -> Vec<(u32, u32)> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .filter_map(|e| {
            let pid: u32 = e.ok()?.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            let after_name = &stat[stat.rfind(')')? + 1..];
            let ppid = after_name.split_whitespace().nth(1)?.parse().ok()?;
            Some((pid, ppid))
        })
        .collect()
}

/// `root` and every process under it.
#[cfg(not(target_arch = "wasm32"))]
fn tree(root: u32) -> Vec<u32> {
    let all = parents();
    let mut found = vec![root];
    let mut i = 0;
    while i < found.len() {
        let parent = found[i];
        found.extend(all.iter().filter(|(_, p)| *p == parent).map(|(pid, _)| *pid));
        i += 1;
    }
    found
}

/// Whether the process `pid` holds web content in `engine` (Firefox's content processes are
/// named too, though scripts/bench.sh measures Chromium and WebKit).
#[cfg(not(target_arch = "wasm32"))]
fn holds_pages(engine: Engine, pid: u32) -> bool {
    let Ok(cmdline) = std::fs::read(format!("/proc/{pid}/cmdline")) else { return false };
    // Chromium rewrites its processes' command lines into one string joined by spaces.
    let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
    let program = cmdline.split(' ').next().unwrap_or_default();
    match engine {
        Engine::Chromium => cmdline.split(' ').any(|a| a == "--type=renderer"),
        Engine::WebKit => program.ends_with("WebKitWebProcess"),
        Engine::Firefox => cmdline.split(' ').any(|a| a == "-contentproc"),
    }
}

/// The private memory of `pid` in kB: all of it (`Private_Clean` + `Private_Dirty`, USS) and
/// the dirty part alone, if it still runs.
#[cfg(not(target_arch = "wasm32"))]
fn private_kb(pid: u32) -> Option<(u64, u64)> {
    let rollup = std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup")).ok()?;
    let field =
        |name: &str| rollup.lines().find_map(|l| l.strip_prefix(name)?.split_whitespace().next()?.parse::<u64>().ok());
    let dirty = field("Private_Dirty:")?;
    Some((field("Private_Clean:")? + dirty, dirty))
}

/// What holds the private memory of the web-content processes under `root`: the `top` largest
/// kinds of mapping (by name: a file, `[heap]`, or `[anon]` for the unnamed), in MB.
#[cfg(not(target_arch = "wasm32"))]
fn holders(engine: Engine, root: u32, top: usize) -> String {
    let mut by_name: std::collections::BTreeMap<String, u64> = Default::default();
    for pid in tree(root).into_iter().filter(|&p| holds_pages(engine, p)) {
        let Ok(smaps) = std::fs::read_to_string(format!("/proc/{pid}/smaps")) else { continue };
        let mut name = String::new();
        for line in smaps.lines() {
            let mut words = line.split_whitespace();
            let first = words.next().unwrap_or_default();
            if first.contains('-') && !first.ends_with(':') {
                // A mapping's header: address range, permissions, offset, device, inode, name.
                name = words.nth(4).map_or("[anon]".to_string(), str::to_string);
            } else if first == "Private_Clean:" || first == "Private_Dirty:" {
                *by_name.entry(name.clone()).or_default() += words.next().and_then(|k| k.parse().ok()).unwrap_or(0);
            }
        }
    }
    let mut largest: Vec<(String, u64)> = by_name.into_iter().collect();
    largest.sort_by_key(|(_, kb)| std::cmp::Reverse(*kb));
    largest.iter().take(top).map(|(n, kb)| format!("{n}={:.1}", *kb as f64 / 1024.0)).collect::<Vec<_>>().join(" ")
}

/// One sample of the web-content processes under `root`.
#[cfg(not(target_arch = "wasm32"))]
#[derive(Clone, Copy, Default)]
struct Sample {
    processes: usize,
    /// Their private memory (USS), MB.
    private_mb: f64,
    /// Of which dirty (written: the heaps, the Wasm memories, the JIT's code), MB. Clean private
    /// pages are mostly the engine's own library code, which no other process maps here and the
    /// system can drop and read again; iOS counts a tab's dirty memory against its limit.
    dirty_mb: f64,
}

#[cfg(not(target_arch = "wasm32"))]
fn sample(engine: Engine, root: u32) -> Sample {
    let kb: Vec<(u64, u64)> =
        tree(root).into_iter().filter(|&p| holds_pages(engine, p)).filter_map(private_kb).collect();
    let mb = |kb: u64| kb as f64 / 1024.0;
    Sample {
        processes: kb.len(),
        private_mb: mb(kb.iter().map(|k| k.0).sum()),
        dirty_mb: mb(kb.iter().map(|k| k.1).sum()),
    }
}

/// Samples every 0.5 s on a thread of its own until stopped: the peak (of each figure) and the
/// last sample.
#[cfg(not(target_arch = "wasm32"))]
struct Sampler {
    stop: Arc<AtomicBool>,
    thread: std::thread::JoinHandle<(Sample, Sample)>,
}

#[cfg(not(target_arch = "wasm32"))]
impl Sampler {
    fn start(engine: Engine, root: u32) -> Sampler {
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        let thread = std::thread::spawn(move || {
            let mut peak = Sample::default();
            loop {
                let now = sample(engine, root);
                peak = Sample {
                    processes: peak.processes.max(now.processes),
                    private_mb: peak.private_mb.max(now.private_mb),
                    dirty_mb: peak.dirty_mb.max(now.dirty_mb),
                };
                if stopped.load(Ordering::SeqCst) {
                    return (peak, now);
                }
                std::thread::sleep(Duration::from_millis(500));
            }
        });
        Sampler { stop, thread }
    }

    fn finish(self) -> (Sample, Sample) {
        self.stop.store(true, Ordering::SeqCst);
        self.thread.join().unwrap_or_default()
    }
}

/// What a student does in one scenario.
#[cfg(not(target_arch = "wasm32"))]
#[derive(Clone, Copy, Debug)]
enum Scenario {
    Blank,
    LessonRandom,
    LessonMiniLm,
    LessonE5,
    ModelView,
    CaseStudy,
    TrainLargest,
    Generation,
    /// All of the above but the blank page, in turn, in one tab, as a student moves on.
    AllInOneTab,
}

#[cfg(not(target_arch = "wasm32"))]
impl Scenario {
    const ALL: [Scenario; 9] = [
        Scenario::Blank,
        Scenario::LessonRandom,
        Scenario::LessonMiniLm,
        Scenario::LessonE5,
        Scenario::ModelView,
        Scenario::CaseStudy,
        Scenario::TrainLargest,
        Scenario::Generation,
        Scenario::AllInOneTab,
    ];

    fn name(self) -> &'static str {
        match self {
            Scenario::Blank => "blank",
            Scenario::LessonRandom => "lesson-random",
            Scenario::LessonMiniLm => "lesson-minilm",
            Scenario::LessonE5 => "lesson-e5",
            Scenario::ModelView => "model-view",
            Scenario::CaseStudy => "case-study",
            Scenario::TrainLargest => "train-largest",
            Scenario::Generation => "generation",
            Scenario::AllInOneTab => "all-in-one-tab",
        }
    }
}

/// The lesson's softmax stage drawn, with the weights `weights` (the weights note's name).
#[cfg(not(target_arch = "wasm32"))]
async fn lesson_shows(b: &Browser, weights: &str) {
    let shown = format!(
        "const n = document.querySelector(`[data-testid='weights-note']`);
         return (n ? n.dataset.weights : 'random') === '{weights}'
           && !!document.querySelector(`[data-testid='stage-softmax'] canvas[data-drawn='true']`);"
    );
    b.until(&shown, &format!("the lesson on {weights}"), 180).await;
}

/// The model view with every head drawn.
#[cfg(not(target_arch = "wasm32"))]
async fn model_view_drawn(b: &Browser) {
    b.wait_for_view("model").await;
    let drawn = "const all = document.querySelectorAll('.model-grid canvas');
                 return all.length > 0 && document.querySelectorAll('.model-grid canvas[data-drawn]').length === all.length;";
    b.until(drawn, "the model view's heads drawn", 120).await;
}

/// The case study's table of every layer and head.
#[cfg(not(target_arch = "wasm32"))]
async fn case_study_shown(b: &Browser) {
    b.wait_for_view("coref").await;
    b.until(
        "return document.querySelectorAll(`[data-testid='coref-cell']`).length >= 72;",
        "the case study's heads",
        120,
    )
    .await;
}

/// Train for `secs` seconds in the training view, then stop and wait for the run to rest.
#[cfg(not(target_arch = "wasm32"))]
async fn train_for(b: &Browser, secs: u64) {
    b.click("learn-train").await;
    tokio::time::sleep(Duration::from_secs(secs)).await;
    b.click("learn-train").await;
    let resting = "const s = document.querySelector(`[data-testid='learn-steps']`);
                   return !!s && document.querySelector(`[data-testid='learn-train']`)?.getAttribute('aria-pressed') === 'false'
                     && s.dataset.rested === s.textContent.trim();";
    b.until(resting, "the run at rest", 60).await;
}

/// The training view set to the largest model a learner can set (induction, d_model 128,
/// 8 heads, 2 layers, batch 256, with the MLP), as a learner sets it.
#[cfg(not(target_arch = "wasm32"))]
async fn set_largest(b: &Browser) {
    b.choose("learn-task", "induction").await;
    b.set_and_change("learn-dmodel", "128").await;
    b.set_and_change("learn-heads", "8").await;
    b.choose("learn-layers", "2").await;
    b.set_and_change("learn-batch", "256").await;
    let mlp = "return document.querySelector(`[data-testid='learn-mlp']`).checked;";
    if b.js(mlp, vec![]).await != serde_json::Value::Bool(true) {
        b.click("learn-mlp").await;
    }
}

/// A trained model generates: the learner's model at rest runs the generator to the end.
#[cfg(not(target_arch = "wasm32"))]
async fn generate(b: &Browser) {
    b.until(
        "return document.querySelector(`[data-testid='gen-next']`)?.disabled === false;",
        "the generator ready",
        30,
    )
    .await;
    b.click("gen-run").await;
    b.until("return !!document.querySelector(`[data-testid='gen-correct']`);", "the generator done", 60).await;
}

#[cfg(not(target_arch = "wasm32"))]
async fn run(b: &Browser, site: &Site, scenario: Scenario) {
    match scenario {
        Scenario::Blank => {
            b.client.goto("about:blank").await.expect("about:blank");
            tokio::time::sleep(Duration::from_secs(3)).await;
        }
        Scenario::LessonRandom => {
            b.open_page(&site.url("?lang=en&stage=softmax")).await;
            lesson_shows(b, "random").await;
        }
        Scenario::LessonMiniLm => {
            b.open_page(&site.url("?lang=en&model=minilm&stage=softmax")).await;
            lesson_shows(b, "minilm").await;
        }
        Scenario::LessonE5 => {
            b.open_page(&site.url("?lang=en&model=e5&stage=softmax")).await;
            lesson_shows(b, "e5").await;
        }
        Scenario::ModelView => {
            b.open_page(&site.url("?lang=en&model=minilm&view=model")).await;
            model_view_drawn(b).await;
        }
        Scenario::CaseStudy => {
            b.open_page(&site.url("?lang=en&view=coref")).await;
            case_study_shown(b).await;
        }
        Scenario::TrainLargest => {
            b.open_page(&site.url("?lang=en&view=learn&task=induction&ld=128&lh=8&ll=2&lb=256&lmlp=1")).await;
            train_for(b, 10).await;
        }
        Scenario::Generation => {
            b.open_page(&site.url("?lang=en&view=learn")).await;
            train_for(b, 5).await;
            generate(b).await;
        }
        Scenario::AllInOneTab => {
            // Opened once; from then on only what a student clicks.
            b.open_page(&site.url("?lang=en&stage=softmax")).await;
            lesson_shows(b, "random").await;
            b.choose("weights-switch", "minilm").await;
            lesson_shows(b, "minilm").await;
            b.choose("weights-switch", "e5").await;
            lesson_shows(b, "e5").await;
            b.choose("weights-switch", "minilm").await;
            lesson_shows(b, "minilm").await;
            b.click("nav-model").await;
            model_view_drawn(b).await;
            b.click("nav-coref").await;
            case_study_shown(b).await;
            b.click("nav-learn").await;
            b.wait_for_view("learn").await;
            set_largest(b).await;
            train_for(b, 10).await;
            b.choose("learn-task", "reverse").await;
            b.set_and_change("learn-dmodel", "32").await;
            b.set_and_change("learn-heads", "2").await;
            b.choose("learn-layers", "1").await;
            b.set_and_change("learn-batch", "64").await;
            b.click("learn-mlp").await;
            train_for(b, 5).await;
            generate(b).await;
            b.click("nav-lesson").await;
            lesson_shows(b, "minilm").await;
            b.choose("weights-switch", "random").await;
            lesson_shows(b, "random").await;
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
#[tokio::main(flavor = "current_thread")]
async fn main() {
    let engine = Engine::chosen();
    let site = Site::start_in(published_dir(), "").await;
    // BENCH_MEMORY=name,name: only those scenarios (the floor is always measured).
    let only = std::env::var("BENCH_MEMORY").unwrap_or_default();
    let chosen =
        |s: Scenario| matches!(s, Scenario::Blank) || only.is_empty() || only.split(',').any(|n| n == s.name());
    let mut floor = Sample { processes: 0, private_mb: f64::NAN, dirty_mb: f64::NAN };
    for scenario in Scenario::ALL.into_iter().filter(|s| chosen(*s)) {
        let b = Browser::open(1280, 900).await;
        let Some(root) = b.driver_pid() else {
            println!(
                "memory engine={} scenario={} skipped=no-driver-process",
                engine.name().to_lowercase(),
                scenario.name()
            );
            continue;
        };
        let sampler = Sampler::start(engine, root);
        run(&b, &site, scenario).await;
        // Settled: what the scenario leaves behind after 3 s.
        tokio::time::sleep(Duration::from_secs(3)).await;
        let (peak, end) = sampler.finish();
        // BENCH_MEMORY_MAPS=1: what holds it, at the end.
        if std::env::var_os("BENCH_MEMORY_MAPS").is_some() {
            println!(
                "memory-maps engine={} scenario={} {}",
                engine.name().to_lowercase(),
                scenario.name(),
                holders(engine, root, 8)
            );
        }
        if matches!(scenario, Scenario::Blank) {
            floor = end;
        }
        println!(
            "memory engine={} scenario={} peak_mb={:.0} end_mb={:.0} peak_over_floor_mb={:.0} end_over_floor_mb={:.0} dirty_peak_over_floor_mb={:.0} dirty_end_over_floor_mb={:.0} processes={}",
            engine.name().to_lowercase(),
            scenario.name(),
            peak.private_mb,
            end.private_mb,
            peak.private_mb - floor.private_mb,
            end.private_mb - floor.private_mb,
            peak.dirty_mb - floor.dirty_mb,
            end.dirty_mb - floor.dirty_mb,
            end.processes,
        );
        b.close().await;
    }
}
