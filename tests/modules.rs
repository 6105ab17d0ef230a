//! The shape of the code, checked: no import loop in `src/`, at any depth. A module may use its
//! ancestors and its descendants (a parent declares its children); among the children of any
//! one module, files and folders alike (a folder standing for everything under it), imports
//! form no loop, of two or of more. Each crate is read apart (the site, its numeric core, the
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

/// The loops of `edges`: its strongly connected components of more than one node (Tarjan's
/// algorithm), each as one loop through all of its members that starts and ends at its smallest
/// (`a → b → c → a`), smallest component first.
fn loops(edges: &BTreeSet<(String, String)>) -> Vec<Vec<String>> {
    struct Walk<'a> {
        edges: &'a BTreeSet<(String, String)>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        components: Vec<BTreeSet<String>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, at: &'a str) {
            let i = self.index.len();
            self.index.insert(at, i);
            self.low.insert(at, i);
            self.stack.push(at);
            for (_, to) in self.edges.iter().filter(|(from, _)| from == at) {
                let to = to.as_str();
                if !self.index.contains_key(to) {
                    self.visit(to);
                    let low = self.low[at].min(self.low[to]);
                    self.low.insert(at, low);
                } else if self.stack.contains(&to) {
                    let low = self.low[at].min(self.index[to]);
                    self.low.insert(at, low);
                }
            }
            if self.low[at] == self.index[at] {
                let mut component = BTreeSet::new();
                while let Some(top) = self.stack.pop() {
                    component.insert(top.to_string());
                    if top == at {
                        break;
                    }
                }
                if component.len() > 1 {
                    self.components.push(component);
                }
            }
        }
    }
    let mut walk = Walk { edges, index: BTreeMap::new(), low: BTreeMap::new(), stack: vec![], components: vec![] };
    for (from, _) in edges {
        if !walk.index.contains_key(from.as_str()) {
            walk.visit(from);
        }
    }
    let mut components = walk.components;
    components.sort();
    // One loop through every member: from the smallest, always to the nearest member not yet
    // passed (breadth first inside the component), then back.
    components
        .into_iter()
        .map(|members| {
            let inside: BTreeSet<(String, String)> =
                edges.iter().filter(|(a, b)| members.contains(a) && members.contains(b)).cloned().collect();
            let first = members.first().cloned().unwrap_or_default();
            let mut tour = vec![first.clone()];
            let mut at = first.clone();
            let mut passed: BTreeSet<String> = [first.clone()].into();
            while passed.len() < members.len() {
                let leg = shortest(&inside, &at, |n| !passed.contains(n));
                for n in leg.iter().skip(1) {
                    passed.insert(n.clone());
                }
                at = leg.last().cloned().unwrap_or_default();
                tour.extend(leg.into_iter().skip(1));
            }
            tour.extend(shortest(&inside, &at, |n| *n == first).into_iter().skip(1));
            tour
        })
        .collect()
}

/// The shortest path along `edges` from `from` to a node that `wanted` accepts (`from` itself
/// excluded), breadth first; just `[from]` when there is none.
fn shortest(edges: &BTreeSet<(String, String)>, from: &str, wanted: impl Fn(&String) -> bool) -> Vec<String> {
    let mut came: BTreeMap<String, String> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([from.to_string()]);
    while let Some(at) = queue.pop_front() {
        for (_, to) in edges.iter().filter(|(a, _)| *a == at) {
            if came.contains_key(to) || to == from {
                continue;
            }
            came.insert(to.clone(), at.clone());
            if wanted(to) {
                let mut path = vec![to.clone()];
                while let Some(back) = came.get(path.last().map(String::as_str).unwrap_or_default()) {
                    path.push(back.clone());
                }
                path.reverse();
                return path;
            }
            queue.push_back(to.clone());
        }
    }
    vec![from.to_string()]
}

