//! In the classroom: a link that reopens an exact state, history, presentation keys, exports,
//! themes, a locked-down page, and a site that keeps working offline and from a sub-path.

use crate::browser::Browser;
use crate::server::Site;
use serde_json::{json, Value};

async fn js(b: &Browser, script: &str) -> Value {
    b.js(script, vec![]).await
}

pub async fn a_link_reopens_the_exact_state_and_the_url_follows_changes() {
    let site = Site::start("").await;
    let b = Browser::open(1280, 900).await;
    b.open_page(&site.url("?text=one%20two%20three%20four&d=32&h=2&seed=7&pe=0&mask=causal&scale=0&t=0.5&dk=256&stage=softmax&head=2&lang=zh&theme=dark")).await;
    b.wait_for("[data-testid='stage-softmax']").await;
    assert_eq!(b.text_of("token-input-count").await, "4 个词元");
    let state = js(&b, "const q = s => document.querySelector(`[data-testid='${s}']`);
        return [q('d-model').value, q('heads').value, q('seed-input').value, q('pe-toggle').checked, q('mask-select').value,
                q('scaling-toggle').checked, q('temperature-value').textContent,
                q('head-2').getAttribute('aria-pressed'), document.documentElement.dataset.theme];").await;
    assert_eq!(state, json!(["32", "2", "7", false, "causal", false, "0.5", "true", "dark"]));
    assert!(b.captions_in("stage-softmax").await[0].ends_with("4 × 4"));
    // Changing things moves the URL along.
    b.click("goto-scaling").await;
    b.click("theme-switch").await;
    b.js("const s = document.querySelector(`[data-testid='theme-switch']`); s.value = 'contrast'; s.dispatchEvent(new Event('change', { bubbles: true }));", vec![]).await;
    let search = b.address().await;
    let search = search.as_str().unwrap_or_default();
    assert!(
        search.contains("stage=scaling") && search.contains("theme=contrast") && search.contains("seed=7"),
        "{search}"
    );
    assert_eq!(js(&b, "return document.documentElement.dataset.theme;").await, "contrast");
    // Back returns to the previous stage.
    b.client.back().await.expect("history back");
    b.wait_for("[data-testid='stage-softmax']").await;
    b.client.forward().await.expect("history forward");
    b.wait_for("[data-testid='stage-scaling']").await;
    // The link can be copied (or, where the browser refuses, is shown to copy by hand), and
    // what the page says about it floats over the page instead of pushing it down.
    let top = "return Math.round(document.querySelector('main').getBoundingClientRect().top);";
    let before = js(&b, top).await;
    b.click("copy-link").await;
    let status = b.text_of("copy-status").await;
    assert_eq!(js(&b, top).await, before, "the page moved when the link was copied");
    let shown = js(&b, "const i = document.querySelector('.masthead__link'); return i ? i.value : '';").await;
    assert!(
        status.contains("已复制") || shown.as_str().is_some_and(|v| v.contains("stage=scaling")),
        "{status:?} {shown}"
    );
    b.close().await;
}

pub async fn garbage_in_the_url_is_named_and_replaced_by_defaults() {
    let site = Site::start("").await;
    let b = Browser::open(1280, 900).await;
    b.open_page(&site.url("?lang=en&d=banana&h=0&t=9999&stage=%E2%88%9E&dk=-3&seed=-1&text=%ZZ&zzz=1")).await;
    let notice = b.text_of("url-notice").await;
    for key in ["text", "d", "h", "seed", "t", "dk", "stage"] {
        assert!(notice.contains(key), "{key} missing from the notice: {notice}");
    }
    b.wait_for("[data-testid='stage-input']").await;
    assert_eq!(b.text_of("token-input-count").await, "11 tokens");
    b.assert_no_panic().await;
    b.close().await;
}

pub async fn presentation_mode_is_driven_from_the_keyboard() {
    let site = Site::start("").await;
    let b = Browser::open(1920, 1080).await;
    b.open_page(&site.url("?lang=en")).await;
    b.wait_for("[data-testid='stage-input']").await;
    let presenting =
        || async { js(&b, "return document.querySelector('.app').classList.contains('app--present');").await };
    b.press("p").await;
    assert_eq!(presenting().await, true);
    assert_eq!(js(&b, "return getComputedStyle(document.querySelector('.controls')).display;").await, "none");
    b.press(" ").await;
    b.wait_for("[data-testid='stage-projection']").await;
    b.press("\u{E014}").await; // →
    b.wait_for("[data-testid='stage-scores']").await;
    let scaled = || async { js(&b, "return document.querySelector(`[data-testid='scaling-toggle']`).checked;").await };
    assert_eq!(scaled().await, true);
    b.press("s").await;
    assert_eq!(scaled().await, false);
    b.press("?").await;
    assert!(b.text_of("shortcuts").await.contains("presentation mode"));
    b.press("\u{E00C}").await; // Esc closes the list first …
    assert_eq!(js(&b, "return document.querySelector(`[data-testid='shortcuts']`) === null;").await, true);
    assert_eq!(presenting().await, true);
    b.press("\u{E00C}").await; // … then leaves presentation
    assert_eq!(presenting().await, false);
    // The spotlight outlines a token in the heatmaps of the stage.
    b.click("spot-2").await;
    assert!(b.address().await.as_str().unwrap_or_default().contains("spot=2"));
    b.close().await;
}

/// A teacher steps back and forth through the stages quickly, more than the browser lets a
/// page write its address (WebKit refuses the 101st write in 30 s): the link still catches up
/// with the stage shown, and a reload reopens that stage.
pub async fn after_quick_stepping_past_the_browsers_limit_the_link_still_follows() {
    let site = Site::start("").await;
    let b = Browser::open(1280, 900).await;
    b.open_page(&site.url("?lang=en&present=1")).await;
    b.wait_for("[data-testid='stage-input']").await;
    // 132 new places, a few ms apart: → ← 65 times, then → → (scores).
    let stepped = b
        .client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             const keys = [...Array(65).fill(['ArrowRight', 'ArrowLeft']).flat(), 'ArrowRight', 'ArrowRight'];
             (async () => {
               for (const key of keys) {
                 document.body.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
                 await new Promise(r => setTimeout(r, 5));
               }
               done(keys.length);
             })();",
            vec![],
        )
        .await;
    assert_eq!(stepped.ok(), Some(json!(132)), "the stepping ran");
    b.wait_for("[data-testid='stage-scores']").await;
    let link = b.address().await;
    assert!(link.as_str().unwrap_or_default().contains("stage=scores"), "the link follows the stage shown: {link}");
    b.reload().await;
    b.wait_for("[data-testid='stage-scores']").await;
    b.close().await;
}

