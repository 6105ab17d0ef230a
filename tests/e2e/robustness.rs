//! A random walk through the live page: thousands of random control changes for a set time,
//! including bad values in every box. Afterwards the page must be alive, with no panic, no
//! uncaught error, no broken number on screen, and no script run from a token.
//!
//! The walk is seeded: its seed is printed, and `WALK_SEED=<seed>` walks the same steps again
//! (as far as the page's timing lets the same controls be there); `WALK_SECONDS` sets its
//! length (180 s by default). A failure names the step that broke the page and the steps
//! before it.

use crate::browser::Browser;
use crate::places::DRAWN;
use crate::server::Site;
use std::time::{Duration, Instant};

/// Runs in the page: a seeded walk over every visible, enabled control.
const WALK: &str = r#"
const [seedGiven, seconds, prose] = arguments;
window.__walk = { steps: 0, done: false, broke: null, started: performance.now(), last: null, trail: [] };
sessionStorage.removeItem('walk-trail');
window.__errors = [];
window.__alerts = 0;
window.addEventListener('error', e => window.__errors.push(String(e.message)));
window.alert = () => { window.__alerts++; };
let seed = seedGiven >>> 0;
const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
const pick = a => a[Math.floor(rnd() * a.length)];
const texts = ['', '   ', 'a', '猫很累。', 'word '.repeat(70), '<img src=x onerror=alert(1)>', 'The cat sat on the mat', '¿¡?!…', '😀 emoji 😀'];
const numbers = ['', '-5', 'abc', '12', '999999999999', '3.5', '1e9', '0'];
const deadline = performance.now() + seconds * 1000;
// A NaN or ∞ on the page (the site's own sentences about them left out), with its text.
function brokenNumber() {
  let text = document.body.innerText;
  for (const p of prose) text = text.split(p).join(' ');
  const m = text.match(/\b(NaN|-?inf|-?infinity)\b/i);
  return m ? 'a broken number: ' + text.slice(Math.max(0, m.index - 120), m.index + 60).replace(/\s+/g, ' ') : null;
}
function step() {
  const controls = [...document.querySelectorAll('input, select, button, textarea, [role=button]')].filter(el =>
    !el.disabled && el.getClientRects().length > 0 &&
    !(el.dataset.testid || '').startsWith('export') && el.dataset.testid !== 'copy-link');
  if (!controls.length) return;
  const el = pick(controls);
  window.__walk.last = (el.dataset.testid || el.tagName) + ' ' + (el.type || '');
  // The last steps, here and where a reload of the page would still find them.
  const trail = window.__walk.trail.slice(-59);
  trail.push(window.__walk.steps + ': ' + window.__walk.last + ' at ' + location.search);
  window.__walk.trail = trail;
  try {
    sessionStorage.setItem('walk-trail', JSON.stringify(trail));
    // And where another window of the site can read them, should this one stop answering.
    localStorage.setItem('walk-trail', JSON.stringify(trail));
  } catch (e) {}
  if (el.tagName === 'SELECT') {
    el.selectedIndex = Math.floor(rnd() * el.options.length);
    el.dispatchEvent(new Event('change', { bubbles: true }));
  } else if (el.type === 'range') {
    el.value = String(+el.min + rnd() * (+el.max - +el.min));
    el.dispatchEvent(new Event('input', { bubbles: true }));
  } else if (el.type === 'number') {
    el.value = pick(numbers);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  } else if (el.tagName === 'TEXTAREA') {
    el.value = pick(texts);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  } else {
    el.dispatchEvent(new MouseEvent('click', { bubbles: true }));
  }
  if (rnd() < 0.05) {
    const key = pick(['ArrowLeft', 'ArrowRight', ' ', 'p', 's', '?', 'Escape']);
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
  }
}
(async () => {
  while (performance.now() < deadline && window.__walk.broke === null) {
    step();
    window.__walk.steps++;
    if (window.__walk.steps % 5 === 0) await new Promise(r => setTimeout(r, 0));
    // Checked after every step: the first step after which the page is broken, and the
    // steps before it (what a change set in motion may break a step or two later).
    const panic = document.querySelector('[data-testid=panic]');
    const why = panic ? 'a panic: ' + panic.textContent
      : !document.querySelector('main') ? 'no main element'
      : window.__errors.length ? 'an uncaught error: ' + window.__errors.join(' | ')
      : window.__walk.steps % 20 === 0 ? brokenNumber() : null;
    if (why !== null) window.__walk.broke = `after step ${window.__walk.steps - 1} (${why}); the steps up to it: ${window.__walk.trail.join(' → ')}`;
  }
  window.__walk.done = true;
})();
"#;

/// The kernel's log (`dmesg`), where this machine lets the tests read it; empty otherwise.
fn kernel_log() -> Vec<String> {
    let out = std::process::Command::new("dmesg").output();
    out.map(|o| String::from_utf8_lossy(&o.stdout).lines().map(str::to_string).collect()).unwrap_or_default()
}

/// What the kernel said since line `from` of its log of a process it ended (a trap such as an
/// engine's own assertion, a segfault, out of memory): a browser's crash that no page error
/// shows. (Once, WebKitGTK 2.50's web process ended so in its compositor thread, "traps:
/// …ThreadedCompositor… invalid opcode … in libwebkit2gtk-4.1.so": the engine's own check.)
fn ended_by_the_kernel(from: usize) -> String {
    let said: Vec<String> = kernel_log()
        .into_iter()
        .skip(from)
        .filter(|l| ["traps:", "segfault", "Out of memory", "oom-kill", "Killed process"].iter().any(|w| l.contains(w)))
        .collect();
    if said.is_empty() {
        "the kernel's log names no process it ended (or cannot be read here)".into()
    } else {
        format!("the kernel's log: {}", said.join(" | "))
    }
}

