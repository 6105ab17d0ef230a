//! A minimal static file server for `dist/` on 127.0.0.1 (a random free port), optionally
//! under a sub-path.
#![allow(dead_code)] // shared with benches/browser.rs

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

/// A running server; stopped or dropped, it stops answering.
pub struct Site {
    pub base: String,
    task: JoinHandle<()>,
    /// Requests answered 503 (a file that does not arrive): their path contains this, or (when
    /// it starts with "=") is exactly the rest.
    refused: Arc<Mutex<Option<String>>>,
    /// How many requests were refused so.
    refusals: Arc<AtomicUsize>,
}

impl Site {
    /// Serve the built site at `http://127.0.0.1:<port><prefix>/` (`prefix` "" or "/sub/path").
    pub async fn start(prefix: &str) -> Site {
        Site::start_in(dist_dir(), prefix).await
    }

    /// Serve the built site as [`Site::start`] does, cross-origin isolated (COOP same-origin,
    /// COEP require-corp): the benchmark's server, for the peer's threads.
    pub async fn start_isolated(prefix: &str) -> Site {
        Site::serve(dist_dir(), prefix, Serving { isolated: true, compressed: false }).await
    }

    /// Serve the published build (`dist/`) as a static host does: its text and .wasm gzip-
    /// compressed for a browser that accepts it (the benchmark's Lighthouse audit).
    pub async fn start_compressed() -> Site {
        Site::serve(published_dir(), "", Serving { isolated: false, compressed: true }).await
    }

    /// Serve the folder `root` (a build) cross-origin isolated, as [`Site::start_isolated`]
    /// does: the memory benchmark's breakdown (`performance.measureUserAgentSpecificMemory`
    /// is only offered to an isolated page).
    pub async fn start_isolated_in(root: PathBuf) -> Site {
        Site::serve(root, "", Serving { isolated: true, compressed: false }).await
    }

    /// Serve the folder `root` (a build) the same way; its files are read at each request,
    /// so changing them publishes a new version to the running server.
    pub async fn start_in(root: PathBuf, prefix: &str) -> Site {
        Site::serve(root, prefix, Serving::default()).await
    }

    async fn serve(root: PathBuf, prefix: &str, serving: Serving) -> Site {
        assert!(
            root.join("index.html").is_file(),
            "{} has no index.html: build the site first (scripts/test.sh does)",
            root.display()
        );
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind 127.0.0.1");
        let port = listener.local_addr().expect("local addr").port();
        let prefix = prefix.trim_end_matches('/').to_string();
        let base = format!("http://127.0.0.1:{port}{prefix}/");
        let (refused, refusals) = (Arc::new(Mutex::new(None::<String>)), Arc::new(AtomicUsize::new(0)));
        let (refusing, counted) = (Arc::clone(&refused), Arc::clone(&refusals));
        let task = tokio::spawn(async move {
            while let Ok((mut stream, _)) = listener.accept().await {
                let (root, prefix) = (root.clone(), prefix.clone());
                let (refusing, counted) = (Arc::clone(&refusing), Arc::clone(&counted));
                tokio::spawn(async move {
                    let mut buf = vec![0u8; 8192];
                    let Ok(n) = stream.read(&mut buf).await else { return };
                    let request = String::from_utf8_lossy(&buf[..n]);
                    let path = request.split_whitespace().nth(1).unwrap_or("/").to_string();
                    let refuse =
                        refusing.lock().ok().and_then(|r| r.clone()).is_some_and(|part| match part.strip_prefix('=') {
                            Some(exactly) => path == exactly,
                            None => path.contains(&part),
                        });
                    let response = if refuse {
                        counted.fetch_add(1, Ordering::SeqCst);
                        status(503)
                    } else {
                        let gzip = serving.compressed && accepts_gzip(&request);
                        respond(&root, &prefix, &path, Serving { compressed: gzip, ..serving })
                    };
                    let _ = stream.write_all(&response).await;
                    let _ = stream.shutdown().await;
                });
            }
        });
        Site { base, task, refused, refusals }
    }

    /// From now on, answer every request whose path (query included) contains `part` with 503,
    /// as a network that drops a file; `=path` refuses that path exactly (a query makes it
    /// another request).
    pub fn refuse(&self, part: &str) {
        if let Ok(mut r) = self.refused.lock() {
            *r = Some(part.to_string());
        }
    }

    /// Answer every request again.
    pub fn allow(&self) {
        if let Ok(mut r) = self.refused.lock() {
            *r = None;
        }
    }

    /// How many requests were refused so far.
    pub fn refusals(&self) -> usize {
        self.refusals.load(Ordering::SeqCst)
    }

    /// Stop answering, as if the network or the server went away.
    pub fn stop(&self) {
        self.task.abort();
    }

