//! The shape of the code, checked: no two modules of `src/` import each other, neither two
//! files nor two top-level modules of a crate (a module and its own submodules excepted: a
//! parent declares its children), and the top-level modules import each other in no longer
//! loop either. Each crate is read apart (the site, its numeric core, the
//! kernels); code after a file's `#[cfg(test)]` is left out, as are test-only files.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module, as the path of segments from its crate's root.
type Module = Vec<String>;

/// The modules of the crate rooted at `root` (its `lib.rs` or `mod.rs`), with their sources;
/// `skip` are folders of other crates inside it.
fn modules(root: &Path, skip: &[&str]) -> BTreeMap<Module, String> {
    let mut found = BTreeMap::new();
    let dir = root.parent().expect("a folder");
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("a readable folder").flatten() {
            let path = entry.path();
            let rel = path.strip_prefix(dir).expect("inside").to_path_buf();
            if path.is_dir() {
                if !skip.iter().any(|s| rel.starts_with(s)) {
                    stack.push(path);
                }
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") || path.file_name().is_some_and(|n| n == "tests.rs") {
                continue;
            }
            let Some(module) = module_of(&rel, root.file_name().and_then(|n| n.to_str()).unwrap_or("")) else {
                continue;
            };
            let text = std::fs::read_to_string(&path).expect("a readable file");
            // The code a build of the site compiles: test modules sit at the end of a file.
            // Comments are left out (a doc link is not an import).
            let code = text.split("#[cfg(test)]").next().unwrap_or_default();
            let code: String =
                code.lines().map(|l| l.split("//").next().unwrap_or_default()).collect::<Vec<_>>().join("\n");
            found.insert(module, code);
        }
    }
    found
}

/// The module a file is, from its path under the crate's folder (`None` for binaries).
fn module_of(rel: &Path, root_file: &str) -> Option<Module> {
    let parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if parts.first().is_some_and(|p| p == "bin") || parts == ["main.rs"] {
        return None;
    }
    let mut module = parts.clone();
    let last = module.pop()?;
    if last != "mod.rs" && last != root_file {
        module.push(last.trim_end_matches(".rs").to_string());
    }
    Some(module)
}

/// Every path of the `use` statements and inline paths of `code` that starts at `crate`,
/// `super` or `self`, or at a module declared in this file; `use` groups expanded.
fn paths(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("use ") {
        let before_ok = at == 0 || !rest[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_');
        rest = &rest[at + 4..];
        let Some(end) = rest.find(';') else { break };
        if before_ok {
            expand(rest[..end].trim(), &mut vec![], &mut out);
        }
    }
    // Inline paths: crate::a::b, super::x.
    let bytes: Vec<char> = code.chars().collect();
    let text: String = bytes.iter().collect();
    for start in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(i) = text[from..].find(start) {
            let at = from + i;
            from = at + start.len();
            if at > 0 && text[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_' || c == '$') {
                continue;
            }
            let path: String =
                text[at..].chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':').collect();
            out.push(path.split("::").filter(|s| !s.is_empty()).map(String::from).collect());
        }
    }
    out
}

/// Expand a use tree (`a::{b, c::d}`) into full paths, after `prefix`.
fn expand(tree: &str, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    let tree = tree.trim();
    match tree.find('{') {
        None => {
            let mut path = prefix.clone();
            path.extend(tree.split(" as ").next().unwrap_or("").split("::").map(|s| s.trim().to_string()));
            out.push(path.into_iter().filter(|s| !s.is_empty()).collect());
        }
        Some(open) => {
            let head: Vec<String> =
                tree[..open].split("::").map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect();
            let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
            let mut depth = 0;
            let mut piece = String::new();
            let mut pieces = Vec::new();
            for c in inner.chars() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        pieces.push(std::mem::take(&mut piece));
                        continue;
                    }
                    _ => {}
                }
                piece.push(c);
            }
            pieces.push(piece);
            let len = prefix.len();
            prefix.extend(head);
            for p in pieces.iter().filter(|p| !p.trim().is_empty()) {
                expand(p, prefix, out);
            }
            prefix.truncate(len);
        }
    }
}

/// The module a path of `from` names (its longest prefix that is a module), if any.
fn resolve(from: &Module, path: &[String], known: &BTreeSet<Module>) -> Option<Module> {
    let (mut base, rest): (Module, &[String]) = match path.first().map(String::as_str) {
        Some("crate") => (vec![], &path[1..]),
        Some("self") => (from.clone(), &path[1..]),
        Some("super") => {
            let mut base = from.clone();
            let mut rest = path;
            while rest.first().is_some_and(|s| s == "super") {
                base.pop();
                rest = &rest[1..];
            }
            (base, rest)
        }
        // A child module declared here (`use input::InputStage;`).
        Some(first) if known.contains(&[from.clone(), vec![first.to_string()]].concat()) => (from.clone(), path),
        _ => return None,
    };
    let mut found = known.contains(&base).then(|| base.clone());
    for seg in rest {
        base.push(seg.clone());
        if known.contains(&base) {
            found = Some(base.clone());
        } else {
            break;
        }
    }
    found
}