/// The walk's seed: `WALK_SEED`, else a new one from the clock.
fn seed() -> u64 {
    std::env::var("WALK_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(|| {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        (now.as_nanos() % 2_147_483_647) as u64
    })
}

pub async fn a_random_walk_through_every_control_leaves_the_page_alive() {
    let (seed, seconds) = (seed(), std::env::var("WALK_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(180u64));
    let engine = crate::engine::Engine::chosen().name().to_lowercase();
    eprintln!("random walk in {engine}: seed {seed}, {seconds} s (again: WALK_SEED={seed} WALK_SECONDS={seconds} E2E_BROWSER={engine} cargo test --test e2e -- random_walk)");
    let site = Site::start("").await;
    let b = Browser::open(1280, 900).await;
    b.open_page(&site.url("?lang=en")).await;
    b.wait_for("[data-testid='stage-input']").await;
    let kernel_from = kernel_log().len();
    b.js(WALK, vec![seed.into(), seconds.into(), crate::browser::prose_naming_broken_numbers().into()]).await;
    let start = Instant::now();
    // The walk's last steps as of the last poll: what is left to tell when the engine ends the
    // session with the page (WebKit's WebDriver does when its web process crashes).
    let mut polled = serde_json::Value::Null;
    loop {
        let poll =
            "return [window.__walk?.done ?? 'gone', (window.__walk?.trail ?? []).slice(-12), window.__walk?.steps];";
        let done = match b.client.execute(poll, vec![]).await {
            Ok(serde_json::Value::Array(mut answer)) if answer.len() == 3 => {
                if answer[1].as_array().is_some_and(|t| !t.is_empty()) {
                    polled = serde_json::json!([answer[2].take(), answer[1].take(), start.elapsed().as_secs()]);
                }
                answer[0].take()
            }
            Ok(other) => other,
            Err(e) => {
                // The page did not answer (its thread busy for the WebDriver's 30 s): the walk's
                // last steps, read in another window of the site, and whether the page answers
                // a minute later.
                let trail = b.trail_from_another_window(&site.url("walk-trail.txt")).await;
                let errors = b.console_errors().await;
                panic!(
                    "seed {seed}: the page stopped answering during the walk ({e}); its last steps: {trail}; \
                     at the last poll (steps, the last of them, seconds into the walk): {polled}; \
                     console errors: {errors:?}; {}",
                    ended_by_the_kernel(kernel_from)
                );
            }
        };
        if done == true {
            break;
        }
        if done == "gone" {
            // The page was replaced (a reload, a navigation, or its process ended): where it is
            // now, and the walk's last steps before, as the session kept them.
            let now = b
                .js("return [location.href, performance.getEntriesByType('navigation')[0]?.type, document.readyState, sessionStorage.getItem('walk-trail')];", vec![])
                .await;
            let errors = b.console_errors().await;
            panic!("seed {seed}: the page was replaced during the walk (now: its address, how it was reached, its state, the walk's last steps): {now}; console errors: {errors:?}; {}", ended_by_the_kernel(kernel_from));
        }
        if start.elapsed() > Duration::from_secs(seconds + 60) {
            // Where it stands, to find why: how far it got, the page's own clock, its last steps.
            let at = b.js("return [window.__walk.steps, Math.round(performance.now() - window.__walk.started), window.__walk.trail, location.search];", vec![]).await;
            panic!("seed {seed}: the walk did not finish in {} s (steps, page ms since its start, last steps, place): {at}", seconds + 60);
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    let steps = b.js("return window.__walk.steps;", vec![]).await.as_u64().unwrap_or(0);
    eprintln!("random walk in {engine}, seed {seed}: {steps} control changes");
    let broke = b.js("return window.__walk.broke;", vec![]).await;
    assert_eq!(broke, serde_json::Value::Null, "seed {seed}: the page broke during the walk");
    assert!(steps >= 500, "seed {seed}: only {steps} steps ran");
    // The last changes on screen (their frames drawn), then the page as a person would find it.
    b.frames(10).await;
    b.assert_no_panic().await;
    assert_eq!(b.js("return window.__errors;", vec![]).await, serde_json::json!([]), "uncaught errors");
    assert_eq!(b.js("return window.__alerts;", vec![]).await, 0, "a token ran as script");
    b.assert_no_broken_numbers().await;
    // Something drawn, as each place draws it (the case study draws a table); or, with
    // "Predict first" on, the stage's question, whose answer the figure waits for (its module
    // may still be on its way when the walk turned the mode on at the end).
    let shown = format!(
        "return !!document.querySelector('main') && document.querySelectorAll(`{DRAWN}, [data-testid='predict-question'] [data-testid='predict-answer']`).length > 0;"
    );
    let mut alive = b.js(&shown, vec![]).await;
    for _ in 0..20 {
        if alive == true {
            break;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
        alive = b.js(&shown, vec![]).await;
    }
    let place = b
        .js("return location.search + ' ' + (document.querySelector('main section')?.dataset.testid ?? '');", vec![])
        .await;
    if alive != true {
        let canvases = b
            .js("return [...document.querySelectorAll('main section canvas')].map(c => [c.closest('figure')?.dataset.testid, c.dataset.drawn ?? null, c.width, c.height]);", vec![])
            .await;
        panic!(
            "the page has nothing drawn after the walk (it ended at {place}); its canvases {canvases}; the page: {}",
            b.where_it_stands().await
        );
    }
    // Wherever the walk ended, its link reopens the same state: a reload rewrites the same URL.
    let before = b.address().await;
    b.reload().await;
    b.wait_for("main").await;
    b.frames(10).await;
    assert_eq!(b.address().await, before, "the reloaded page rewrote its own link");
    b.assert_no_panic().await;
    b.close().await;
}
