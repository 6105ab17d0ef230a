//! A browser window driven over WebDriver, one per test, in the engine `E2E_BROWSER` names
//! (`engine.rs`: Chromium by default, Firefox, WebKit).
#![allow(dead_code)] // shared with benches/browser.rs, which uses only part of it

use crate::engine::{Driver, Engine, Screen};
use fantoccini::actions::InputSource;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use std::time::Duration;

/// A browser window plus the WebDriver server behind it; closed on [`Browser::close`].
pub struct Browser {
    pub client: Client,
    pub engine: Engine,
    driver: std::sync::Mutex<Driver>,
    _profile: TempDir,
    screen: Screen,
    /// Pages opened in the current window.
    loads: std::sync::atomic::AtomicUsize,
    /// Marks written through the console so far ([`Browser::console_errors`]).
    marks: std::sync::atomic::AtomicUsize,
}

/// In WebKit, the pages a window opens before the test moves to a new one (same profile, a new
/// web process). JavaScriptCore gives the first 8 WebAssembly memories of a process "fast
/// memory" and the later ones bounds-checked memory; a process that has opened dozens of pages
/// still holds their memories (its page cache, a collection not yet run), runs out, and then
/// runs the same module with both kinds, which WebKitGTK 2.50 gets wrong: the page's start
/// traps ("Out of bounds call_indirect", "call_indirect to a null table entry") or reads
/// garbage its reactive graph reports as a value already disposed (README, "WebKit"). A class
/// opens one page per tab; the tests open hundreds.
const WEBKIT_PAGES_PER_WINDOW: usize = 15;

/// What `assets/start.js` writes when the engine trapped while the page started and the page
/// loads itself once more: not a failure of the page, but never unseen (the run's log says it).
pub const RESTART: &str = "the page could not start, loading it once more";

fn note_restart(line: &str) {
    eprintln!("note: the engine trapped while the page started, and the page loaded itself once more: {line}");
}

/// The console's lines split at the last one that says the page loaded itself once more
/// (`restart` tells it): those of the start that was given up (the engine's trap, or the panic
/// of a reactive graph reading garbage: they belong to a page that is gone), and those since.
pub fn split_at_restart<T>(lines: &[T], restart: impl Fn(&T) -> bool) -> (&[T], &[T]) {
    match lines.iter().rposition(restart) {
        Some(at) => (&lines[..at], &lines[at + 1..]),
        None => (&[], lines),
    }
}

/// Say what the start given up wrote to the console (its errors), so that it is never unseen.
pub fn note_given_up(errors: &[String]) {
    if !errors.is_empty() {
        eprintln!("note: the errors of the start the page gave up before it loaded itself once more: {errors:?}");
    }
}

/// chromedriver's `POST /session/{id}/se/log` for the browser's console (outside W3C WebDriver).
#[derive(Debug)]
struct BrowserLog;

impl fantoccini::wd::WebDriverCompatibleCommand for BrowserLog {
    fn endpoint(&self, base: &url::Url, session: Option<&str>) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/se/log", session.unwrap_or_default()))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        (http::Method::POST, Some(r#"{"type":"browser"}"#.to_string()))
    }
}

/// chromedriver's `POST /session/{id}/goog/cdp/execute`: one DevTools protocol command with its
/// parameters (Chromium only; outside W3C WebDriver).
#[derive(Debug)]
struct Cdp(Value);

impl fantoccini::wd::WebDriverCompatibleCommand for Cdp {
    fn endpoint(&self, base: &url::Url, session: Option<&str>) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/goog/cdp/execute", session.unwrap_or_default()))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        (http::Method::POST, Some(self.0.to_string()))
    }
}

/// Scroll `arguments[0]` into the middle of the screen, then wait (up to 2 s) until its box has
/// stayed put for three frames: a user clicks what they see, not a button the page is moving.
const HOLD_STILL: &str = "
  const [el, done] = arguments;
  el.scrollIntoView({ block: 'center' });
  let last = '', still = 0;
  const started = performance.now();
  const frame = () => {
    const r = el.getBoundingClientRect();
    const now = [r.x, r.y, r.width, r.height].join();
    still = now === last ? still + 1 : 0;
    last = now;
    if (still >= 3 || performance.now() - started > 2000) return done(still >= 3);
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);";

