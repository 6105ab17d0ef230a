//! The memory benchmark: what one tab of the published site (`dist/`) holds, in the engine
//! `E2E_BROWSER` names (scripts/bench.sh runs it in Chromium and in WebKit, the iPad's engine).
//!
//! Memory is the private memory (USS: `Private_Clean` + `Private_Dirty` of
//! `/proc/<pid>/smaps_rollup`) of the engine's web-content processes (Chromium's renderers,
//! WebKit's `WebKitWebProcess`; the page's workers live there too) under the WebDriver server
//! this benchmark started, summed and sampled every 0.5 s while a scenario runs. Each scenario
//! gets a browser of its own; `blank` (about:blank) is the engine's own floor, printed so the
//! rest can be read against it. Prints, per scenario,
//! `memory engine=… scenario=… peak_mb=… end_mb=… peak_over_floor_mb=… end_over_floor_mb=… processes=…`
//! where `end` is the last sample, 3 s after the scenario settled. Figures only: nothing
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

/// Whether the process `pid` holds web content in `engine` (Firefox is not measured).
#[cfg(not(target_arch = "wasm32"))]
fn holds_pages(engine: Engine, pid: u32) -> bool {
    let Ok(cmdline) = std::fs::read(format!("/proc/{pid}/cmdline")) else { return false };
    let args: Vec<&[u8]> = cmdline.split(|b| *b == 0).collect();
    match engine {
        Engine::Chromium => args.iter().any(|a| *a == b"--type=renderer"),
        Engine::WebKit => args.first().is_some_and(|a| a.ends_with(b"WebKitWebProcess")),
        Engine::Firefox => args.iter().any(|a| *a == b"-contentproc"),
    }
}

/// The private memory of `pid` in kB (`Private_Clean` + `Private_Dirty`), if it still runs.
#[cfg(not(target_arch = "wasm32"))]
fn private_kb(pid: u32) -> Option<u64> {
    let rollup = std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup")).ok()?;
    let field =
        |name: &str| rollup.lines().find_map(|l| l.strip_prefix(name)?.split_whitespace().next()?.parse::<u64>().ok());
    Some(field("Private_Clean:")? + field("Private_Dirty:")?)
}

/// One sample: the web-content processes under `root`, and their private memory in MB.
#[cfg(not(target_arch = "wasm32"))]
fn sample(engine: Engine, root: u32) -> (usize, f64) {
    let kb: Vec<u64> = tree(root).into_iter().filter(|&p| holds_pages(engine, p)).filter_map(private_kb).collect();
    (kb.len(), kb.iter().sum::<u64>() as f64 / 1024.0)
}

/// Samples every 0.5 s on a thread of its own until stopped: the peak, the last, and how many
/// web-content processes the last sample found.
#[cfg(not(target_arch = "wasm32"))]
struct Sampler {
    stop: Arc<AtomicBool>,
    thread: std::thread::JoinHandle<(f64, f64, usize)>,
}

#[cfg(not(target_arch = "wasm32"))]
impl Sampler {
    fn start(engine: Engine, root: u32) -> Sampler {
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        let thread = std::thread::spawn(move || {
            let mut peak = 0.0f64;
            loop {
                let (processes, mb) = sample(engine, root);
                peak = peak.max(mb);
                if stopped.load(Ordering::SeqCst) {
                    return (peak, mb, processes);
                }
                std::thread::sleep(Duration::from_millis(500));
            }
        });
        Sampler { stop, thread }
    }

    fn finish(self) -> (f64, f64, usize) {
        self.stop.store(true, Ordering::SeqCst);
        self.thread.join().unwrap_or((f64::NAN, f64::NAN, 0))
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
                   return document.querySelector(`[data-testid='learn-train']`).getAttribute('aria-pressed') === 'false'
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
    b.until("return !document.querySelector(`[data-testid='gen-next']`)?.disabled;", "the generator ready", 30).await;
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
    let mut floor = f64::NAN;
    for scenario in Scenario::ALL.into_iter().filter(|s| chosen(*s)) {
        let b = Browser::open(1280, 900).await;
        let Some(root) = b.driver_pid() else {
            println!("memory engine={} scenario={} skipped=no-driver-process", engine.name(), scenario.name());
            continue;
        };
        let sampler = Sampler::start(engine, root);
        run(&b, &site, scenario).await;
        // Settled: what the scenario leaves behind after 3 s.
        tokio::time::sleep(Duration::from_secs(3)).await;
        let (peak, end, processes) = sampler.finish();
        if matches!(scenario, Scenario::Blank) {
            floor = end;
        }
        println!(
            "memory engine={} scenario={} peak_mb={peak:.0} end_mb={end:.0} peak_over_floor_mb={:.0} end_over_floor_mb={:.0} processes={processes}",
            engine.name().to_lowercase(),
            scenario.name(),
            peak - floor,
            end - floor,
        );
        b.close().await;
    }
}
