//! What a teacher publishes: the release build, served by a plain static server under a
//! sub-path as a school's web server would, must log nothing wrong anywhere, and a new
//! publication must reach a tab that is already open.

use crate::browser::Browser;
use crate::places::{every_place, DRAWN};
use crate::server::{copy_build, published_dir, Scratch, Site};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The archive a teacher hands over (`scripts/build.sh` writes it), unpacked into a fresh
/// folder under `dir`, as a school's IT would put it on their server.
fn unpacked_archive(dir: &Path) -> PathBuf {
    let archive = Path::new(env!("CARGO_MANIFEST_DIR")).join("attention-lab-site.zip");
    assert!(archive.is_file(), "no attention-lab-site.zip: run scripts/build.sh (scripts/test.sh does)");
    let folder = dir.join("site");
    let status = std::process::Command::new("python3")
        .args(["-c", "import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])"])
        .arg(&archive)
        .arg(&folder)
        .status()
        .expect("python3 unpacks the archive");
    assert!(status.success(), "the archive did not unpack");
    assert_eq!(version_of(&folder), version_of(&published_dir()), "the archive is not the build in dist/");
    folder
}

/// Open every place in both languages; the console errors seen, each with where it appeared.
async fn walk(b: &Browser, site: &Site, when: &str) -> Vec<String> {
    let mut errors = Vec::new();
    for &lang in crate::engine::Engine::chosen().languages() {
        for place in every_place() {
            b.open_page(&site.url(&format!("?lang={lang}&{place}"))).await;
            b.wait_for(DRAWN).await;
            // Late work (the service worker, lazy drawings) has its frames before the log is read.
            b.frames(10).await;
            errors.extend(b.console_errors().await.into_iter().map(|e| format!("{when} {lang} {place}: {e}")));
        }
    }
    errors
}

pub async fn the_published_archive_shows_every_view_and_stage_without_a_console_error_online_and_offline() {
    let scratch = Scratch::new("archive");
    let site = Site::start_in(unpacked_archive(&scratch.0), "/school/attention-lab").await;
    let b = Browser::open(1280, 900).await;
    let mut errors = walk(&b, &site, "online").await;
    assert!(b.service_worker_controls().await, "the service worker never took control");
    site.stop();
    errors.extend(walk(&b, &site, "offline").await);
    b.assert_no_panic().await;
    b.close().await;
    assert!(errors.is_empty(), "console errors:\n{}", errors.join("\n"));
}

/// A page opened for the first time installs the service worker and is never offered a new
/// version: none was published. (Firefox told the first worker "installed" after it had taken
/// over the page; the page took that for a newer version waiting, and the random walk's click
/// on the offer reloaded the page with an older link.) Fresh windows, since the race is the
/// first install's.
pub async fn a_first_visit_is_never_offered_a_version_that_was_not_published() {
    let site = Site::start("").await;
    for window in 0..4 {
        let b = Browser::open(1280, 900).await;
        b.open_page(&site.url("?lang=en")).await;
        assert!(b.service_worker_controls().await, "window {window}: the service worker never took control");
        // Installed and active, nothing installing or waiting: every event of the install has
        // been delivered once the page has drawn a few frames more.
        let settled = "return navigator.serviceWorker.getRegistration().then(r => !!r && !!r.active && r.active.state === 'activated' && !r.installing && !r.waiting);";
        b.until(settled, "the first install settled", 20).await;
        b.frames(10).await;
        let offered = b.js("return !!document.querySelector(`[data-testid='update-offer']`);", vec![]).await;
        assert_eq!(offered, serde_json::json!(false), "window {window}: an update offered on a first visit");
        b.close().await;
    }
}

/// The version a build's page declares.
fn version_of(build: &Path) -> String {
    let html = std::fs::read_to_string(build.join("index.html")).expect("the page");
    let needle = r#"name="attention-lab-version" content=""#;
    let at = html.find(needle).expect("a version in the page") + needle.len();
    html[at..].split('"').next().unwrap_or_default().to_string()
}

/// A second publication: the published build with a changed stylesheet, finished again by the
/// post-build step (a new version, a new service worker listing the same files).
fn next_publication(dir: &Path) -> PathBuf {
    let b = dir.join("b");
    std::fs::create_dir_all(&b).expect("make build B");
    copy_build(&published_dir(), &b);
    let css = std::fs::read_dir(&b)
        .expect("read build B")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "css"))
        .expect("a stylesheet in the build");
    let mut text = std::fs::read_to_string(&css).expect("the stylesheet");
    text.push_str("\n/* build B */\n");
    std::fs::write(&css, text).expect("change the stylesheet");
    let status = std::process::Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/postbuild.py"))
        .arg(&b)
        .stdout(std::process::Stdio::null())
        .status()
        .expect("python3 runs the post-build step");
    assert!(status.success(), "the post-build step failed on build B");
    b
}

pub async fn a_new_publication_is_offered_to_an_open_tab_and_reloads_into_it() {
    let scratch = Scratch::new("update");
    let folder = unpacked_archive(&scratch.0);
    let (version_a, build_b) = (version_of(&folder), next_publication(&scratch.0));
    let version_b = version_of(&build_b);
    assert_ne!(version_a, version_b, "build B must be a different version");

    let site = Site::start_in(folder.clone(), "/attention-lab").await;
    let b = Browser::open(1280, 900).await;
    b.open_page(&site.url("?lang=en")).await;
    assert!(b.service_worker_controls().await, "the service worker never took control");
    b.press("?").await;
    assert_eq!(b.text_of("app-version").await, format!("Version {version_a}"));
    b.press("\u{E00C}").await; // Esc

    // Publish B into the same folder while the tab is open.
    copy_build(&build_b, &folder);
    let started = Instant::now();
    while b.client.find(fantoccini::Locator::Css("[data-testid='update-offer']")).await.is_err() {
        assert!(started.elapsed() < Duration::from_secs(90), "no offer of the new version within 90 s");
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    b.click("update-reload").await;
    let started = Instant::now();
    loop {
        let shown = b
            .js(
                "const m = document.querySelector('meta[name=attention-lab-version]'); return m ? m.content : '';",
                vec![],
            )
            .await;
        if shown == version_b.as_str() && b.client.find(fantoccini::Locator::Css("main")).await.is_ok() {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the page did not reload into version {version_b} (shows {shown})"
        );
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    assert!(b.client.find(fantoccini::Locator::Css("[data-testid='update-offer']")).await.is_err(), "still offered");
    b.assert_no_panic().await;
    b.close().await;
}