/// Note where the next click lands (`window.__landed`): "on it" once a click reaches what
/// matches `arguments[0]` or its inside (a label passes its click on to its input), else the
/// first element one reached.
const LISTEN_FOR_CLICK: &str = "
  const css = arguments[0];
  if (window.__landing) document.removeEventListener('click', window.__landing, true);
  window.__landed = null;
  window.__landing = e => {
    const t = e.target;
    if (t.closest?.(css)) window.__landed = 'on it';
    else if (window.__landed === null)
      window.__landed = `${t.tagName} ${t.dataset?.testid ?? ''} ${(t.textContent ?? '').trim().slice(0, 60)}`;
  };
  document.addEventListener('click', window.__landing, true);";

/// A fresh browser profile directory, removed afterwards.
struct TempDir(std::path::PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Asks the page to write its settings into the address bar now (`protocol::WRITE_NOW_EVENT`).
const WRITE_NOW: &str = "window.dispatchEvent(new Event('attention-lab-write-now'));";

impl Browser {
    /// Open a `width × height` window.
    pub async fn open(width: u32, height: u32) -> Browser {
        Self::launch(Screen { width, height, pixel_ratio: 1.0, mobile: false, service_workers: true, exact: false })
            .await
    }

    /// Open a `width × height` window whose pages have no service workers, as under a school's
    /// browser policy: only Firefox has the switch (its test is for Firefox only, `main.rs`).
    pub async fn open_without_service_workers(width: u32, height: u32) -> Browser {
        assert_eq!(Engine::chosen(), Engine::Firefox, "only Firefox can turn service workers off");
        let screen = Screen { width, height, pixel_ratio: 1.0, mobile: false, service_workers: false, exact: false };
        Self::launch(screen).await
    }

    /// Open a window showing the page at exactly `width × height` CSS px (a projector's or a
    /// phone's screen, not a window with the browser's own bars), with `pixel_ratio` device
    /// pixels per CSS px; `mobile` emulates a phone (touch, mobile viewport) where the engine
    /// can (Chromium).
    pub async fn open_screen(width: u32, height: u32, pixel_ratio: f64, mobile: bool) -> Browser {
        Self::launch(Screen { width, height, pixel_ratio, mobile, service_workers: true, exact: true }).await
    }

    /// Open a phone's screen, `width × height` CSS px at three device pixels per CSS px. Not
    /// in Firefox (its windows are at least 500 px wide, and WebDriver has no phone emulation
    /// there): a phone's test says so in `main.rs`, where it is reported as skipped.
    pub async fn open_phone(width: u32, height: u32) -> Browser {
        assert!(
            Engine::chosen() != Engine::Firefox || width >= 500,
            "a {width} px phone cannot be shown in Firefox: mark the test as not for Firefox in main.rs"
        );
        Self::open_screen(width, height, 3.0, true).await
    }

    async fn launch(screen: Screen) -> Browser {
        let engine = Engine::chosen();
        let profile =
            std::env::temp_dir().join(format!("attention-lab-e2e-{}-{}", std::process::id(), window_number()));
        let (driver, caps) = Driver::start(engine, screen, &profile).await;
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        let mut last_err = String::new();
        for _ in 0..100 {
            match ClientBuilder::new(connector.clone()).capabilities(caps.clone()).connect(&driver.url).await {
                Ok(client) => {
                    let b = Browser {
                        client,
                        engine,
                        driver: std::sync::Mutex::new(driver),
                        _profile: TempDir(profile),
                        screen,
                        loads: std::sync::atomic::AtomicUsize::new(0),
                        marks: std::sync::atomic::AtomicUsize::new(0),
                    };
                    if engine != Engine::Chromium {
                        b.fit_viewport(screen.width, screen.height).await;
                    }
                    return b;
                }
                Err(e) => last_err = e.to_string(),
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        panic!("could not start a {} session: {last_err}", engine.name());
    }

    /// Size the window so that the page's viewport is `width × height` CSS px (the window's
    /// own bars, where it has them, added).
    async fn fit_viewport(&self, width: u32, height: u32) {
        let (mut w, mut h) = (width, height);
        let mut before = self.settled_viewport((0, 0)).await;
        for _ in 0..3 {
            if before == (width, height) {
                return;
            }
            let _ = self.client.set_window_size(w, h).await;
            let (iw, ih) = self.settled_viewport(before).await;
            before = (iw, ih);
            if (iw, ih) == (width, height) {
                return;
            }
            w = (w + width).saturating_sub(iw);
            h = (h + height).saturating_sub(ih);
        }
        // Never silently: Firefox's windows are at least 500 px wide.
        let inner = self.js("return [innerWidth, innerHeight];", vec![]).await;
        eprintln!("note: {} shows this test's {width} × {height} px screen at {inner} CSS px", self.engine.name());
    }

    /// The page's viewport (CSS px), read until it has left `before` (the size before the
    /// window was resized; up to 3 s) and then stayed the same for 300 ms. A window's new size
    /// may reach the page a moment after the driver has answered (WebKitGTK's windows): read at
    /// once, the old size made the next try wrong (a 1024 × 768 screen once became a 768 × 636
    /// window, the new window's 1280 × 900 taken for its bars).
    async fn settled_viewport(&self, before: (u32, u32)) -> (u32, u32) {
        let read = || async {
            let inner = self.js("return [innerWidth, innerHeight];", vec![]).await;
            (inner[0].as_u64().unwrap_or(0) as u32, inner[1].as_u64().unwrap_or(0) as u32)
        };
        let mut last = read().await;
        for _ in 0..30 {
            if last != before {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
            last = read().await;
        }
        let mut still = 0;
        while still < 3 {
            tokio::time::sleep(Duration::from_millis(100)).await;
            let now = read().await;
            still = if now == last { still + 1 } else { 0 };
            last = now;
        }
        last
    }

    /// The browser console's errors since the last call (console.error, uncaught exceptions,
    /// and in Chromium also failed loads and CSP violations): chromedriver's log endpoint,
    /// which W3C WebDriver lacks, or what Firefox and WebKit wrote (`engine.rs`).
    pub async fn console_errors(&self) -> Vec<String> {
        if self.engine != Engine::Chromium {
            // A mark through the console, and its line awaited: every line the page wrote
            // before it has come through the pipe.
            let mark =
                format!("attention-lab-e2e-mark-{}", self.marks.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
            let marked = self.client.execute("console.error(arguments[0]);", vec![Value::from(mark.as_str())]).await;
            let started = std::time::Instant::now();
            let arrived = loop {
                let arrived = self.driver.lock().is_ok_and(|d| d.has_line(&mark));
                if arrived || marked.is_err() || started.elapsed() > Duration::from_secs(5) {
                    break arrived;
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            };
            let mut errors = self
                .driver
                .lock()
                .map(|mut d| {
                    d.restarts().iter().for_each(|line| note_restart(line));
                    d.console_errors(self.engine)
                })
                .unwrap_or_default();
            errors.retain(|line| !line.contains(&mark));
            if marked.is_ok() && !arrived {
                errors.push(format!("the browser's console did not come through within 5 s (no {mark})"));
            }
            return errors;
        }
        let log = self.client.issue_cmd(BrowserLog).await.expect("the browser log");
        let entries = log.as_array().cloned().unwrap_or_default();
        entries.iter().filter_map(|e| e["message"].as_str()).filter(|m| m.contains(RESTART)).for_each(note_restart);
        let severe = |lines: &[Value]| -> Vec<String> {
            lines
                .iter()
                .filter(|e| e["level"] == "SEVERE")
                .map(|e| e["message"].as_str().unwrap_or_default().to_string())
                .collect()
        };
        let (gone, since) = split_at_restart(&entries, |e| e["message"].as_str().is_some_and(|m| m.contains(RESTART)));
        note_given_up(&severe(gone));
        severe(since)
    }

    /// Load `url` and wait until the app has mounted.
    pub async fn open_page(&self, url: &str) {
        let loads = self.loads.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        if self.engine == Engine::WebKit && loads > 0 && loads.is_multiple_of(WEBKIT_PAGES_PER_WINDOW) {
            self.new_window().await;
        }
        self.client.goto(url).await.expect("navigate");
        self.wait_for("main").await;
    }

    /// Go on in a new window of the same browser (the same profile: its storage, its service
    /// worker), the old one closed (see [`WEBKIT_PAGES_PER_WINDOW`]).
    async fn new_window(&self) {
        let old = self.client.window().await.expect("the window");
        let new = self.client.new_window(false).await.expect("a new window").handle;
        self.client.switch_to_window(old).await.expect("back to the old window");
        self.client.close_window().await.expect("close the old window");
        self.client.switch_to_window(new).await.expect("to the new window");
        if self.engine != Engine::Chromium {
            self.fit_viewport(self.screen.width, self.screen.height).await;
        }
    }

    /// What the page kept in its origin's local storage under `walk-trail`, read from a new
    /// window opened at `url` (an address of the same site), while the first stays as it is:
    /// for a page whose thread no longer answers.
    pub async fn trail_from_another_window(&self, url: &str) -> String {
        let Ok(new) = self.client.new_window(true).await else { return "(no new window)".into() };
        if self.client.switch_to_window(new.handle).await.is_err() || self.client.goto(url).await.is_err() {
            return "(the new window did not open the site)".into();
        }
        let trail = self.client.execute("return localStorage.getItem('walk-trail');", vec![]).await;
        trail.map_or_else(|e| format!("(not read: {e})"), |t| t.to_string())
    }

    /// Wait (up to 10 s) for an element matching `css`.
    pub async fn wait_for(&self, css: &str) -> fantoccini::elements::Element {
        match self.client.wait().at_most(Duration::from_secs(10)).for_element(Locator::Css(css)).await {
            Ok(element) => element,
            Err(e) => panic!("no element matching {css:?} appeared: {e}; the page: {}", self.where_it_stands().await),
        }
    }

    /// Where the page stands, for a wait that timed out to say why: its link, its alerts (the
    /// errors it shows) and the start of its text.
    pub async fn where_it_stands(&self) -> String {
        let page = self
            .client
            .execute(
                "const alerts = [...document.querySelectorAll('[role=alert]')].filter(a => !a.closest('[hidden]')).map(a => a.textContent.trim()).filter(t => t);
                 return location.search + ' | readyState: ' + document.readyState + ' | alerts: ' + JSON.stringify(alerts)
                   + ' | ' + (document.body?.innerText ?? '').slice(0, 1200);",
                vec![],
            )
            .await
            .map(|v| v.to_string())
            .unwrap_or_else(|e| format!("(the page did not answer: {e})"));
        // What the browser logged (in WebKit: whether the page's process ended), and its last
        // lines.
        let last = self.driver.lock().map(|d| d.last_lines(12)).unwrap_or_default();
        format!("{page} | console errors: {:?} | the engine's last lines: {last:?}", self.console_errors().await)
    }

    /// Wait (up to 10 s) for view `slug` (`data-testid="view-{slug}"`) and, when it is a
    /// module's, for the module to have mounted into it (its loading line hidden).
    pub async fn wait_for_view(&self, slug: &str) -> fantoccini::elements::Element {
        self.wait_for(&format!("[data-testid='view-{slug}']:not(:has([data-module-status]:not([hidden])))")).await
    }

    /// Whether the service worker controls the page, waiting up to 8 s for it to take charge
    /// (it caches the build on the first load).
    pub async fn service_worker_controls(&self) -> bool {
        let done = self
            .client
            .execute_async(
                "const done = arguments[arguments.length - 1];
                 navigator.serviceWorker.ready.then(() => {
                   if (navigator.serviceWorker.controller) return done(true);
                   navigator.serviceWorker.addEventListener('controllerchange', () => done(true));
                   setTimeout(() => done(!!navigator.serviceWorker.controller), 8000);
                 });",
                vec![],
            )
            .await
            .expect("service worker state");
        done == true
    }

    /// The text of the element with `data-testid` = `id`.
    pub async fn text_of(&self, id: &str) -> String {
        let el = self.wait_for(&format!("[data-testid='{id}']")).await;
        el.text().await.expect("element text")
    }

    /// The address bar's query (`location.search`) once the page has written its latest
    /// settings there. The page rewrites it at most every 100 ms while the settings keep
    /// changing: sooner than a person reloads or copies the link, but not sooner than a test
    /// reads it, so this asks the page to write now (`protocol::WRITE_NOW_EVENT`). A browser
    /// may refuse the write (WebKit: more than 100 in 30 s, as a random walk makes), and a
    /// module's request reaches the page a moment after the click: meanwhile the page says its
    /// link is behind (`data-link-behind`), and this waits until it has written.
    pub async fn address(&self) -> Value {
        self.written_link().await;
        self.js(&format!("{WRITE_NOW} return location.search;"), vec![]).await
    }

    /// Wait until the page has its settings in the address bar (up to WebKit's 30 s).
    async fn written_link(&self) {
        let behind = format!("{WRITE_NOW} return document.documentElement.hasAttribute('data-link-behind');");
        let started = std::time::Instant::now();
        while self.js(&behind, vec![]).await == true {
            assert!(started.elapsed() < Duration::from_secs(45), "the page's link stayed behind its settings for 45 s");
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
    }

    /// The whole URL, likewise.
    pub async fn href(&self) -> Value {
        self.written_link().await;
        self.js(&format!("{WRITE_NOW} return location.href;"), vec![]).await
    }

    /// Reload the page once the address bar has its latest settings (see [`Browser::address`]).
    ///
    /// The page reloads itself (`location.reload()`, as the reload button does): offline,
    /// Firefox's WebDriver refresh showed its network error page where the page's own reload
    /// (and a learner's) is answered by the service worker.
    pub async fn reload(&self) {
        self.written_link().await;
        self.js(
            &format!("{WRITE_NOW} window.__e2eBeforeReload = true; setTimeout(() => location.reload(), 0);"),
            vec![],
        )
        .await;
        let started = std::time::Instant::now();
        loop {
            tokio::time::sleep(Duration::from_millis(100)).await;
            let reloaded = self
                .client
                .execute("return window.__e2eBeforeReload !== true && document.readyState !== 'loading';", vec![])
                .await;
            if reloaded.is_ok_and(|r| r == true) {
                break;
            }
            assert!(started.elapsed() < Duration::from_secs(30), "the page did not reload within 30 s");
        }
    }

    /// Wait (up to `secs`) until `script` returns true; if it never does, fail saying `what`
    /// and where the page stands. The one way a test waits for the page to have done something.
    pub async fn until(&self, script: &str, what: &str, secs: u64) {
        let started = std::time::Instant::now();
        while self.js(script, vec![]).await != Value::Bool(true) {
            if started.elapsed() >= Duration::from_secs(secs) {
                panic!("not so after {secs} s: {what}; the page: {}", self.where_it_stands().await);
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Wait until the page has drawn `n` more frames: what a change set in motion (an event
    /// handled, an effect run) is on screen by then.
    pub async fn frames(&self, n: u32) {
        self.js_async(&format!(
            "const done = arguments[arguments.length - 1];
             let left = {n};
             const next = () => (--left <= 0 ? done(true) : requestAnimationFrame(next));
             requestAnimationFrame(next);"
        ))
        .await;
    }

    /// Run `script` (a function body that may `return`) with `args`.
    ///
    /// A script the page cannot answer fails the test with what the browser said of the page:
    /// WebKit's WebDriver answers "page crash or hang" for both, and its test browser writes
    /// which ("web process ended (crashed)", or over its memory limit) among the console errors.
    pub async fn js(&self, script: &str, args: Vec<Value>) -> Value {
        match self.client.execute(script, args).await {
            Ok(v) => v,
            Err(e) => {
                let errors = if self.engine == Engine::Chromium { Vec::new() } else { self.console_errors().await };
                panic!("script failed: {e}\n{script}\nthe browser's console errors: {errors:?}")
            }
        }
    }

    /// Run `script`, a function body that finishes by calling its last argument with the result
    /// (WebDriver's asynchronous script).
    pub async fn js_async(&self, script: &str) -> Value {
        self.client.execute_async(script, vec![]).await.unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
    }

    /// Pixel statistics of the canvas inside the element with `data-testid` = `id`:
    /// (painted pixels, distinct colours), read back from the canvas itself.
    pub async fn canvas_paint(&self, id: &str) -> (u64, u64) {
        self.wait_for(&format!("[data-testid='{id}'] canvas[data-drawn='true']")).await;
        let v = self
            .js(
                r#"const c = document.querySelector(`[data-testid='${arguments[0]}'] canvas`);
                   const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
                   let painted = 0; const colours = new Set();
                   for (let i = 0; i < d.length; i += 4) {
                     if (d[i + 3] > 0) { painted++; colours.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]); }
                   }
                   return [painted, colours.size];"#,
                vec![json!(id)],
            )
            .await;
        (v[0].as_u64().unwrap_or(0), v[1].as_u64().unwrap_or(0))
    }

    /// Fail the test if the page shows the panic notice.
    pub async fn assert_no_panic(&self) {
        let panics = self.client.find_all(Locator::Css("[data-testid='panic']")).await.expect("query");
        if let Some(p) = panics.first() {
            panic!("the page panicked: {}", p.text().await.unwrap_or_default());
        }
    }

    /// Run the page's CPU `rate` times slower (DevTools' `Emulation.setCPUThrottlingRate`, which
    /// holds across the tab's navigations), or say why not: only Chromium has it.
    pub async fn throttle_cpu(&self, rate: f64) -> Result<(), String> {
        if self.engine != Engine::Chromium {
            return Err(format!("{} has no CPU throttling", self.engine.name()));
        }
        let command = json!({ "cmd": "Emulation.setCPUThrottlingRate", "params": { "rate": rate } });
        self.client.issue_cmd(Cdp(command)).await.map(drop).map_err(|e| e.to_string())
    }

    /// The process id of the WebDriver server that started this browser (its processes are
    /// under it).
    pub fn driver_pid(&self) -> Option<u32> {
        self.driver.lock().ok()?.pid()
    }

    /// With `E2E_SHOTS=<folder>`, a screenshot of the window as `<folder>/<name>-<engine>.png`
    /// (to look at what a test saw); nothing otherwise.
    pub async fn shot(&self, name: &str) {
        let Some(folder) = std::env::var_os("E2E_SHOTS") else { return };
        let png = self.client.screenshot().await.expect("a screenshot");
        let file = std::path::Path::new(&folder).join(format!("{name}-{}.png", self.engine.name().to_lowercase()));
        std::fs::write(&file, png).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    }

    /// Click the element with `data-testid` = `id`.
    pub async fn click(&self, id: &str) {
        self.click_css(&format!("[data-testid='{id}']")).await;
    }

    /// Click the element matching `css`.
    ///
    /// As a user does: it scrolls the element into the middle of the screen (Firefox and WebKit
    /// would otherwise scroll it only to the edge, under a sticky bar), waits for it to hold
    /// still, clicks, and checks the click reached it (not what moved under the pointer).
    pub async fn click_css(&self, css: &str) {
        let el = self.wait_for(css).await;
        let _ = self.client.execute_async(HOLD_STILL, vec![json!(el)]).await;
        let _ = self.client.execute(LISTEN_FOR_CLICK, vec![json!(css)]).await;
        el.click().await.unwrap_or_else(|e| panic!("click {css}: {e}"));
        let landed =
            self.client.execute("return window.__landed ?? (window.__landed === null ? null : 'left');", vec![]).await;
        match landed {
            Ok(v) if v == "on it" || v == "left" => {}
            Ok(Value::Null) => {
                panic!(
                    "click {css}: no click reached the page (was it disabled?); the page: {}",
                    self.where_it_stands().await
                )
            }
            Ok(v) => panic!("click {css} landed on {v}; the page: {}", self.where_it_stands().await),
            // The click opened another page, whose script is not ready to answer yet.
            Err(_) => {}
        }
    }

    /// Replace the text of the field `id` by typing: select all, delete, then type `text`.
    pub async fn type_into(&self, id: &str, text: &str) {
        let el = self.wait_for(&format!("[data-testid='{id}']")).await;
        el.click().await.expect("focus the field");
        // Ctrl+A, release, Backspace (WebDriver key codes).
        el.send_keys("\u{E009}a\u{E000}\u{E003}").await.expect("clear by keyboard");
        if !text.is_empty() {
            el.send_keys(text).await.expect("type");
        }
    }

    /// Set a field's value and fire one `input`, as dragging a slider or pasting does.
    pub async fn set_value(&self, id: &str, value: &str) {
        self.set_and_fire(id, value, "input").await;
    }

    /// Set a field's value and fire `change`, as leaving an edited field does.
    pub async fn set_and_change(&self, id: &str, value: &str) {
        self.set_and_fire(id, value, "change").await;
    }

    async fn set_and_fire(&self, id: &str, value: &str, event: &str) {
        self.wait_for(&format!("[data-testid='{id}']")).await;
        self.js(
            "const el = document.querySelector(`[data-testid='${arguments[0]}']`);
             el.value = arguments[1];
             el.dispatchEvent(new Event(arguments[2], { bubbles: true }));",
            vec![json!(id), json!(value), json!(event)],
        )
        .await;
    }

    /// Choose the option `value` of the select `id`, as a user does (it fires `change`).
    ///
    /// Found again and tried again, up to three times: WebKit's WebDriver once failed the click
    /// on the option, with an empty message, in a model view that was redrawing its heads (a
    /// select the page draws anew between finding it and choosing is another element by then).
    pub async fn choose(&self, id: &str, value: &str) {
        let mut last = None;
        for _ in 0..3 {
            let el = self.wait_for(&format!("[data-testid='{id}']")).await;
            match el.select_by_value(value).await {
                Ok(()) => return,
                Err(e) => last = Some(e.to_string()),
            }
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
        panic!("choose {value} in {id}: {}", last.unwrap_or_default());
    }

    /// From now on, record each file the page offers to save instead of saving it, and keep
    /// the Blob behind each object URL (the page's own CSP rightly forbids fetching blob: or
    /// data: URLs); [`Browser::downloads`] reads them.
    pub async fn catch_downloads(&self) {
        self.js(
            "window.__downloads = []; window.__blobs = {};
             const make = URL.createObjectURL.bind(URL);
             URL.createObjectURL = b => { const u = make(b); window.__blobs[u] = b; return u; };
             HTMLAnchorElement.prototype.click = function () { window.__downloads.push({ name: this.download, href: this.href }); };",
            vec![],
        )
        .await;
    }

    /// The files offered since [`Browser::catch_downloads`]: `{name, head (first 8 bytes), text}`.
    pub async fn downloads(&self) -> Vec<Value> {
        let files = self
            .client
            .execute_async(
                "const done = arguments[arguments.length - 1];
                 const bytesOf = async href => href.startsWith('data:')
                   ? Uint8Array.from(atob(href.split(',')[1]), c => c.charCodeAt(0))
                   : new Uint8Array(await window.__blobs[href].arrayBuffer());
                 Promise.all(window.__downloads.map(async d => {
                   const bytes = await bytesOf(d.href);
                   return { name: d.name, head: Array.from(bytes.slice(0, 8)), text: new TextDecoder().decode(bytes) };
                 })).then(done, e => done({ error: String(e) }));",
                vec![],
            )
            .await
            .expect("read the downloads");
        files.as_array().cloned().unwrap_or_default()
    }

    /// Press a key on the page body (not in a form field).
    pub async fn press(&self, key: &str) {
        self.js("document.activeElement && document.activeElement.blur();", vec![]).await;
        let body = self.wait_for("body").await;
        body.send_keys(key).await.expect("send key");
    }

    /// Press Tab where the focus is, as a keyboard user moves through the page.
    pub async fn tab(&self) {
        let focused = self.client.active_element().await.expect("an active element");
        focused.send_keys("\u{E004}").await.expect("send Tab");
    }

    /// Move the mouse to the centre of the canvas inside `id` (a real pointer move).
    pub async fn hover_canvas(&self, id: &str) {
        let canvas = self.wait_for(&format!("[data-testid='{id}'] canvas")).await;
        // A pointer cannot move to what is off screen: bring it into view first, as a user would.
        self.js(
            "arguments[0].scrollIntoView({ block: 'center' });",
            vec![serde_json::to_value(&canvas).expect("an element")],
        )
        .await;
        let actions = fantoccini::actions::MouseActions::new("mouse".to_string()).then(
            fantoccini::actions::PointerAction::MoveToElement { element: canvas, duration: None, x: 0.0, y: 0.0 },
        );
        self.client.perform_actions(actions).await.expect("move the mouse");
    }

    /// Texts of all captions inside the element `id`.
    pub async fn captions_in(&self, id: &str) -> Vec<String> {
        let v = self
            .js(
                "return [...document.querySelectorAll(`[data-testid='${arguments[0]}'] [data-caption]`)].map(c => c.textContent);",
                vec![json!(id)],
            )
            .await;
        v.as_array().map(|a| a.iter().filter_map(|x| x.as_str().map(String::from)).collect()).unwrap_or_default()
    }

    /// How many canvases inside `id` are drawn, out of how many.
    pub async fn drawn_canvases(&self, id: &str) -> (u64, u64) {
        let v = self
            .js(
                "const cs = [...document.querySelectorAll(`[data-testid='${arguments[0]}'] canvas`)];
                 const painted = c => { const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
                   let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++; return n > 1000; };
                 return [cs.filter(c => c.dataset.drawn === 'true' && painted(c)).length, cs.length];",
                vec![json!(id)],
            )
            .await;
        (v[0].as_u64().unwrap_or(0), v[1].as_u64().unwrap_or(0))
    }

    /// Fail if a broken number ("NaN", "inf", "Infinity" as words) reaches the screen.
    pub async fn assert_no_broken_numbers(&self) {
        // The word, the text around it, the innermost element showing it and the place; the
        // site's own sentences about such numbers (a training run that diverged, the mask's
        // −∞ in code) left out first.
        let found = self
            .js(
                "let text = document.body.innerText;
                 for (const prose of arguments[0]) text = text.split(prose).join(' ');
                 const m = text.match(/\\b(NaN|-?inf|-?infinity)\\b/i);
                 if (!m) return null;
                 const around = text.slice(Math.max(0, m.index - 120), m.index + 60);
                 let el = null;
                 for (const e of document.querySelectorAll('body *')) if (new RegExp('\\\\b' + m[0] + '\\\\b', 'i').test(e.innerText || '')) el = e;
                 const path = [];
                 for (let e = el; e && e !== document.body; e = e.parentElement) if (e.dataset.testid) path.push(e.dataset.testid);
                 return [m[0], around, path.join(' < '), location.search];",
                vec![json!(prose_naming_broken_numbers())],
            )
            .await;
        assert!(found.is_null(), "the page shows a broken number (the word, its text, where, the link): {found}");
    }

    pub async fn close(self) {
        // Restarts the test did not read the console for are noted too.
        if self.engine == Engine::Chromium {
            let log = self.client.issue_cmd(BrowserLog).await.unwrap_or_default();
            let messages = log.as_array().into_iter().flatten().filter_map(|e| e["message"].as_str());
            messages.filter(|m| m.contains(RESTART)).for_each(note_restart);
        } else if let Ok(driver) = self.driver.lock() {
            driver.restarts().iter().for_each(|line| note_restart(line));
        }
        let _ = self.client.clone().close().await;
        // Dropping the driver kills its server and whatever browser processes are still around.
    }
}

/// A number to tell this process's windows apart.
fn window_number() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// Whether `text` has the word NaN, inf or infinity (any case, a "-" before it allowed), as
/// the broken-number check finds it.
fn names_a_broken_number(text: &str) -> bool {
    let lower = text.to_lowercase();
    let word = |at: usize, len: usize| {
        let before = lower[..at].chars().next_back().is_none_or(|c| !c.is_alphanumeric() && c != '_');
        let after = lower[at + len..].chars().next().is_none_or(|c| !c.is_alphanumeric() && c != '_');
        before && after
    };
    ["nan", "infinity", "inf"].iter().any(|w| lower.match_indices(w).any(|(at, _)| word(at, w.len())))
}

/// The pieces of the site's texts, in both languages, that name NaN or infinity on purpose
/// (a line of a text, cut at its placeholders): what the page says *about* such numbers.
pub fn prose_naming_broken_numbers() -> Vec<String> {
    use attention_lab::i18n::*;
    fn pieces<M: Text>(all: &[M], out: &mut Vec<String>) {
        for &m in all {
            for lang in [Lang::En, Lang::Zh] {
                for line in t(lang, m).lines() {
                    let cut = line.split(['{', '}']).enumerate().filter(|(i, _)| i % 2 == 0).map(|(_, p)| p.trim());
                    out.extend(cut.filter(|p| names_a_broken_number(p)).map(String::from));
                }
            }
        }
    }
    let mut out = Vec::new();
    pieces(&AblateMsg::ALL, &mut out);
    pieces(&ClassMsg::ALL, &mut out);
    pieces(&Code::ALL, &mut out);
    pieces(&ErrMsg::ALL, &mut out);
    pieces(&Formula::ALL, &mut out);
    pieces(&GenerateMsg::ALL, &mut out);
    pieces(&LearnMsg::ALL, &mut out);
    pieces(&Msg::ALL, &mut out);
    pieces(&LessonMsg::ALL, &mut out);
    pieces(&ModelMsg::ALL, &mut out);
    pieces(&PredictMsg::ALL, &mut out);
    pieces(&ReadingMsg::ALL, &mut out);
    pieces(&ViewMsg::ALL, &mut out);
    out
}

/// The broken-number check leaves out the site's own sentences about NaN and ∞, and only them.
pub fn the_broken_number_check_knows_the_sites_sentences_about_nan() {
    let prose = prose_naming_broken_numbers();
    assert!(prose.iter().any(|p| p.contains("(NaN or ∞)")), "the diverged run's message: {prose:?}");
    assert!(prose.iter().any(|p| p.contains("0/0")), "the mask note's NaN: {prose:?}");
    assert!(names_a_broken_number("x = NaN") && names_a_broken_number("−inf") && names_a_broken_number("-Infinity"));
    assert!(!names_a_broken_number("information, infer, nano, Infinite"));
}
