//! What differs between the engines a class brings (`E2E_BROWSER`): that the tests see each
//! engine's console at all, and that where an engine lacks something the page falls back and
//! says so.

use crate::browser::Browser;
use crate::engine::{page_error, Engine};
use crate::server::Site;

pub async fn the_tests_see_the_pages_console_errors_in_this_engine() {
    // Every other test's "no console error" means something only if an error would be seen.
    let site = Site::start("").await;
    let b = Browser::open(1280, 900).await;
    b.open_page(&site.url("?lang=en")).await;
    assert!(b.console_errors().await.is_empty(), "console errors on opening the page");
    b.js(
        "console.error('e2e-probe-logged'); setTimeout(() => { throw new Error('e2e-probe-thrown'); }, 0);
         Promise.reject(new Error('e2e-probe-rejected'));",
        vec![],
    )
    .await;
    // Until all three have reached the console (or 5 s have gone by).
    let mut errors = Vec::new();
    let started = std::time::Instant::now();
    while started.elapsed() < std::time::Duration::from_secs(5)
        && !["e2e-probe-logged", "e2e-probe-thrown", "e2e-probe-rejected"]
            .iter()
            .all(|p| errors.iter().any(|e: &String| e.contains(p)))
    {
        errors.extend(b.console_errors().await);
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    for probe in ["e2e-probe-logged", "e2e-probe-thrown", "e2e-probe-rejected"] {
        assert!(
            errors.iter().any(|e| e.contains(probe)),
            "{}: {probe} was not seen in the console: {errors:?}",
            b.engine.name()
        );
    }
    b.close().await;
}

pub async fn the_help_says_the_site_is_kept_for_use_without_the_network_and_which_kernels_run() {
    let site = Site::start("").await;
    let b = Browser::open(1280, 900).await;
    b.open_page(&site.url("?lang=en")).await;
    assert!(b.service_worker_controls().await, "the service worker never took control");
    b.press("?").await;
    let kept = b.wait_for("[data-testid='offline-state'][data-state='kept']").await;
    assert!(kept.text().await.unwrap_or_default().contains("without the network"));
    // Which build of the kernels the forward worker starts here: Chromium and Firefox ESR 153
    // validate relaxed SIMD; WebKit has none and says so.
    let build = b.wait_for("[data-testid='kernels-state']").await.attr("data-build").await.ok().flatten();
    let expected = if b.engine == Engine::WebKit { "simd128" } else { "relaxed" };
    assert_eq!(build.as_deref(), Some(expected), "the kernels {} runs", b.engine.name());
    assert!(b.console_errors().await.is_empty(), "console errors");
    b.close().await;
}

pub async fn without_service_workers_the_page_works_and_says_it_needs_the_server() {
    // Firefox can turn service workers off (as a school's policy does, and as its private
    // windows did); Chromium and WebKit have no such switch for a test to use.
    let b = Browser::open_without_service_workers(1280, 900).await;
    let site = Site::start("").await;
    b.open_page(&site.url("?lang=zh&view=lesson&stage=softmax")).await;
    b.wait_for("canvas[data-drawn='true']").await;
    b.press("?").await;
    let said = b.wait_for("[data-testid='offline-state'][data-state='unavailable']").await;
    assert!(said.text().await.unwrap_or_default().contains("断网"), "the notice is not in Chinese");
    b.assert_no_panic().await;
    assert!(b.console_errors().await.is_empty(), "console errors");
    b.close().await;
}

pub fn the_pages_errors_are_told_from_the_browsers_own() {
    let ff = |l| page_error(Engine::Firefox, l).is_some();
    assert!(ff(r#"console.error: "panicked at src/lib.rs:1:1""#));
    assert!(ff(r#"console.error: (new Error("E2", "http://127.0.0.1:8080/", 2))"#));
    assert!(ff("JavaScript error: http://127.0.0.1:8080/app.js, line 933: TypeError: x is undefined"));
    assert!(!ff("console.error: RSLoader: "));
    assert!(!ff("JavaScript error: resource://gre/modules/PrivateBrowsingUtils.sys.mjs, line 50: TypeError"));
    assert!(!ff("JavaScript warning: http://127.0.0.1:8080/app.js, line 1: unreachable code"));
    let wk = |l| page_error(Engine::WebKit, l).is_some();
    assert!(wk("CONSOLE SECURITY ERROR Unrecognized Content-Security-Policy directive 'manifest-src'."));
    assert!(wk("http://127.0.0.1:8080/t.html:1:22: CONSOLE JS ERROR Error: thrown"));
    assert!(wk("CONSOLE ERROR e2e-probe-logged"));
    assert!(!wk("CONSOLE OTHER WARN The resource was preloaded using link preload but not used"));
    assert!(!wk("CONSOLE LOG ERROR is only a word here"));
    assert!(!wk("http://127.0.0.1:8080/t.html:1:22: CONSOLE JS LOG ERROR in a log line"));
}