/// Whether `a` is `b` or one of its ancestors.
fn within(a: &Module, b: &Module) -> bool {
    b.starts_with(a)
}

/// A loop of top-level modules that import each other in turn (`a → b → c → a`), if any.
fn a_loop(edges: &BTreeSet<(String, String)>) -> Option<Vec<String>> {
    fn visit(
        at: &str,
        edges: &BTreeSet<(String, String)>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == at) {
            return Some([&path[i..], &[at.to_string()]].concat());
        }
        if done.contains(at) {
            return None;
        }
        path.push(at.to_string());
        for (_, to) in edges.iter().filter(|(from, _)| from == at) {
            if let Some(found) = visit(to, edges, path, done) {
                return Some(found);
            }
        }
        path.pop();
        done.insert(at.to_string());
        None
    }
    let mut done = BTreeSet::new();
    edges.iter().find_map(|(from, _)| visit(from, edges, &mut vec![], &mut done))
}

/// The pairs of modules of the crate at `root` that import each other: files, then
/// top-level modules; and a longer loop of top-level modules, if there is one.
fn mutual_imports(root: &Path, skip: &[&str]) -> (Vec<String>, Vec<String>) {
    let modules = modules(root, skip);
    let known: BTreeSet<Module> = modules.keys().cloned().collect();
    let mut edges: BTreeSet<(Module, Module)> = BTreeSet::new();
    for (m, code) in &modules {
        for path in paths(code) {
            if let Some(to) = resolve(m, &path, &known) {
                if !within(&to, m) && !within(m, &to) {
                    edges.insert((m.clone(), to));
                }
            }
        }
    }
    let name = |m: &Module| if m.is_empty() { "(root)".to_string() } else { m.join("::") };
    let files: Vec<String> = edges
        .iter()
        .filter(|(a, b)| a < b && edges.contains(&(b.clone(), a.clone())))
        .map(|(a, b)| format!("{} ↔ {}", name(a), name(b)))
        .collect();
    let tops: BTreeSet<(String, String)> = edges
        .iter()
        .filter_map(|(a, b)| Some((a.first()?.clone(), b.first()?.clone())))
        .filter(|(a, b)| a != b)
        .collect();
    let top = tops.iter().filter(|(a, b)| a < b && tops.contains(&(b.clone(), a.clone())));
    let mut top: Vec<String> = top.map(|(a, b)| format!("{a} ↔ {b}")).collect();
    if top.is_empty() {
        top.extend(a_loop(&tops).map(|l| l.join(" → ")));
    }
    (files, top)
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn no_two_modules_of_the_site_import_each_other() {
    let (files, tops) = mutual_imports(&src().join("lib.rs"), &["core", "kernels", "convert", "bin"]);
    assert!(files.is_empty(), "files that import each other: {files:?}");
    assert!(tops.is_empty(), "top-level modules that import each other: {tops:?}");
}

#[test]
fn no_two_modules_of_the_core_import_each_other() {
    for root in ["core/mod.rs", "kernels/mod.rs"] {
        let (files, tops) = mutual_imports(&src().join(root), &[]);
        assert!(files.is_empty(), "{root}: files that import each other: {files:?}");
        assert!(tops.is_empty(), "{root}: top-level modules that import each other: {tops:?}");
    }
}

/// The check finds what it is for: the cycles this project once had, written small.
#[test]
fn the_check_sees_a_pair_that_imports_each_other() {
    let dir = std::env::temp_dir().join(format!("attention-lab-modules-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("app")).expect("a folder");
    let files = [
        ("lib.rs", "pub mod app;\npub mod learn;\n"),
        ("app/mod.rs", "mod header;\nmod share;\nuse crate::learn::ROOT;\n"),
        ("app/header.rs", "use super::share::StudentLink;\n"),
        ("app/share.rs", "use super::header::{clear_toast, Other};\n"),
        ("learn.rs", "use crate::app::yours::KEY;\n#[cfg(test)]\nuse crate::nothing;\n"),
    ];
    for (name, text) in files {
        std::fs::write(dir.join(name), text).expect("writable");
    }
    let (files, tops) = mutual_imports(&dir.join("lib.rs"), &[]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(files, ["app ↔ learn", "app::header ↔ app::share"]);
    assert_eq!(tops, ["app ↔ learn"]);
    // A loop of three, which no pair shows.
    let three: BTreeSet<(String, String)> =
        [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")].map(|(x, y)| (x.to_string(), y.to_string())).into();
    assert_eq!(a_loop(&three), Some(["a", "b", "c", "a"].map(String::from).to_vec()));
    assert_eq!(a_loop(&[("a".to_string(), "b".to_string())].into()), None);
}
