//! The browser engine the end-to-end tests drive, chosen by one variable, `E2E_BROWSER`:
//! `chromium` (the default; Debian's chromium through chromedriver), `firefox` (firefox-esr
//! through geckodriver) or `webkit` (WebKitGTK, Safari's engine, through WebKitWebDriver, in a
//! virtual display of its own). Starts the engine's WebDriver server for one window and keeps
//! what the browser writes, since only chromedriver hands the console over WebDriver.
#![allow(dead_code)] // shared with benches/browser.rs, which uses only part of it

use serde_json::{json, Map, Value};
use std::path::Path;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};
use tokio::process::{Child, Command};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    Chromium,
    Firefox,
    WebKit,
}

impl Engine {
    /// The engine `E2E_BROWSER` names (Chromium when it is unset).
    pub fn chosen() -> Engine {
        match std::env::var("E2E_BROWSER").unwrap_or_default().to_ascii_lowercase().as_str() {
            "" | "chromium" | "chrome" => Engine::Chromium,
            "firefox" | "gecko" => Engine::Firefox,
            "webkit" | "safari" => Engine::WebKit,
            other => panic!("E2E_BROWSER={other}: use chromium, firefox or webkit"),
        }
    }

    /// Whether this engine runs a test's engine-neutral repeats (both languages, every screen
    /// size): Chromium does; Firefox and WebKit check the Chinese page (its fonts and its longer
    /// lines are where a layout breaks) and the smallest and the most common screen, since the
    /// texts and the sizes are the page's own logic. (Fewer pages also keep WebKit's process
    /// under the number of WebAssembly memories its engine handles well: `browser.rs`.)
    pub fn every_repeat(self) -> bool {
        self == Engine::Chromium
    }

    /// The languages a test repeated per language checks in this engine.
    pub fn languages(self) -> &'static [&'static str] {
        if self.every_repeat() {
            &["en", "zh"]
        } else {
            &["zh"]
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Engine::Chromium => "Chromium",
            Engine::Firefox => "Firefox",
            Engine::WebKit => "WebKit",
        }
    }
}

/// The page's screen: CSS px, device pixels per CSS px, and whether it is a phone (touch and a
/// mobile viewport: Chromium's emulation; the other engines get the size and the pixel ratio).
#[derive(Clone, Copy, Debug)]
pub struct Screen {
    pub width: u32,
    pub height: u32,
    pub pixel_ratio: f64,
    pub mobile: bool,
    /// Service workers on (false only in Firefox, the one engine with a switch for them).
    pub service_workers: bool,
    /// The page's viewport exactly this size (Chromium's device emulation), not a window of it.
    pub exact: bool,
}

/// A running WebDriver server (and, for WebKit, its display), killed with its whole process
/// group on drop, the browser included.
pub struct Driver {
    pub url: String,
    server: Child,
    display: Option<Child>,
    /// Every line the server and the browser under it wrote (not kept for Chromium).
    output: Arc<Mutex<Vec<String>>>,
    read: usize,
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free port")
}

/// The WebKitGTK browser WebKitWebDriver starts: a window whose page writes its console to
/// stdout (WebKitGTK's MiniBrowser ignores that setting under automation).
fn webkit_browser() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/e2e/webkit_browser.py").display().to_string()
}

impl Driver {
    /// Start `engine`'s WebDriver server; returns it with the capabilities for a session
    /// showing `screen`, with the profile (Chromium's and WebKit's; geckodriver makes Firefox's)
    /// in `profile`.
    pub async fn start(engine: Engine, screen: Screen, profile: &Path) -> (Driver, Map<String, Value>) {
        let port = free_port();
        let output = Arc::new(Mutex::new(Vec::new()));
        let mut display = None;
        let mut command = match engine {
            Engine::Chromium => {
                let mut c = Command::new("chromedriver");
                c.arg(format!("--port={port}"));
                c
            }
            Engine::Firefox => {
                let mut c = Command::new("geckodriver");
                c.args(["--port", &port.to_string(), "--log", "error"]);
                c
            }
            Engine::WebKit => {
                // Line-buffered, so each console line arrives as it is written.
                let mut c = Command::new("stdbuf");
                c.args(["-oL", "-eL", "WebKitWebDriver", &format!("--port={port}")]);
                let (xvfb, number) = virtual_display().await;
                display = Some(xvfb);
                c.env("DISPLAY", format!(":{number}"));
                // Its storage in the test's fresh profile folder (webkit_browser.py).
                c.env("ATTENTION_LAB_WEBKIT_DATA", profile);
                // GTK scales by whole numbers only.
                c.env("GDK_SCALE", format!("{}", screen.pixel_ratio.round().max(1.0)));
                c
            }
        };
        // Its own process group, so the browser it starts can be killed with it (see Drop).
        command.stdin(Stdio::null()).process_group(0).kill_on_drop(true);
        if engine == Engine::Chromium {
            command.stdout(Stdio::null()).stderr(Stdio::null());
        } else {
            command.stdout(Stdio::piped()).stderr(Stdio::piped());
        }
        let mut server = command.spawn().unwrap_or_else(|e| {
            panic!("could not start {}'s WebDriver server ({e}): scripts/setup.sh installs it", engine.name())
        });
        if let Some(out) = server.stdout.take() {
            keep_lines(out, output.clone());
        }
        if let Some(err) = server.stderr.take() {
            keep_lines(err, output.clone());
        }
        let driver = Driver { url: format!("http://127.0.0.1:{port}"), server, display, output, read: 0 };
        (driver, capabilities(engine, screen, profile))
    }

