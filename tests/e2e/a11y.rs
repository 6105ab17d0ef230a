//! Accessibility as an automated audit sees it: axe-core (from npm, installed into `.tools/` by
//! scripts/setup.sh, never shipped) run inside the page on every stage and view, in both
//! languages and in the themes a classroom uses; and the keyboard's focus always visible.

use crate::browser::Browser;
use crate::places::{every_place, DRAWN};
use crate::server::Site;
use serde_json::Value;

/// axe-core's browser build.
fn axe_source() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/.tools/node_modules/axe-core/axe.min.js");
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e} (scripts/setup.sh installs axe-core)"))
}

/// The serious and critical violations axe finds on the page at `url` once it has drawn, one
/// line each: "rule (impact): how many elements × the first one's selector — the rule".
async fn audit(b: &Browser, axe: &str, url: &str) -> Vec<String> {
    b.open_page(url).await;
    b.wait_for(DRAWN).await;
    b.js(axe, vec![]).await;
    let found: Value = b
        .client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             axe.run(document, { resultTypes: ['violations'] }).then(r => done(r.violations
               .filter(v => v.impact === 'serious' || v.impact === 'critical')
               .map(v => `${v.id} (${v.impact}): ${v.nodes.length} × ${v.nodes[0].target.join(' ')} — ${v.help}`)));",
            vec![],
        )
        .await
        .unwrap_or_else(|e| panic!("axe did not run: {e}"));
    found.as_array().map(|a| a.iter().filter_map(|v| v.as_str().map(str::to_string)).collect()).unwrap_or_default()
}

pub async fn every_stage_and_view_passes_the_audit_in_both_languages() {
    let site = Site::start("").await;
    let axe = axe_source();
    let b = Browser::open(1280, 900).await;
    let mut found = Vec::new();
    for &lang in crate::engine::Engine::chosen().languages() {
        for place in every_place() {
            let url = site.url(&format!("?lang={lang}&{place}"));
            found.extend(audit(&b, &axe, &url).await.into_iter().map(|v| format!("{lang} {place}: {v}")));
        }
    }
    b.close().await;
    assert!(found.is_empty(), "accessibility violations:\n{}", found.join("\n"));
}

/// The classroom's screens: the dark and the projector theme, presentation mode.
pub async fn the_themes_and_presentation_mode_pass_the_audit() {
    let site = Site::start("").await;
    let axe = axe_source();
    let mut found = Vec::new();
    for (screen, query) in [
        ("dark", "theme=dark&stage=softmax"),
        ("contrast", "theme=contrast&stage=scaling"),
        ("present", "present=1&stage=scores"),
        ("present lab", "present=1&view=lab"),
    ] {
        let b = Browser::open(1280, 900).await;
        for &lang in crate::engine::Engine::chosen().languages() {
            let url = site.url(&format!("?lang={lang}&{query}"));
            found.extend(audit(&b, &axe, &url).await.into_iter().map(|v| format!("{screen} {lang}: {v}")));
        }
        b.close().await;
    }
    assert!(found.is_empty(), "accessibility violations:\n{}", found.join("\n"));
}

/// A phone's screen, in both languages.
pub async fn a_phone_passes_the_audit() {
    let site = Site::start("").await;
    let axe = axe_source();
    let phone = Browser::open_phone(360, 780).await;
    let mut found = Vec::new();
    for &lang in crate::engine::Engine::chosen().languages() {
        let url = site.url(&format!("?lang={lang}&stage=softmax"));
        found.extend(audit(&phone, &axe, &url).await.into_iter().map(|v| format!("phone {lang}: {v}")));
    }
    phone.close().await;
    assert!(found.is_empty(), "accessibility violations:\n{}", found.join("\n"));
}

