//! The size budget of the built site: what a classroom's network has to fetch before the
//! first heatmap. Sizes are deterministic for a given toolchain, so this is a check, not a
//! timing (timings are printed by the benchmark instead).

use crate::server::{dist_dir, gzip_len};

/// Every .wasm of the build: the page's, the modules of the views the page starts (fetched
/// only when one of their views opens: the training view, the pretrained model's views, the
/// side lessons that read only the settings), the
/// training worker's (fetched when the training view starts its pool) and the forward
/// worker's in its two builds (one fetched when a downloaded model is first shown), with their
/// names.
fn wasm_files() -> Vec<(String, Vec<u8>)> {
    let files: Vec<(String, Vec<u8>)> = std::fs::read_dir(dist_dir())
        .expect("dist/ exists: build the site first")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with("_bg.wasm"))
        .map(|name| (name.clone(), std::fs::read(dist_dir().join(&name)).expect("read the .wasm")))
        .collect();
    assert_eq!(
        files.len(),
        7,
        "the page's .wasm, the training module's, the pretrained views', the side lessons', the training worker's and the forward worker's two"
    );
    files
}

/// Each .wasm, as a static server sends it (gzip -9), stays within 400 KB: the page's, which
/// comes before the first heatmap, and each module's, which comes only when one of its views
/// opens (model weights are a file of their own).
pub fn each_wasm_stays_within_its_400_kb_gzip_budget() {
    for (name, wasm) in wasm_files() {
        let gz = gzip_len(&wasm);
        assert!(
            gz <= 400_000,
            "{name} is {gz} bytes gzipped, over the 400 KB budget: see `twiggy top` and README's benchmark section"
        );
    }
}

/// The side lessons that read only the settings are their own module's (`crate::side`): the
/// page's release .wasm has no function of that module (read from its name section), the side
/// module has each view's.
pub fn the_side_lessons_are_in_their_module_not_in_the_page() {
    let built = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/wasm32-unknown-unknown/release");
    let names_of = |bin: &str| {
        let path = built.join(format!("{bin}.wasm"));
        function_names(
            &std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}: build the site first", path.display())),
        )
    };
    let (page, side) = (names_of("attention-lab"), names_of("side"));
    // Mangled, each segment after its length: attention_lab::side::variance::….
    let found: Vec<&String> = page.iter().filter(|n| n.contains("13attention_lab4side")).take(3).collect();
    assert!(found.is_empty(), "the page's .wasm has the side module's code: {found:?}");
    for view in ["8variance", "8position", "7rnn_cnn", "5block"] {
        let mangled = format!("13attention_lab4side{view}");
        assert!(side.iter().any(|n| n.contains(&mangled)), "the side module has no {mangled}");
    }
    // √d_k, d_k or nothing (its view inlined whole): its numbers are the module's only.
    let choices = "14attention_core7choices";
    assert!(side.iter().any(|n| n.contains(choices)), "the side module has no {choices}");
    assert!(!page.iter().any(|n| n.contains(choices)), "the page's .wasm has {choices}");
}

/// The items of `src/` that only the benchmark build has (those under
/// `#[cfg(feature = "bench")]`), as module paths: `app::bench`, `chart::heatmap::draw_naive`…
fn bench_only_items() -> Vec<Vec<String>> {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut items = Vec::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("src/").flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let rel = path.strip_prefix(&src).expect("in src/");
            let mut module: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
            let file = module.pop().unwrap_or_default();
            if !["mod.rs", "lib.rs"].contains(&file.as_str()) {
                module.push(file.trim_end_matches(".rs").to_string());
            }
            let text = std::fs::read_to_string(&path).expect("a source file");
            let lines: Vec<&str> = text.lines().collect();
            for (i, line) in lines.iter().enumerate() {
                if line.trim() != "#[cfg(feature = \"bench\")]" {
                    continue;
                }
                let item = lines.get(i + 1).map(|l| l.trim()).unwrap_or_default();
                let words: Vec<&str> =
                    item.trim_start_matches("pub ").split(|c: char| !c.is_alphanumeric() && c != '_').collect();
                if let ["mod" | "fn" | "static" | "struct" | "enum" | "const", name, ..] = words[..] {
                    items.push([module.clone(), vec![name.to_string()]].concat());
                }
            }
        }
    }
    items
}

