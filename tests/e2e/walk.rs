//! The walk a student takes through every view in one tab, and the processes that hold its
//! pages: shared by the memory benchmark (`benches/memory.rs`, which samples the memory at
//! each step) and the end-to-end test that runs the walk in WebKit inside a memory limit
//! (`limits.rs`).
#![allow(dead_code)]

use crate::browser::Browser;
use crate::engine::Engine;
use crate::server::Site;
use std::time::Duration;

/// What happens at each step of the walk once it has settled (the benchmark samples the
/// memory; the test under a limit brings any new web process inside it).
#[allow(async_fn_in_trait)] // used here only, on one thread
pub trait Steps {
    async fn at(&self, b: &Browser, step: &str);
}

/// Every process's parent, from `/proc/<pid>/stat` (its fourth field, after the name in
/// parentheses, which may itself hold spaces).
pub fn parents() -> Vec<(u32, u32)> {
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
pub fn tree(root: u32) -> Vec<u32> {
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
pub fn holds_pages(engine: Engine, pid: u32) -> bool {
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

/// The lesson's softmax stage drawn, with the weights `weights` (the weights note's name).
pub async fn lesson_shows(b: &Browser, weights: &str) {
    let shown = format!(
        "const n = document.querySelector(`[data-testid='weights-note']`);
         return (n ? n.dataset.weights : 'random') === '{weights}'
           && !!document.querySelector(`[data-testid='stage-softmax'] canvas[data-drawn='true']`);"
    );
    b.until(&shown, &format!("the lesson on {weights}"), 180).await;
}

/// The model view with every head drawn.
pub async fn model_view_drawn(b: &Browser) {
    b.wait_for_view("model").await;
    let drawn = "const all = document.querySelectorAll('.model-grid canvas');
                 return all.length > 0 && document.querySelectorAll('.model-grid canvas[data-drawn]').length === all.length;";
    b.until(drawn, "the model view's heads drawn", 120).await;
}

/// The case study's table of every layer and head.
pub async fn case_study_shown(b: &Browser) {
    b.wait_for_view("coref").await;
    b.until(
        "return document.querySelectorAll(`[data-testid='coref-cell']`).length >= 72;",
        "the case study's heads",
        120,
    )
    .await;
}

/// A click on *Pause* if the run is training: the page may have paused it itself where it
/// settled, and a click sent blind would then train on.
pub const PAUSE_IF_TRAINING: &str = "const t = document.querySelector(`[data-testid='learn-train']`);
    if (t.getAttribute('aria-pressed') === 'true') t.click(); return true;";

/// Train for `secs` seconds in the training view, then stop and wait for the run to rest.
pub async fn train_for(b: &Browser, secs: u64) {
    b.click("learn-train").await;
    tokio::time::sleep(Duration::from_secs(secs)).await;
    // Unless the page paused the run itself where it settled (a click would train on).
    b.js(PAUSE_IF_TRAINING, vec![]).await;
    let resting = "const s = document.querySelector(`[data-testid='learn-steps']`);
                   return !!s && document.querySelector(`[data-testid='learn-train']`)?.getAttribute('aria-pressed') === 'false'
                     && s.dataset.rested === s.textContent.trim();";
    b.until(resting, "the run at rest", 60).await;
}

/// The training view set to the largest model a learner can set (induction, d_model 128,
/// 8 heads, 2 layers, batch 256, with the MLP), as a learner sets it.
pub async fn set_largest(b: &Browser) {
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
pub async fn generate(b: &Browser) {
    b.until(
        "return document.querySelector(`[data-testid='gen-next']`)?.disabled === false;",
        "the generator ready",
        30,
    )
    .await;
    b.click("gen-run").await;
    b.until("return !!document.querySelector(`[data-testid='gen-correct']`);", "the generator done", 60).await;
}

/// One tab through every view in turn, by the page's own controls: the lesson on random
/// weights, MiniLM, e5 and MiniLM again, the model view, the case study, training the largest
/// model, then a small one and its generator, and back to the lesson on MiniLM and on random
/// weights. `steps` hears each step's name as it settles (`opened` once the page is open).
pub async fn all_views(b: &Browser, site: &Site, steps: &impl Steps) {
    // Opened once; from then on only what a student clicks.
    b.open_page(&site.url("?lang=en&stage=softmax")).await;
    steps.at(b, "opened").await;
    lesson_shows(b, "random").await;
    steps.at(b, "lesson-random").await;
    b.choose("weights-switch", "minilm").await;
    lesson_shows(b, "minilm").await;
    steps.at(b, "lesson-minilm").await;
    b.choose("weights-switch", "e5").await;
    lesson_shows(b, "e5").await;
    steps.at(b, "lesson-e5").await;
    b.choose("weights-switch", "minilm").await;
    lesson_shows(b, "minilm").await;
    steps.at(b, "lesson-minilm").await;
    b.click("nav-model").await;
    model_view_drawn(b).await;
    steps.at(b, "model-view").await;
    b.click("nav-coref").await;
    case_study_shown(b).await;
    steps.at(b, "case-study").await;
    b.click("nav-learn").await;
    b.wait_for_view("learn").await;
    set_largest(b).await;
    train_for(b, 10).await;
    steps.at(b, "train-largest").await;
    b.choose("learn-task", "reverse").await;
    b.set_and_change("learn-dmodel", "32").await;
    b.set_and_change("learn-heads", "2").await;
    b.choose("learn-layers", "1").await;
    b.set_and_change("learn-batch", "64").await;
    b.click("learn-mlp").await;
    train_for(b, 5).await;
    steps.at(b, "train-small").await;
    generate(b).await;
    steps.at(b, "generation").await;
    b.click("nav-lesson").await;
    lesson_shows(b, "minilm").await;
    steps.at(b, "lesson-minilm").await;
    b.choose("weights-switch", "random").await;
    lesson_shows(b, "random").await;
    steps.at(b, "lesson-random").await;
}