/// The controls a keyboard must reach: visible, enabled, taking the focus in the tab order
/// (of a group of radio buttons, one), each marked with `data-e2e-control` = its number.
const MARK_CONTROLS: &str = "
  const seen = new Set();
  const controls = [...document.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]')]
    .filter(el => !el.disabled && el.tabIndex >= 0 && el.getClientRects().length > 0 && !el.closest('[inert], [hidden]')
      && getComputedStyle(el).visibility !== 'hidden'
      // Inside a closed <details> (its summary aside) nothing is shown or focusable, though
      // Chromium still lays it out (content-visibility).
      && !(el.closest('details:not([open])') && !(el.tagName === 'SUMMARY' && el.parentElement === el.closest('details'))))
    .filter(el => {
      if (el.type !== 'radio' || !el.name) return true;
      if (seen.has(el.name)) return false;
      seen.add(el.name);
      return true;
    });
  controls.forEach((el, i) => el.dataset.e2eControl = i);
  return controls.map(el => el.dataset.testid || el.id || el.tagName.toLowerCase() + ' ' + (el.textContent || '').trim().slice(0, 30));";

/// Tabbing through the page reaches every control it has (Tab that does nothing fails), and
/// every control that takes the focus shows it: an outline or a ring of at least 2 px, in
/// every theme.
pub async fn the_keyboard_reaches_every_control_and_its_focus_is_visible_in_every_theme() {
    let site = Site::start("").await;
    let b = Browser::open(1280, 900).await;
    for theme in ["light", "dark", "contrast"] {
        b.open_page(&site.url(&format!("?lang=en&stage=softmax&theme={theme}"))).await;
        b.wait_for(DRAWN).await;
        let controls = b.js(MARK_CONTROLS, vec![]).await;
        let names: Vec<String> = controls
            .as_array()
            .map(|a| a.iter().map(|v| v.as_str().unwrap_or_default().to_string()).collect())
            .unwrap_or_default();
        assert!(names.len() >= 20, "{theme}: only {} controls found on the softmax stage: {names:?}", names.len());
        let mut reached = std::collections::BTreeSet::new();
        let mut unseen = Vec::new();
        // Twice round the page at most: each Tab must move the focus on.
        for _ in 0..names.len() * 2 + 10 {
            b.tab().await;
            let shown = b
                .js(
                    "const el = document.activeElement; if (!el || el === document.body) return null;
                     const s = getComputedStyle(el);
                     const ring = parseFloat(s.outlineWidth) >= 2 && s.outlineStyle !== 'none' || s.boxShadow !== 'none';
                     return [el.dataset.testid || el.id || el.tagName, ring, el.dataset.e2eControl ?? null];",
                    vec![],
                )
                .await;
            if let Some([name, Value::Bool(ring), control]) = shown.as_array().map(Vec::as_slice) {
                if !ring {
                    unseen.push(name.to_string());
                }
                if let Some(i) = control.as_str().and_then(|c| c.parse::<usize>().ok()) {
                    reached.insert(i);
                }
            }
            if reached.len() == names.len() {
                break;
            }
        }
        let missed: Vec<&String> =
            names.iter().enumerate().filter(|(i, _)| !reached.contains(i)).map(|(_, n)| n).collect();
        assert!(
            missed.is_empty(),
            "{theme}: Tab reached {} of {} controls; never: {missed:?}",
            reached.len(),
            names.len()
        );
        unseen.dedup();
        assert!(unseen.is_empty(), "{theme}: focus not visible on {unseen:?}");
    }
    b.close().await;
}

/// A screen reader reads a heatmap through its table of values: shown on demand, the table
/// describes the picture (`aria-describedby`), one row per token.
pub async fn a_heatmap_is_described_by_its_table_of_values() {
    let site = Site::start("").await;
    let b = Browser::open(1280, 900).await;
    b.open_page(&site.url("?lang=en&stage=softmax")).await;
    b.wait_for("[data-testid='heatmap-weights'] canvas[data-drawn='true']").await;
    let described = "const c = document.querySelector(`[data-testid='heatmap-weights'] canvas`);
        const id = c.getAttribute('aria-describedby'); const t = id && document.getElementById(id);
        return t ? t.querySelectorAll('tbody tr').length : null;";
    assert_eq!(b.js(described, vec![]).await, Value::Null, "no description before the table is shown");
    b.click("heatmap-weights-table-toggle").await;
    assert_eq!(b.js(described, vec![]).await, serde_json::json!(11), "the table describes the map, a row per token");
    b.close().await;
}