/// The function names of a .wasm's name section (before wasm-opt, which drops it).
fn function_names(wasm: &[u8]) -> Vec<String> {
    fn leb(bytes: &[u8], at: &mut usize) -> usize {
        let (mut value, mut shift) = (0usize, 0);
        while let Some(&b) = bytes.get(*at) {
            *at += 1;
            value |= usize::from(b & 0x7f) << shift;
            shift += 7;
            if b & 0x80 == 0 {
                break;
            }
        }
        value
    }
    let mut names = Vec::new();
    let mut at = 8;
    while at < wasm.len() {
        let id = wasm[at];
        at += 1;
        let size = leb(wasm, &mut at);
        let end = (at + size).min(wasm.len());
        let mut p = at;
        let name_len = if id == 0 { leb(wasm, &mut p) } else { 0 };
        if id == 0 && wasm.get(p..p + name_len) == Some(b"name") {
            p += name_len;
            while p < end {
                let sub = wasm[p];
                p += 1;
                let sub_size = leb(wasm, &mut p);
                let sub_end = p + sub_size;
                if sub == 1 {
                    let count = leb(wasm, &mut p);
                    for _ in 0..count {
                        let _index = leb(wasm, &mut p);
                        let len = leb(wasm, &mut p);
                        names.push(String::from_utf8_lossy(&wasm[p..p + len]).into_owned());
                        p += len;
                    }
                }
                p = sub_end;
            }
        }
        at = end;
    }
    names
}

/// No benchmark code in the published build: none of the benchmark build's own items (read
/// from `src/`) has a function in the release .wasm of any binary (read from its name
/// section before wasm-opt strips it), and none of its page marks is in `dist/`.
pub fn the_published_wasm_carries_no_benchmark_code() {
    let items = bench_only_items();
    let expected =
        [vec!["app".to_string(), "bench".to_string()], ["chart", "heatmap", "draw_naive"].map(String::from).to_vec()];
    assert!(expected.iter().all(|e| items.contains(e)), "the bench-only items were not all found: {items:?}");
    let built = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/wasm32-unknown-unknown");
    for bin in ["attention-lab", "learn", "pretrained", "side", "trainer", "forward", "forward-relaxed"] {
        // The workers build with their own profile (index.html: `worker`).
        let profile = if matches!(bin, "trainer" | "forward" | "forward-relaxed") { "worker" } else { "release" };
        let path = built.join(profile).join(format!("{bin}.wasm"));
        let wasm = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}: build the site first", path.display()));
        let names = function_names(&wasm);
        assert!(names.len() > 300, "{bin}: its name section was not read ({} names)", names.len());
        // The names are read as the check expects them: the binary's own code is there.
        let own = match bin {
            "learn" => "13attention_lab5learn",
            "pretrained" => "13attention_lab10pretrained",
            "side" => "13attention_lab4side",
            "trainer" => "13attention_lab7trainer6worker",
            "forward" | "forward-relaxed" => "13attention_lab7compute6worker",
            _ => "13attention_lab3app7stepper",
        };
        assert!(names.iter().any(|n| n.contains(own)), "{bin}: no function of {own} found by name");
        for item in &items {
            // As the name section writes it (attention_lab::app::bench::…), or mangled, each
            // segment after its length (12attention_lab3app5bench).
            let path = format!("attention_lab::{}", item.join("::"));
            let mangled: String = std::iter::once("attention_lab")
                .chain(item.iter().map(String::as_str))
                .map(|seg| format!("{}{seg}", seg.len()))
                .collect();
            let named = |n: &&String| {
                n.contains(&mangled)
                    || n.match_indices(&path).any(|(i, _)| !n[i + path.len()..].starts_with(char::is_alphanumeric))
            };
            let found: Vec<&String> = names.iter().filter(named).take(3).collect();
            assert!(found.is_empty(), "{bin}.wasm has benchmark code {}: {found:?}", item.join("::"));
        }
    }
    for (name, wasm) in wasm_files() {
        for mark in ["bench-output", "first-heatmap", "slider_to_paint_ms", "bench=", "peer ort-web", "data-done"] {
            assert!(!wasm.windows(mark.len()).any(|w| w == mark.as_bytes()), "{mark:?} is in {name}");
        }
    }
}

/// Every file the published page names with an `integrity` digest (Trunk's preloads of its
/// .js and .wasm) is that file as published: the post-build step rewrites the .wasm files
/// (`scripts/unexport.py`), and a stale digest makes the browser refuse the preload and fetch
/// the largest file twice.
pub fn the_pages_integrity_digests_are_its_files() {
    let html = std::fs::read_to_string(dist_dir().join("index.html")).expect("dist/index.html: build the site first");
    let mut checked = 0;
    for tag in html.split('<').filter(|t| t.contains("integrity=\"sha384-")) {
        let attribute = |name: &str| {
            let start = tag.find(&format!("{name}=\""))? + name.len() + 2;
            tag[start..].split('"').next()
        };
        let (Some(href), Some(digest)) = (attribute("href"), attribute("integrity")) else { continue };
        let path = dist_dir().join(href.trim_start_matches("./"));
        let program = "import base64, hashlib, sys; \
                       print(base64.b64encode(hashlib.sha384(open(sys.argv[1], 'rb').read()).digest()).decode())";
        let out =
            std::process::Command::new("python3").args(["-c", program]).arg(&path).output().expect("python3 runs");
        let actual = String::from_utf8_lossy(&out.stdout).trim().to_string();
        assert_eq!(digest, format!("sha384-{actual}"), "the page's digest of {href}");
        checked += 1;
    }
    assert!(checked >= 2, "the page preloads its .js and .wasm with their digests ({checked} found)");
}
