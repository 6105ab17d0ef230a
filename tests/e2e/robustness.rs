//! A random walk through the live page: thousands of random control changes (bounded in
//! count and time), including bad values in every box. Afterwards the page must be alive, with
//! no panic, no uncaught error, no broken number on screen, and no script run from a token.

use crate::browser::Browser;
use crate::places::DRAWN;
use crate::server::Site;
use std::time::{Duration, Instant};

/// Runs in the page: a seeded walk over every visible, enabled control.
const WALK: &str = r#"
window.__walk = { steps: 0, done: false, broke: null, started: performance.now(), last: null };
window.__errors = [];
window.__alerts = 0;
window.addEventListener('error', e => window.__errors.push(String(e.message)));
window.alert = () => { window.__alerts++; };
let seed = 20261130;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const pick = a => a[Math.floor(rnd() * a.length)];
const texts = ['', '   ', 'a', '猫很累。', 'word '.repeat(70), '<img src=x onerror=alert(1)>', 'The cat sat on the mat', '¿¡?!…', '😀 emoji 😀'];
const numbers = ['', '-5', 'abc', '12', '999999999999', '3.5', '1e9', '0'];
const deadline = performance.now() + 60000;
function step() {
  const controls = [...document.querySelectorAll('input, select, button, textarea, [role=button]')].filter(el =>
    !el.disabled && el.getClientRects().length > 0 &&
    !(el.dataset.testid || '').startsWith('export') && el.dataset.testid !== 'copy-link');
  if (!controls.length) return;
  const el = pick(controls);
  window.__walk.last = (el.dataset.testid || el.tagName) + ' ' + (el.type || '');
  // The last steps, kept where a reload of the page would still find them.
  try {
    const trail = JSON.parse(sessionStorage.getItem('walk-trail') || '[]').slice(-9);
    trail.push(window.__walk.steps + ': ' + window.__walk.last + ' at ' + location.search);
    sessionStorage.setItem('walk-trail', JSON.stringify(trail));
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
  while (window.__walk.steps < 3000 && performance.now() < deadline) {
    step();
    window.__walk.steps++;
    if (window.__walk.steps % 5 === 0) await new Promise(r => setTimeout(r, 0));
    // Checked along the way, not only at the end: the first step that broke the page.
    if (window.__walk.steps % 50 === 0 && window.__walk.broke === null) {
      const why = document.querySelector('[data-testid=panic]') ? 'a panic: ' + document.querySelector('[data-testid=panic]').textContent
        : !document.querySelector('main') ? 'no main element'
        : window.__errors.length ? 'an uncaught error: ' + window.__errors.join(' | ') : null;
      if (why !== null) window.__walk.broke = `step ${window.__walk.steps}, ${why}, at ${location.search}`;
    }
  }
  window.__walk.done = true;
})();
"#;

#[tokio::test]
#[ignore = "needs dist/ and a browser (E2E_BROWSER): run scripts/test.sh"]
async fn a_random_walk_through_every_control_leaves_the_page_alive() {
    let site = Site::start("").await;
    let b = Browser::open(1280, 900).await;
    b.open_page(&site.url("?lang=en")).await;
    b.wait_for("[data-testid='stage-input']").await;
    b.js(WALK, vec![]).await;
    let start = Instant::now();
    loop {
        let done = b.js("return window.__walk?.done ?? 'gone';", vec![]).await;
        if done == true {
            break;
        }
        if done == "gone" {
            // The page was replaced (a reload, a navigation, or its process ended): where it is
            // now, and the walk's last steps before, as the session kept them.
            let now = b
                .js("return [location.href, document.readyState, sessionStorage.getItem('walk-trail')];", vec![])
                .await;
            let errors = b.console_errors().await;
            panic!("the page was replaced during the walk (now: its address, state, the walk's last steps): {now}; console errors: {errors:?}");
        }
        if start.elapsed() > Duration::from_secs(120) {
            // Where it stands, to find why: how far it got, the page's own clock, its last step.
            let at = b.js("return [window.__walk.steps, Math.round(performance.now() - window.__walk.started), window.__walk.last, location.search];", vec![]).await;
            panic!("the walk did not finish in 120 s (steps, page ms since its start, last control, place): {at}");
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    let steps = b.js("return window.__walk.steps;", vec![]).await.as_u64().unwrap_or(0);
    println!("random walk: {steps} control changes");
    assert!(steps >= 500, "only {steps} steps ran");
    assert_eq!(
        b.js("return window.__walk.broke;", vec![]).await,
        serde_json::Value::Null,
        "the page broke during the walk"
    );
    // Let the last changes settle, then check the page as a person would find it.
    tokio::time::sleep(Duration::from_millis(500)).await;
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
    assert_eq!(alive, true, "the page has nothing drawn after the walk (it ended at {place})");
    // Wherever the walk ended, its link reopens the same state: a reload rewrites the same URL.
    let before = b.address().await;
    b.reload().await;
    b.wait_for("main").await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(b.address().await, before, "the reloaded page rewrote its own link");
    b.assert_no_panic().await;
    b.close().await;
}
