//! The walk through every view in WebKit, the engine of every iPad (which ends a tab that
//! holds too much memory without a word), with the web processes inside a memory limit: a
//! cgroup this test makes (v1's `memory.limit_in_bytes`, v2's `memory.max`; there is no swap
//! to hide in where the limit is also set on memory plus swap), each web process moved into it
//! as it appears, its memory charged with it. Past the limit the kernel ends the process, as
//! iOS does, and the walk fails at that step. Where the machine gives no cgroup to make, the
//! harness reports the test as skipped, with the reason ([`available`]).
//!
//! The budgets themselves are measured by the benchmark (`cargo bench --bench memory`), not
//! here: this holds the walk to [`LIMIT_MB`]. And a page the system ends anyway comes back
//! where it was and says so, once.

use crate::browser::Browser;
use crate::engine::Engine;
use crate::server::Site;
use crate::walk::{self, holds_pages, lesson_shows, tree, Steps};
use serde_json::json;
use std::path::{Path, PathBuf};

/// The limit on the web processes, charged with what they take from the moment the page has
/// opened (kernels since 6.x move no charge in with a process, so the engine's floor is
/// mostly left out): 512 MB, near what older iPads allow a tab. Issue 48's goal for the walk,
/// 200 MB above the floor, is not reached yet (docs/benchmark.md has the figures): the walk
/// takes about 360 MB here today, and took 555 MB before the forward worker ended with its
/// view and the trainers reused their buffers, which this limit would have caught.
const LIMIT_MB: u64 = 512;

/// Where the cgroup file systems are mounted.
const V1_MEMORY: &str = "/sys/fs/cgroup/memory";
const V2: &str = "/sys/fs/cgroup";

/// A memory cgroup this test made, removed when dropped.
struct Cgroup {
    dir: PathBuf,
    v2: bool,
}

impl Cgroup {
    /// Make one named `name` (v1's memory hierarchy where it is mounted, else v2's, where the
    /// memory controller is enabled for its children).
    fn make(name: &str) -> Result<Cgroup, String> {
        let (parent, v2) = if Path::new(V1_MEMORY).join("memory.limit_in_bytes").is_file() {
            (Path::new(V1_MEMORY), false)
        } else {
            let controls = std::fs::read_to_string(Path::new(V2).join("cgroup.subtree_control")).unwrap_or_default();
            if !controls.split_whitespace().any(|c| c == "memory") {
                return Err("no memory cgroup controller here (neither v1's nor v2's for new groups)".into());
            }
            (Path::new(V2), true)
        };
        // Groups an earlier run left (its browser's processes were still ending when it
        // finished) go once they are empty.
        for stale in std::fs::read_dir(parent).into_iter().flatten().flatten() {
            if stale.file_name().to_string_lossy().starts_with("attention-lab-") {
                let _ = std::fs::remove_dir(stale.path());
            }
        }
        let dir = parent.join(name);
        std::fs::create_dir(&dir).map_err(|e| format!("cannot make a cgroup in {}: {e}", parent.display()))?;
        Ok(Cgroup { dir, v2 })
    }

    fn write(&self, file: &str, value: &str) -> Result<(), String> {
        std::fs::write(self.dir.join(file), value).map_err(|e| format!("{}/{file}: {e}", self.dir.display()))
    }

    fn read(&self, file: &str) -> String {
        std::fs::read_to_string(self.dir.join(file)).unwrap_or_default()
    }

    /// Limit it to `mb` MB; in v1 the memory a process brings is charged to it as it moves in.
    fn limit(&self, mb: u64) -> Result<(), String> {
        let bytes = (mb << 20).to_string();
        if self.v2 {
            return self.write("memory.max", &bytes).and(self.write("memory.swap.max", "0").or(Ok(())));
        }
        // Kernels since 6.x refuse to move charges: then, as in v2, what a process held before
        // it moved in stays charged where it was, and the limit holds what it takes after.
        let _ = self.write("memory.move_charge_at_immigrate", "1");
        self.write("memory.limit_in_bytes", &bytes)?;
        // Memory plus swap, where the kernel accounts it (no swap to escape to).
        let _ = self.write("memory.memsw.limit_in_bytes", &bytes);
        Ok(())
    }

    /// Move process `pid` in (nothing if it is in already).
    fn adopt(&self, pid: u32) -> Result<(), String> {
        let inside = self.read("cgroup.procs").lines().any(|l| l.trim() == pid.to_string());
        if inside {
            return Ok(());
        }
        self.write("cgroup.procs", &pid.to_string())
    }

    /// The most it held, in MB (v2 before kernel 5.19 keeps no peak).
    fn peak_mb(&self) -> Option<u64> {
        let file = if self.v2 { "memory.peak" } else { "memory.max_usage_in_bytes" };
        self.read(file).trim().parse::<u64>().ok().map(|b| b >> 20)
    }