    /// The WebDriver server's process id: the browser it starts runs under it.
    pub fn pid(&self) -> Option<u32> {
        self.server.id()
    }

    /// The last `n` lines the server and the browser wrote (not kept for Chromium), for a
    /// failure to show what the engine said about it.
    pub fn last_lines(&self, n: usize) -> Vec<String> {
        let lines = self.output.lock().map(|l| l.clone()).unwrap_or_default();
        lines[lines.len().saturating_sub(n)..].to_vec()
    }

    /// Whether the browser has written a line containing `text` since the last
    /// [`Driver::console_errors`].
    pub fn has_line(&self, text: &str) -> bool {
        let lines = self.output.lock().map(|l| l.clone()).unwrap_or_default();
        lines.get(self.read..).unwrap_or_default().iter().any(|line| line.contains(text))
    }

    /// The lines since the last [`Driver::console_errors`] that say the page loaded itself once
    /// more after a trap at its start.
    pub fn restarts(&self) -> Vec<String> {
        let lines = self.output.lock().map(|l| l.clone()).unwrap_or_default();
        let new = lines.get(self.read..).unwrap_or_default();
        new.iter().filter(|line| line.contains(crate::browser::RESTART)).cloned().collect()
    }

    /// The page's console errors the browser wrote since the last call (not for Chromium,
    /// whose console comes through chromedriver's log endpoint).
    pub fn console_errors(&mut self, engine: Engine) -> Vec<String> {
        let lines = self.output.lock().map(|l| l.clone()).unwrap_or_default();
        let new = lines.get(self.read..).unwrap_or_default().to_vec();
        self.read = lines.len();
        let (gone, since) = crate::browser::split_at_restart(&new, |line| line.contains(crate::browser::RESTART));
        crate::browser::note_given_up(&gone.iter().filter_map(|line| page_error(engine, line)).collect::<Vec<_>>());
        since.iter().filter_map(|line| page_error(engine, line)).collect()
    }
}

impl Drop for Driver {
    /// Also when a test fails half-way: kill the server's whole process group, the browser
    /// included, so no browser outlives its test.
    fn drop(&mut self) {
        if let Some(pid) = self.server.id() {
            // "--" first: without it, kill(1) may read "-13" as options and signal -1, which
            // is every process on the machine (this once ended a whole CI run).
            let _ = std::process::Command::new("kill").args(["-s", "KILL", "--", &format!("-{pid}")]).status();
        }
        // Xvfb on TERM, so that it removes its lock file and socket.
        if let Some(pid) = self.display.as_ref().and_then(|d| d.id()) {
            let _ = std::process::Command::new("kill").args(["-s", "TERM", "--", &pid.to_string()]).status();
        }
    }
}

/// Keep every line `from` writes.
fn keep_lines(from: impl AsyncRead + Unpin + Send + 'static, into: Arc<Mutex<Vec<String>>>) {
    tokio::spawn(async move {
        let mut lines = BufReader::new(from).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            if let Ok(mut kept) = into.lock() {
                kept.push(line);
            }
        }
    });
}