pub async fn every_export_makes_a_file_of_the_right_kind() {
    let site = Site::start("").await;
    let b = Browser::open(1280, 900).await;
    b.open_page(&site.url("?lang=en&stage=softmax&mask=causal")).await;
    b.wait_for("[data-testid='heatmap-weights'] canvas[data-drawn='true']").await;
    b.catch_downloads().await;
    b.click("export-png").await;
    b.click("export-csv").await;
    b.click("export-json").await;
    let files = b.downloads().await;
    assert_eq!(files.len(), 3, "{files:?}");
    let (png, csv, json_file) = (&files[0], &files[1], &files[2]);
    assert!(png["name"].as_str().unwrap_or_default().ends_with(".png"));
    assert_eq!(png["head"], json!([137, 80, 78, 71, 13, 10, 26, 10]), "PNG signature");
    assert!(csv["name"].as_str().unwrap_or_default().starts_with("attention-lab_softmax_d64-h4-seed42-causal_weights"));
    let header = csv["text"].as_str().unwrap_or_default().lines().next().unwrap_or_default().to_string();
    assert_eq!(header, "token,the,animal,didn't,cross,the,street,because,it,was,too,tired");
    let trace: Value = serde_json::from_str(json_file["text"].as_str().unwrap_or_default()).expect("the trace is JSON");
    for key in ["d_model", "heads", "mask", "scaled", "x", "w_q", "w_k", "w_v", "w_o", "expected"] {
        assert!(trace.get(key).is_some(), "{key} missing");
    }
    assert_eq!(trace["mask"], "causal");
    assert_eq!(trace["expected"]["weights"].as_array().map(Vec::len), Some(4), "one weight matrix per head");
    b.close().await;
}

pub async fn the_site_keeps_working_with_the_server_gone() {
    let site = Site::start("").await;
    let b = Browser::open(1280, 900).await;
    b.open_page(&site.url("?lang=en&stage=scores")).await;
    // Wait until the service worker has taken charge of the page.
    assert!(b.service_worker_controls().await, "the service worker never took control");
    site.stop();
    b.reload().await;
    b.wait_for("[data-testid='stage-scores'] canvas[data-drawn='true']").await;
    let (painted, _) = b.canvas_paint("heatmap-scores").await;
    assert!(painted > 10_000, "offline, the heatmap is blank");
    b.close().await;
}