    /// Processes the kernel ended in it for memory.
    fn kills(&self) -> u64 {
        let file = if self.v2 { "memory.events" } else { "memory.oom_control" };
        let events = self.read(file);
        events.lines().find_map(|l| l.strip_prefix("oom_kill ")?.trim().parse().ok()).unwrap_or(0)
    }
}

impl Drop for Cgroup {
    fn drop(&mut self) {
        // Whatever still runs in it goes back to the hierarchy's root, so it can be removed.
        let root = self.dir.parent().map(|p| p.join("cgroup.procs"));
        for pid in self.read("cgroup.procs").lines() {
            if let Some(root) = &root {
                let _ = std::fs::write(root, pid.trim());
            }
        }
        let _ = std::fs::remove_dir(&self.dir);
    }
}

/// Whether this machine lets the test make a memory cgroup: `Err` says why not (the harness
/// then reports the test as skipped, with it).
pub fn available() -> Result<(), String> {
    let probe = Cgroup::make(&format!("attention-lab-probe-{}", std::process::id()))?;
    probe.limit(LIMIT_MB)
}

/// At each step, every web process under the WebDriver server inside the limit, and the walk
/// stopped with why if the kernel ended one.
struct Inside<'a> {
    cgroup: &'a Cgroup,
    driver: u32,
}

impl Steps for Inside<'_> {
    async fn at(&self, _: &Browser, step: &str) {
        let killed = self.cgroup.kills();
        assert_eq!(
            killed, 0,
            "by the step {step}, the kernel ended {killed} web process(es) of the walk for going past {LIMIT_MB} MB"
        );
        for pid in tree(self.driver).into_iter().filter(|&p| holds_pages(Engine::WebKit, p)) {
            if let Err(why) = self.cgroup.adopt(pid) {
                panic!("could not move the web process {pid} inside the limit: {why}");
            }
        }
    }
}

pub async fn the_walk_through_every_view_runs_in_webkit_within_a_memory_limit() {
    let cgroup = Cgroup::make(&format!("attention-lab-walk-{}", std::process::id())).expect("a memory cgroup");
    cgroup.limit(LIMIT_MB).expect("the cgroup's limit");
    let site = Site::start("").await;
    let b = Browser::open(1280, 900).await;
    let driver = b.driver_pid().expect("the WebDriver server's process");
    walk::all_views(&b, &site, &Inside { cgroup: &cgroup, driver }).await;
    let peak = cgroup.peak_mb().map_or("not kept by this kernel".into(), |mb| format!("{mb} MB"));
    eprintln!("limits: the walk's web processes held at most {peak} of the {LIMIT_MB} MB limit");
    assert_eq!(cgroup.kills(), 0, "the kernel ended a web process for going past {LIMIT_MB} MB");
    b.close().await;
}

const NOTICE: &str = "return !!document.querySelector(`[data-testid='reload-notice']`);";

/// A page the system ended (as iOS ends a tab that holds too much memory) is loaded again where
/// it was (every setting from the link) and says, once, in the page's language, that it was
/// ended: not after a reload of the student's own, not twice.
pub async fn a_page_the_system_ended_comes_back_where_it_was_and_says_so_once() {
    let site = Site::start("").await;
    let b = Browser::open(1280, 900).await;
    let url = site.url("?lang=zh&stage=softmax&head=2&q=3");
    b.open_page(&url).await;
    lesson_shows(&b, "random").await;
    b.reload().await;
    lesson_shows(&b, "random").await;
    assert_eq!(b.js(NOTICE, vec![]).await, json!(false), "a reload of the student's own says nothing");

    // The system's end, as the page meets it: gone without `pagehide` (iOS ends the tab's
    // process; WebDriver cannot go on after that, its session ends with the page, so the test
    // stands in for it by undoing the page's goodbye as it leaves), then its address loaded
    // again when the student comes back.
    b.js(
        "addEventListener('pagehide', () => sessionStorage.setItem('attention-lab-session', 'open')); return true;",
        vec![],
    )
    .await;
    b.reload().await;
    lesson_shows(&b, "random").await;
    b.until(NOTICE, "the note that the page was loaded again", 10).await;
    b.shot("reload-notice").await;
    let said = b.text_of("reload-notice").await;
    assert!(said.contains("页面已重新加载") && said.contains("链接"), "in the page's language: {said}");
    let kept = b.js("return [document.documentElement.lang.slice(0, 2), new URLSearchParams(location.search).get('head'), new URLSearchParams(location.search).get('q')];", vec![]).await;
    assert_eq!(kept, json!(["zh", "2", "3"]), "the page is where it was");
    b.click("reload-notice-ok").await;
    assert_eq!(b.js(NOTICE, vec![]).await, json!(false), "the note goes with a click");
    b.reload().await;
    lesson_shows(&b, "random").await;
    assert_eq!(b.js(NOTICE, vec![]).await, json!(false), "said once: not again after the next reload");
    b.assert_no_panic().await;
    b.close().await;
}