/// A virtual X display for WebKitGTK (Xvfb, from Debian), large enough for a phone's screen
/// at three device pixels per CSS px; its process and display number.
async fn virtual_display() -> (Child, String) {
    let mut xvfb = Command::new("Xvfb")
        .args(["-displayfd", "1", "-screen", "0", "3840x2800x24", "-nolisten", "tcp"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("Xvfb on PATH (scripts/setup.sh installs it): WebKitGTK needs a display");
    let out = xvfb.stdout.take().expect("Xvfb's stdout");
    let number = BufReader::new(out).lines().next_line().await.ok().flatten().unwrap_or_default();
    assert!(!number.trim().is_empty(), "Xvfb did not say which display it opened");
    (xvfb, number.trim().to_string())
}

/// The session's capabilities for `engine`.
fn capabilities(engine: Engine, screen: Screen, profile: &Path) -> Map<String, Value> {
    let caps = match engine {
        Engine::Chromium => {
            let (width, height) =
                if screen.exact { (screen.width.max(500), screen.height + 200) } else { (screen.width, screen.height) };
            let mut caps = json!({
                "goog:loggingPrefs": { "browser": "ALL" },
                "goog:chromeOptions": {
                    "binary": "/usr/bin/chromium",
                    "args": [
                        "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                        "--disable-background-networking", "--disable-component-update", "--disable-sync",
                        "--disable-dev-shm-usage", format!("--window-size={width},{height}"),
                        format!("--user-data-dir={}", profile.display()),
                    ]
                }
            });
            // E2E_CHROMIUM_ARGS: more switches, space-separated (the memory benchmark's
            // breakdown asks for Blink's eager memory measurement).
            if let (Ok(more), Some(args)) =
                (std::env::var("E2E_CHROMIUM_ARGS"), caps["goog:chromeOptions"]["args"].as_array_mut())
            {
                args.extend(more.split_whitespace().map(|a| json!(a)));
            }
            if screen.exact {
                caps["goog:chromeOptions"]["mobileEmulation"] = json!({ "deviceMetrics": {
                    "width": screen.width, "height": screen.height, "pixelRatio": screen.pixel_ratio,
                    "mobile": screen.mobile, "touch": screen.mobile
                }});
            }
            caps
        }
        Engine::Firefox => json!({
            "browserName": "firefox",
            "moz:firefoxOptions": {
                "binary": "/usr/bin/firefox-esr",
                "args": ["-headless"],
                "prefs": {
                    // The page's console (and its workers') on stdout; the browser's own not.
                    "devtools.console.stdout.content": true,
                    "devtools.console.stdout.chrome": false,
                    "layout.css.devPixelsPerPx": format!("{}", screen.pixel_ratio),
                    "browser.shell.checkDefaultBrowser": false,
                    "datareporting.policy.dataSubmissionEnabled": false,
                    "app.shield.optoutstudies.enabled": false,
                    "app.normandy.enabled": false,
                    "dom.serviceWorkers.enabled": screen.service_workers,
                }
            }
        }),
        Engine::WebKit => json!({
            "webkitgtk:browserOptions": { "binary": webkit_browser(), "args": ["--automation"] }
        }),
    };
    match caps {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// The page's error in one line the browser wrote, if it is one.
///
/// - Firefox prints `console.error: …` with the arguments as source text (a string in quotes,
///   an object in brackets), and uncaught errors as `JavaScript error: <url>, line N: …`. Its
///   own modules log through named consoles (`console.error: RSLoader: …`) and their errors
///   come from `resource://` or `chrome://`: those are the browser's, not the page's.
/// - WebKitGTK prints `<url>:<line>:<col>: CONSOLE <source> <level> <message>`, without the
///   source for the console API's own messages.
pub fn page_error(engine: Engine, line: &str) -> Option<String> {
    let line = line.trim();
    match engine {
        Engine::Chromium => None,
        Engine::Firefox => {
            if let Some(rest) = line.strip_prefix("console.error: ") {
                let named_console = rest.split_once(':').is_some_and(|(name, _)| {
                    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || "._-".contains(c))
                });
                (!named_console).then(|| line.to_string())
            } else if let Some(rest) = line.strip_prefix("JavaScript error: ") {
                rest.starts_with("http").then(|| line.to_string())
            } else {
                None
            }
        }
        Engine::WebKit => {
            // The console API's messages have no source: `CONSOLE ERROR <message>`.
            let (_, message) = line.split_once("CONSOLE ")?;
            let mut words = message.split_whitespace();
            let first = words.next()?;
            let level =
                if ["LOG", "INFO", "WARN", "ERROR", "DEBUG"].contains(&first) { first } else { words.next()? };
            (level == "ERROR").then(|| line.to_string())
        }
    }
}