    /// The path the server sees for `file` (under its prefix).
    pub fn path(&self, file: &str) -> String {
        let base = self.base.splitn(4, '/').nth(3).unwrap_or_default();
        format!("/{base}{file}")
    }

    /// The full URL of `rest` (which may start with "?" or "#").
    pub fn url(&self, rest: &str) -> String {
        format!("{}{}", self.base, rest.trim_start_matches('/'))
    }
}

impl Drop for Site {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// How a [`Site`] answers: cross-origin isolated (COOP same-origin, COEP require-corp) or not;
/// gzip-compressed or not.
#[derive(Debug, Clone, Copy, Default)]
struct Serving {
    isolated: bool,
    compressed: bool,
}

/// Does the request's `Accept-Encoding` header name gzip?
fn accepts_gzip(request: &str) -> bool {
    request.lines().any(|l| {
        l.split_once(':')
            .is_some_and(|(name, value)| name.eq_ignore_ascii_case("accept-encoding") && value.contains("gzip"))
    })
}

/// Bytes of `data` after gzip -9, the way static servers send it.
pub fn gzip_len(data: &[u8]) -> usize {
    gzipped(data).len()
}

/// `data` after gzip -9.
pub fn gzipped(data: &[u8]) -> Vec<u8> {
    let mut child = std::process::Command::new("gzip")
        .arg("-9c")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("gzip on PATH");
    // Feed gzip from another thread while this one reads, or both pipes fill and stall.
    let mut stdin = child.stdin.take().expect("stdin");
    let data = data.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&data));
    let out = child.wait_with_output().expect("gzip output").stdout;
    writer.join().expect("writer thread").expect("write to gzip");
    out
}

/// The file of the build in `dir` whose name starts with `prefix` and ends with `suffix`.
pub fn built_in(dir: &Path, prefix: &str, suffix: &str) -> Vec<u8> {
    let entry = std::fs::read_dir(dir)
        .expect("dist/ exists: build the site first")
        .filter_map(Result::ok)
        .find(|e| {
            let name = e.file_name().to_string_lossy().to_string();
            name.starts_with(prefix) && name.ends_with(suffix)
        })
        .unwrap_or_else(|| panic!("no {prefix}*{suffix} in dist/"));
    std::fs::read(entry.path()).expect("read built file")
}

/// Copy every file of `from` into `to` (made if missing).
pub fn copy_build(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).expect("read the build").filter_map(Result::ok) {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            std::fs::create_dir_all(&target).expect("make a folder");
            copy_build(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).expect("copy a file");
        }
    }
}

/// A scratch folder for one test, removed when the test ends.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("attention-lab-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("make a scratch folder");
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub fn dist_dir() -> PathBuf {
    std::env::var_os("E2E_DIST").map(PathBuf::from).unwrap_or_else(published_dir)
}

/// `dist/`: the build that is published (whatever `E2E_DIST` says).
pub fn published_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("dist")
}

fn respond(root: &Path, prefix: &str, raw_path: &str, serving: Serving) -> Vec<u8> {
    let path = raw_path.split(['?', '#']).next().unwrap_or("/");
    let Some(rel) = path.strip_prefix(prefix) else { return status(404) };
    let rel = rel.trim_start_matches('/');
    let rel = if rel.is_empty() { "index.html" } else { rel };
    if rel.split('/').any(|part| part == "..") {
        return status(404);
    }
    match std::fs::read(root.join(rel)) {
        Ok(body) => {
            let mime = match rel.rsplit('.').next() {
                Some("html") => "text/html; charset=utf-8",
                Some("js") | Some("mjs") => "text/javascript",
                Some("wasm") => "application/wasm",
                Some("css") => "text/css",
                Some("svg") => "image/svg+xml",
                Some("json") | Some("webmanifest") => "application/json",
                Some("png") => "image/png",
                _ => "application/octet-stream",
            };
            let isolation = if serving.isolated {
                "Cross-Origin-Opener-Policy: same-origin\r\nCross-Origin-Embedder-Policy: require-corp\r\n"
            } else {
                ""
            };
            // Text and .wasm compress; images and model files are left as they are.
            let compress = serving.compressed && !matches!(rel.rsplit('.').next(), Some("png" | "bin"));
            let (body, encoding) = if compress {
                (gzipped(&body), "Content-Encoding: gzip\r\nVary: Accept-Encoding\r\n")
            } else {
                (body, "")
            };
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: {mime}\r\nContent-Length: {}\r\n{isolation}{encoding}Cache-Control: no-cache\r\nConnection: close\r\n\r\n",
                body.len()
            );
            [head.into_bytes(), body].concat()
        }
        Err(_) => status(404),
    }
}

fn status(code: u16) -> Vec<u8> {
    let reason = if code == 404 { "Not Found" } else { "Service Unavailable" };
    format!("HTTP/1.1 {code} {reason}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n").into_bytes()
}