/// The import loops of the crate at `root`, at every depth. A module may use its ancestors and
/// its descendants (a parent declares its children and often re-exports them); among the
/// children of one module (files and folders, a folder standing for everything under it), the
/// imports form no loop. Each loop found is written `parent: a → b → a`.
fn import_loops(root: &Path, skip: &[&str]) -> Vec<String> {
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
    // Each edge, seen from the module where the two ends part: between two of its children.
    let mut levels: BTreeMap<Module, BTreeSet<(String, String)>> = BTreeMap::new();
    for (a, b) in &edges {
        let common = a.iter().zip(b).take_while(|(x, y)| x == y).count();
        levels.entry(a[..common].to_vec()).or_default().insert((a[common].clone(), b[common].clone()));
    }
    let name = |m: &Module| if m.is_empty() { "(root)".to_string() } else { m.join("::") };
    levels
        .iter()
        .flat_map(|(parent, edges)| {
            loops(edges).into_iter().map(move |l| format!("{}: {}", name(parent), l.join(" → ")))
        })
        .collect()
}

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn the_site_has_no_import_loop() {
    let found = import_loops(&src().join("lib.rs"), &["core", "kernels", "convert", "bin"]);
    assert!(found.is_empty(), "modules of the site that import each other in a loop: {found:#?}");
}

#[test]
fn the_core_has_no_import_loop() {
    for root in ["core/mod.rs", "kernels/mod.rs"] {
        let found = import_loops(&src().join(root), &[]);
        assert!(found.is_empty(), "{root}: modules that import each other in a loop: {found:#?}");
    }
}

/// The check finds what it is for: the loops this project once had, written small.
#[test]
fn the_check_sees_a_loop_at_any_depth() {
    let dir = std::env::temp_dir().join(format!("attention-lab-modules-{}", std::process::id()));
    for folder in ["app/stages", "app/views"] {
        std::fs::create_dir_all(dir.join(folder)).expect("a folder");
    }
    let files = [
        ("lib.rs", "pub mod app;\npub mod learn;\n"),
        ("app/mod.rs", "mod header;\nmod share;\nmod stages;\nmod stepper;\nmod views;\nuse crate::learn::ROOT;\n"),
        ("app/header.rs", "use super::share::StudentLink;\n"),
        ("app/share.rs", "use super::header::{clear_toast, Other};\n"),
        // Three files in three folders: stages → views → stepper → stages (no pair among them).
        ("app/stages/mod.rs", "mod predict;\npub use predict::Predict;\nuse super::header::Header;\n"),
        ("app/stages/predict.rs", "use crate::app::views::hosted::Hosted;\nuse super::super::share;\n"),
        ("app/views/mod.rs", "pub mod hosted;\nuse super::stepper::Stepper;\n"),
        ("app/views/hosted.rs", "use super::Views;\n"),
        ("app/stepper.rs", "use super::stages::{Stage, Stages};\n"),
        ("learn.rs", "use crate::app::yours::KEY;\n#[cfg(test)]\nuse crate::nothing;\n"),
    ];
    for (name, text) in files {
        std::fs::write(dir.join(name), text).expect("writable");
    }
    let found = import_loops(&dir.join("lib.rs"), &[]);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        found,
        ["(root): app → learn → app", "app: header → share → header", "app: stages → views → stepper → stages"]
    );
    // The loops of a graph: each component once, through all of its members.
    let edges = |pairs: &[(&str, &str)]| -> BTreeSet<(String, String)> {
        pairs.iter().map(|(x, y)| (x.to_string(), y.to_string())).collect()
    };
    let three = edges(&[("a", "b"), ("b", "c"), ("c", "a"), ("c", "d"), ("d", "e"), ("e", "d")]);
    let want: Vec<Vec<String>> =
        vec![["a", "b", "c", "a"].map(String::from).to_vec(), ["d", "e", "d"].map(String::from).to_vec()];
    assert_eq!(loops(&three), want);
    assert!(loops(&edges(&[("a", "b"), ("b", "c"), ("a", "c")])).is_empty());
}

/// The modules the page starts draw with `ui/`, never with the page's own components: a
/// module's .wasm then carries none of the page, and the page can change without them.
#[test]
fn the_modules_and_ui_use_nothing_of_the_page() {
    let site = modules(&src().join("lib.rs"), &["core", "kernels", "convert", "bin"]);
    let known: BTreeSet<Module> = site.keys().cloned().collect();
    let reaching: Vec<String> = site
        .iter()
        .filter(|(m, _)| m.first().is_some_and(|top| ["side", "pretrained", "learn", "ui"].contains(&top.as_str())))
        .flat_map(|(m, code)| paths(code).into_iter().map(move |p| (m, p)))
        .filter(|(m, p)| resolve(m, p, &known).is_some_and(|to| to.first().is_some_and(|t| t == "app")))
        .map(|(m, p)| format!("{} uses {}", m.join("::"), p.join("::")))
        .collect();
    assert!(reaching.is_empty(), "{reaching:#?}");
}