pub async fn the_release_build_works_from_a_sub_path_and_stays_on_its_own_origin() {
    let site = Site::start("/attention-lab").await;
    let b = Browser::open(1280, 900).await;
    b.open_page(&site.url("?lang=en")).await;
    b.wait_for("[data-testid='stage-input'] canvas[data-drawn='true']").await;
    js(&b, "window.__csp = []; document.addEventListener('securitypolicyviolation', e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));").await;
    // Visit every view so every kind of drawing runs under the policy.
    for view in ["variance", "variants", "patterns", "graph", "complexity"] {
        b.click(&format!("nav-{view}")).await;
        b.wait_for_view(view).await;
    }
    b.click("nav-lesson").await;
    b.click("goto-softmax").await;
    b.click("lang-switch").await;
    let violations = js(&b, "return window.__csp;").await;
    assert_eq!(violations, json!([]), "Content-Security-Policy violations");
    let foreign = js(&b, "return performance.getEntriesByType('resource').map(e => e.name).filter(n => new URL(n).origin !== location.origin);").await;
    assert_eq!(foreign, json!([]), "requests to other origins");
    // None of these views needs another module or a worker: nothing of theirs was fetched.
    let lazy = js(&b, "return performance.getEntriesByType('resource').map(e => e.name).filter(n => /(learn|pretrained|trainer|forward)[-_]/.test(n));").await;
    assert_eq!(lazy, json!([]), "modules fetched that no view asked for");
    let csp = js(
        &b,
        "const m = document.querySelector('meta[http-equiv=\"Content-Security-Policy\"]'); return m ? m.content : '';",
    )
    .await;
    assert!(csp.as_str().unwrap_or_default().starts_with("default-src 'self'"), "{csp}");
    b.close().await;
}

/// The teacher's screen is a projector (presentation mode, high contrast); the link for
/// students is short, opens the same stage in the normal layout on a phone, and its QR code is
/// the code of exactly that link.
pub async fn the_link_for_students_is_short_has_its_qr_code_and_opens_the_normal_layout() {
    let site = Site::start("").await;
    let b = Browser::open(1280, 800).await;
    b.open_page(&site.url("?lang=en&stage=softmax&present=1&theme=contrast&scale=0")).await;
    b.wait_for("[data-testid='stage-softmax'] canvas[data-drawn='true']").await;
    b.click("copy-link-student").await;
    b.wait_for("[data-testid='qr-code']").await;
    let link = b.text_of("student-link").await;
    let expected = site.url("?lang=en&scale=0&stage=softmax");
    assert_eq!(link, expected);
    let drawn = js(
        &b,
        "const s = document.querySelector(`[data-testid='qr-code']`);
        return [s.getAttribute('viewBox'), s.querySelector('path').getAttribute('d')];",
    )
    .await;
    let code = attention_lab::chart::qr::qr(&link).expect("the link fits a QR code");
    assert_eq!(drawn, json!([format!("0 0 {0} {0}", code.side), code.path]), "the page drew another code");
    // The code is large enough to scan from afar: at least 2 CSS px per module.
    let width = js(&b, "return document.querySelector(`[data-testid='qr-code']`).getBoundingClientRect().width;").await;
    assert!(width.as_f64().unwrap_or_default() >= 2.0 * code.side as f64, "{width}");
    b.press("\u{E00C}").await; // Esc closes the panel, not presentation mode
    assert_eq!(js(&b, "return !!document.querySelector(`[data-testid='qr-code']`);").await, json!(false));
    assert_eq!(js(&b, "return !!document.querySelector('.app--present');").await, json!(true));
    b.close().await;

    let phone = Browser::open(500, 844).await;
    phone.open_page(&link).await;
    phone.wait_for("[data-testid='stage-softmax'] canvas[data-drawn='true']").await;
    let state =
        js(&phone, "return [!!document.querySelector('.app--present'), document.documentElement.dataset.theme];").await;
    assert_ne!(state[0], json!(true), "a student link must not open presentation mode");
    assert_ne!(state[1], json!("contrast"));
    assert_eq!(phone.text_of("scaling-badge").await, "Scaling ÷√d_k: OFF");
    phone.close().await;
}
