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
#[path = "../tests/e2e/walk.rs"]
mod walk;

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
#[cfg(not(target_arch = "wasm32"))]
use walk::{case_study_shown, generate, holds_pages, lesson_shows, model_view_drawn, train_for, tree};

/// The engine as the lines name it: WebKit run with `WEBKIT_DISABLE_COMPOSITING_MODE=1`
/// (scripts/bench.sh does, beside the plain run) is `webkit-no-compositing`. On a machine
/// without a GPU, WebKitGTK composites its layers with Mesa's software OpenGL inside the web
/// process, whose memory then holds the layers' textures: the plain line counts them, as an
/// iPad's web process may count its layers' surfaces; this one shows how much they are.
#[cfg(not(target_arch = "wasm32"))]
fn label(engine: Engine) -> String {
    let name = engine.name().to_lowercase();
    let composited = std::env::var_os("WEBKIT_DISABLE_COMPOSITING_MODE").is_none();
    if engine == Engine::WebKit && !composited {
        format!("{name}-no-compositing")
    } else {
        name
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

/// The walk's report at each step (BENCH_MEMORY_STEPS=1): what the tab holds as the step
/// settles and, with the breakdown, what each of its contexts holds.
#[cfg(not(target_arch = "wasm32"))]
struct Steps {
    engine: Engine,
    root: u32,
    floor_mb: f64,
    breakdown: bool,
    /// The benchmark build's own reports of each instance's Wasm memory.
    modules: bool,
}

/// Sums `performance.measureUserAgentSpecificMemory()`'s breakdown by context (its scope and
/// the last part of its script's address, workers of one script counted together), in MB.
#[cfg(not(target_arch = "wasm32"))]
const BREAKDOWN: &str = r#"
const done = arguments[arguments.length - 1];
if (!performance.measureUserAgentSpecificMemory) { done('unavailable (not cross-origin isolated?)'); return; }
performance.measureUserAgentSpecificMemory().then(r => {
  const by = {};
  for (const b of r.breakdown) {
    if (b.bytes === 0) continue;
    const a = b.attribution[0];
    const name = a ? a.scope.replace('GlobalScope', '') + ':' + (a.url || '').split('/').pop().split('?')[0].replace(/-[0-9a-f]{16}/, '') : 'shared';
    const [bytes, n] = by[name] || [0, 0];
    by[name] = [bytes + b.bytes, n + (a ? b.attribution.length : 0)];
  }
  done(Object.entries(by).map(([k, [v, n]]) => `${k}${n > 1 ? '×' + n : ''}=${(v / 1048576).toFixed(1)}`).join(' ')
    + ` total=${(r.bytes / 1048576).toFixed(1)}`);
}, e => done('failed: ' + e));
"#;

/// How many canvases the page has, and what their backing stores hold (MB at 4 bytes a pixel).
#[cfg(not(target_arch = "wasm32"))]
const CANVASES: &str = "const all = [...document.querySelectorAll('canvas')];
  const bytes = all.reduce((sum, c) => sum + c.width * c.height * 4, 0);
  return `canvases=${all.length} canvas_mb=${(bytes / 1048576).toFixed(1)}`;";

/// Listens to the memory build's reports of each Wasm instance's memory
/// (`attention_lab::report_memory`); then, at each step, those heard in the last 2 s.
#[cfg(not(target_arch = "wasm32"))]
const LISTEN: &str = "window.heardMemory = {};
  const channel = new BroadcastChannel('attention-lab-memory');
  channel.onmessage = e => { const [tag, mb] = e.data.split('='); window.heardMemory[tag] = [Number(mb), Date.now()]; };
  window.keptChannel = channel;
  return true;";
#[cfg(not(target_arch = "wasm32"))]
const HEARD: &str = "return Object.entries(window.heardMemory || {})
  .filter(([, [, at]]) => Date.now() - at < 2000)
  .map(([tag, [mb]]) => `${tag}=${mb}`).join(' ');";

#[cfg(not(target_arch = "wasm32"))]
impl Steps {
    /// `memory-modules step=… page=… forward=… …`: the Wasm memory (MB) of the page and of each
    /// module and worker that still runs (several trainers report under one name).
    async fn modules_at(&self, b: &Browser, name: &str) {
        if name == "opened" {
            b.js(LISTEN, vec![]).await;
            return;
        }
        tokio::time::sleep(Duration::from_millis(600)).await;
        let heard = b.js(HEARD, vec![]).await;
        println!("memory-modules engine={} step={name} {}", label(self.engine), heard.as_str().unwrap_or(""));
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl walk::Steps for Steps {
    async fn at(&self, b: &Browser, name: &str) {
        if std::env::var_os("BENCH_MEMORY_STEPS").is_none() {
            return;
        }
        let now = sample(self.engine, self.root);
        // The canvases in the page then, and their backing stores' bytes (4 per device pixel).
        let canvases = b.js(CANVASES, vec![]).await;
        println!(
            "memory-step engine={} step={name} mb={:.0} over_floor_mb={:.0} processes={} {}",
            label(self.engine),
            now.private_mb,
            now.private_mb - self.floor_mb,
            now.processes,
            canvases.as_str().unwrap_or("")
        );
        if self.modules {
            self.modules_at(b, name).await;
        }
        if self.breakdown {
            let said = b.js_async(BREAKDOWN).await;
            println!("memory-breakdown step={name} {}", said.as_str().unwrap_or("no answer"));
        }
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

#[cfg(not(target_arch = "wasm32"))]
async fn run(b: &Browser, site: &Site, scenario: Scenario, steps: &Steps) {
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
        Scenario::AllInOneTab => walk::all_views(b, site, steps).await,
    }
}

#[cfg(not(target_arch = "wasm32"))]
#[tokio::main(flavor = "current_thread")]
async fn main() {
    let engine = Engine::chosen();
    // BENCH_MEMORY_BREAKDOWN=1 (Chromium): at each step of the walk, what each context holds
    // (the page, each worker) as `performance.measureUserAgentSpecificMemory` attributes it;
    // the page is then served cross-origin isolated, the only way the API is offered.
    let breakdown = engine == Engine::Chromium && std::env::var_os("BENCH_MEMORY_BREAKDOWN").is_some();
    // BENCH_MEMORY_MODULES=1: the published site built with `report-memory` (target/memory-dist,
    // made by scripts/bench.sh), whose page, modules and workers report their Wasm memories;
    // the walk prints them.
    let modules = std::env::var_os("BENCH_MEMORY_MODULES").is_some();
    let site = if modules {
        Site::start_in(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/memory-dist"), "").await
    } else if breakdown {
        // Measured at once rather than at the next garbage collection.
        std::env::set_var("E2E_CHROMIUM_ARGS", "--enable-blink-features=ForceEagerMeasureMemory");
        Site::start_isolated_in(published_dir()).await
    } else {
        Site::start_in(published_dir(), "").await
    };
    // BENCH_MEMORY=name,name: only those scenarios (the floor is always measured).
    let only = std::env::var("BENCH_MEMORY").unwrap_or_default();
    let chosen =
        |s: Scenario| matches!(s, Scenario::Blank) || only.is_empty() || only.split(',').any(|n| n == s.name());
    let mut floor = Sample { processes: 0, private_mb: f64::NAN, dirty_mb: f64::NAN };
    for scenario in Scenario::ALL.into_iter().filter(|s| chosen(*s)) {
        let b = Browser::open(1280, 900).await;
        let Some(root) = b.driver_pid() else {
            println!("memory engine={} scenario={} skipped=no-driver-process", label(engine), scenario.name());
            continue;
        };
        let sampler = Sampler::start(engine, root);
        let steps = Steps { engine, root, floor_mb: floor.private_mb, breakdown, modules };
        run(&b, &site, scenario, &steps).await;
        // Settled: what the scenario leaves behind after 3 s.
        tokio::time::sleep(Duration::from_secs(3)).await;
        let (peak, end) = sampler.finish();
        // BENCH_MEMORY_MAPS=1: what holds it, at the end.
        if std::env::var_os("BENCH_MEMORY_MAPS").is_some() {
            println!("memory-maps engine={} scenario={} {}", label(engine), scenario.name(), holders(engine, root, 8));
        }
        if matches!(scenario, Scenario::Blank) {
            floor = end;
        }
        println!(
            "memory engine={} scenario={} peak_mb={:.0} end_mb={:.0} peak_over_floor_mb={:.0} end_over_floor_mb={:.0} dirty_peak_over_floor_mb={:.0} dirty_end_over_floor_mb={:.0} processes={}",
            label(engine),
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
