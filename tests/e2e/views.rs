//! The deeper lessons: each view opens from the navigation, draws, and answers its controls
//! with numbers computed by the core.

use crate::browser::Browser;
use crate::server::{copy_build, dist_dir, Scratch, Site};
use serde_json::json;

async fn open_view(site: &Site, slug: &str) -> Browser {
    let b = Browser::open(1280, 900).await;
    b.open_page(&site.url("/?lang=en")).await;
    b.click(&format!("nav-{slug}")).await;
    b.wait_for_view(slug).await;
    b
}

async fn number(b: &Browser, id: &str) -> f64 {
    let text = b.text_of(id).await;
    text.parse().unwrap_or_else(|_| panic!("{id} shows {text:?}, not a number"))
}

async fn all_drawn(b: &Browser, id: &str) {
    // A view draws in the frames after it mounts: wait for it, up to 10 s.
    let started = std::time::Instant::now();
    loop {
        let (drawn, total) = b.drawn_canvases(id).await;
        if total > 0 && drawn == total {
            return;
        }
        assert!(started.elapsed().as_secs() < 10, "{id}: {drawn} of {total} canvases painted");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

pub async fn variance_view_measures_var_qk_near_dk() {
    let site = Site::start("").await;
    let b = open_view(&site, "variance").await;
    all_drawn(&b, "view-variance").await;
    // 3000 pairs: the sample variance is within about 3% of d_k (one standard error); allow 15%.
    for (exponent, d_k) in [("6", 64.0), ("2", 4.0), ("10", 1024.0)] {
        b.set_value("variance-dk", exponent).await;
        let v = number(&b, "variance-readout").await;
        assert!((v / d_k - 1.0).abs() < 0.15, "d_k = {d_k}: empirical variance {v}");
    }
    b.set_value("variance-samples", "0").await; // the first choice: 100 pairs
    let caption = b.captions_in("view-variance").await.join(" ");
    assert!(caption.contains("over 100 pairs"), "{caption}");
    b.assert_no_panic().await;
    b.close().await;
}

/// The variance view is the side lessons' module's; the settings stay the page's: a change
/// made in the view is in the link and survives a reload, and a change of the page's controls
/// (the seed) or language reaches the view without losing it.
pub async fn the_side_lessons_module_and_the_page_share_one_set_of_settings() {
    let site = Site::start("").await;
    let b = open_view(&site, "variance").await;
    let slider = "return document.querySelector(`[data-testid='variance-dk']`).value;";
    b.set_value("variance-dk", "2").await;
    let seed_42 = number(&b, "variance-readout").await;
    assert!(b.address().await.as_str().is_some_and(|q| q.contains("vdk=4")), "the link has d_k = 4");
    b.set_value("seed-input", "7").await;
    let seed_7 = number(&b, "variance-readout").await;
    assert_ne!(seed_7, seed_42, "another seed draws other pairs");
    assert_eq!(b.js(slider, vec![]).await, json!("2"), "the page's change kept the view's");
    let url = b.href().await;
    b.open_page(url.as_str().expect("a URL")).await;
    b.wait_for("[data-testid='variance-readout']").await;
    assert_eq!(b.js(slider, vec![]).await, json!("2"), "d_k = 4 after a reload");
    assert_eq!(number(&b, "variance-readout").await, seed_7, "the same pairs after a reload");
    b.click("lang-switch").await;
    let chinese =
        "return /[\\u4e00-\\u9fff]/.test(document.querySelector(`[data-testid='variance-normal-note']`).textContent);";
    b.until(chinese, "the side lesson follows the page into Chinese", 10).await;
    assert_eq!(b.js(slider, vec![]).await, json!("2"), "d_k = 4 in Chinese");
    // What a side lesson keeps of its own (the offset) stays through a change of language.
    b.click("nav-position").await;
    b.wait_for_view("position").await;
    b.set_value("position-offset", "7").await;
    b.click("lang-switch").await;
    b.wait_for("html[lang='en']").await;
    let offset = "return document.querySelector(`[data-testid='position-offset']`).value;";
    assert_eq!(b.js(offset, vec![]).await, json!("7"), "the offset after the switch");
    let english = "return document.querySelector(`[data-testid='view-position'] [data-caption]`)?.textContent.includes('PE · PEᵀ for positions');";
    b.until(english, "the side lesson follows the page back into English", 10).await;
    b.assert_no_panic().await;
    b.close().await;
}

/// A module that cannot be loaded (its .wasm missing from the server) is said so in its view,
/// and again in the module's other views, instead of "loading" for ever; the page goes on.
pub async fn a_side_lesson_that_cannot_load_says_so_in_each_of_its_views() {
    let scratch = Scratch::new("no-side-module");
    copy_build(&dist_dir(), &scratch.0);
    std::fs::remove_file(scratch.0.join("side_bg.wasm")).expect("the side module's .wasm is in the build");
    let site = Site::start_in(scratch.0.clone(), "").await;
    let b = Browser::open(1280, 900).await;
    b.open_page(&site.url("?lang=en")).await;
    let failed = "[data-module-failed='side']:not([hidden])";
    for view in ["variance", "position"] {
        b.click(&format!("nav-{view}")).await;
        let line = b.wait_for(&format!("[data-testid='view-{view}'] {failed}")).await;
        assert!(line.text().await.unwrap_or_default().contains("could not be loaded"), "{view}");
        let loading = b.js("return !document.querySelector(`[data-module-status='side']`).hidden;", vec![]).await;
        assert_eq!(loading, json!(false), "{view}: no loading line beside the failure");
    }
    b.click("nav-lesson").await;
    b.wait_for("[data-testid='stage-input'] canvas[data-drawn='true']").await;
    b.close().await;
}

/// A module's script, as the build names it (`side.js`, or with a hash: `side-<hash>.js`).
fn module_script(name: &str) -> String {
    std::fs::read_dir(dist_dir())
        .expect("dist/")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .find(|f| {
            f.strip_prefix(name).and_then(|rest| rest.strip_suffix(".js")).is_some_and(|hash| {
                hash.is_empty() || hash.strip_prefix('-').is_some_and(|h| h.chars().all(|c| c.is_ascii_hexdigit()))
            })
        })
        .unwrap_or_else(|| panic!("no {name}.js in dist/"))
}

/// A module whose file does not arrive is fetched again by itself; when no try gets it, its
/// view says so with "Try again", which loads it then. Never a reloaded page or a lost
/// setting: the page and its link stay as they were.
pub async fn a_module_that_does_not_arrive_is_tried_again_and_the_page_keeps_its_state() {
    let site = Site::start("").await;
    let side = module_script("side");
    // The first request for the side lessons' script fails (and with it the service worker's
    // install, which would otherwise have kept a copy): the module's second try gets it.
    site.refuse(&format!("={}", site.path(&side)));
    let b = Browser::open(1280, 900).await;
    b.open_page(&site.url("?lang=en&seed=7&h=2")).await;
    b.wait_for("[data-testid='stage-input'] canvas[data-drawn='true']").await;
    b.js("window.__samePage = true;", vec![]).await;
    b.click("nav-variance").await;
    all_drawn(&b, "view-variance").await;
    assert!(site.refusals() >= 1, "the side module's first try was refused");
    let failed_shown = "return [...document.querySelectorAll(`[data-module-failed]`)].some(l => !l.hidden);";
    assert_eq!(b.js(failed_shown, vec![]).await, json!(false), "no failure line: the second try got it");
    // Every try fails: the view says so, with a button; the page is the same, its link too.
    site.refuse(&module_script("learn"));
    b.click("nav-learn").await;
    let line = b.wait_for("[data-testid='view-learn'] [data-module-failed='learn']:not([hidden])").await;
    assert!(line.text().await.unwrap_or_default().contains("three tries"), "the line says it tried");
    assert_eq!(b.js("return window.__samePage === true;", vec![]).await, json!(true), "the page was not reloaded");
    let link = b.address().await;
    assert!(
        link.as_str().is_some_and(|l| l.contains("seed=7") && l.contains("h=2") && l.contains("view=learn")),
        "{link}"
    );
    site.allow();
    b.click("module-retry").await;
    b.wait_for("[data-testid='learn-train']").await;
    assert_eq!(b.js(failed_shown, vec![]).await, json!(false), "the failure line gave way");
    assert_eq!(b.js("return window.__samePage === true;", vec![]).await, json!(true), "still the same page");
    b.assert_no_panic().await;
    b.close().await;
}

/// A page whose own .wasm does not arrive cannot start: it says so (in both languages, since it
/// has no settings yet) instead of staying blank.
pub async fn a_page_that_cannot_start_says_so() {
    let site = Site::start("").await;
    site.refuse("_bg.wasm");
    let b = Browser::open(1280, 900).await;
    b.client.goto(&site.url("?lang=en")).await.expect("navigate");
    let notice = b.wait_for("[data-testid='start-failed']").await;
    let text = notice.text().await.unwrap_or_default();
    assert!(text.contains("could not start") && text.contains("无法启动"), "{text}");
    assert_eq!(b.js("return document.querySelector('main') === null;", vec![]).await, json!(true));
    b.close().await;
}

/// Whose start traps: the page's, or a module's (by its name); or the page's start panics
/// (the panic hook's notice and its console line, then the abort's trap), as when WebKitGTK's
/// fault shows as garbage the reactive graph reads (README, "WebKit and WebAssembly memories").
#[derive(Clone, Copy, PartialEq)]
enum Trapping {
    Page,
    PagePanics,
    Module(&'static str),
}

/// A copy of the build in `scratch` whose start (the page's or a module's) throws the engine's
/// trap (`WebAssembly.RuntimeError`) where its .wasm would start: every time, or only the
/// first time in a tab (`once`).
async fn build_whose_start_traps(scratch: &Scratch, trapping: Trapping, once: bool) -> Site {
    copy_build(&dist_dir(), &scratch.0);
    let glue = match trapping {
        Trapping::Page | Trapping::PagePanics => module_script("attention-lab"),
        Trapping::Module(name) => module_script(name),
    };
    let code = std::fs::read_to_string(scratch.0.join(&glue)).expect("the glue");
    // The trap comes before the module is instantiated: a trapped start's memory stays in the
    // process until it is collected, and WebKitGTK runs pages wrongly when a process holds
    // many (README, "WebKit and WebAssembly memories"): the test would add to the very fault
    // whose answer it checks. What the page does with the error is the same.
    let start = "async function __wbg_init_once(module_or_path) {";
    assert_eq!(code.matches(start).count(), 1, "the glue starts the module once");
    let when = if once { "!sessionStorage.getItem('e2e-trapped')" } else { "true" };
    let panic = if trapping == Trapping::PagePanics {
        "const n = document.createElement('div'); n.dataset.testid = 'panic'; n.setAttribute('role', 'alert'); \
         n.textContent = 'panicked: Tried to access a reactive value that has already been disposed (the test build)'; \
         document.body.prepend(n); console.error(n.textContent); \
         throw new WebAssembly.RuntimeError('Unreachable code should not be executed (the test build)');"
    } else {
        ""
    };
    let trap = format!(
        "{start} if ({when}) {{ sessionStorage.setItem('e2e-trapped', '1'); {panic} \
         throw new WebAssembly.RuntimeError('Out of bounds memory access (the test build)'); }}"
    );
    std::fs::write(scratch.0.join(&glue), code.replace(start, &trap)).expect("write the glue");
    // The page's glue is preloaded under its hash, which would refuse the changed file.
    let index = std::fs::read_to_string(scratch.0.join("index.html")).expect("the copy's index.html");
    if let Some(link) = index.lines().find(|l| l.contains(&format!("href=\"./{glue}\""))) {
        let integrity = link.find(" integrity=").map(|at| &link[at..]).and_then(|rest| {
            let end = rest[" integrity=\"".len()..].find('"')? + " integrity=\"\"".len();
            Some(rest[..end].to_string())
        });
        let unhashed = link.replace(integrity.as_deref().unwrap_or_default(), "");
        std::fs::write(scratch.0.join("index.html"), index.replace(link, &unhashed)).expect("write index.html");
    }
    Site::start_in(scratch.0.clone(), "").await
}

/// An engine that traps once while the page starts (WebKitGTK 2.50 has been seen to: README,
/// "WebKit and WebAssembly memories") costs a reload the page makes itself, not the lesson:
/// it opens in the state its link names; so does a start that panics once (the same fault
/// read as garbage by the reactive graph). A start that
/// traps or panics every time is loaded once more, then says so.
pub async fn a_start_that_traps_or_panics_once_is_loaded_again_and_one_that_always_does_says_so() {
    for (trapping, name) in [(Trapping::Page, "trap"), (Trapping::PagePanics, "panic")] {
        let scratch = Scratch::new(&format!("{name}-once"));
        let site = build_whose_start_traps(&scratch, trapping, true).await;
        let b = Browser::open(1280, 900).await;
        b.client.goto(&site.url("?lang=zh&stage=softmax&d=32")).await.expect("navigate");
        b.wait_for("[data-testid='stage-softmax'] canvas[data-drawn='true']").await;
        let state = b
            .js(
                "return [sessionStorage.getItem('e2e-trapped'), !!sessionStorage.getItem('attention-lab-restarted-at'),
                         document.documentElement.lang, !!document.querySelector(`[data-testid='start-failed']`),
                         document.querySelector(`[data-testid='d-model']`).value];",
                vec![],
            )
            .await;
        assert_eq!(
            state,
            json!(["1", true, "zh-CN", false, "32"]),
            "{name}: [once, restarted, language, notice, the link's d_model]"
        );
        b.assert_no_panic().await;
        b.close().await;

        // Every start: loaded once more, then it says it could not start (and a panic's notice
        // shows the panic).
        let scratch = Scratch::new(&format!("{name}-always"));
        let site = build_whose_start_traps(&scratch, trapping, false).await;
        let b = Browser::open(1280, 900).await;
        b.client.goto(&site.url("?lang=en")).await.expect("navigate");
        let notice = b.wait_for("[data-testid='start-failed']").await;
        let text = notice.text().await.unwrap_or_default();
        assert!(text.contains("could not start") && text.contains("the test build"), "{name}: {text}");
        let state = b
            .js(
                "return [!!sessionStorage.getItem('attention-lab-restarted-at'),
                         document.querySelector(`[data-testid='panic']`)?.textContent.includes('disposed') ?? false];",
                vec![],
            )
            .await;
        assert_eq!(
            state,
            json!([true, trapping == Trapping::PagePanics]),
            "{name}: [restarted once, the panic's notice]"
        );
        b.close().await;
    }
}

/// A module of a view whose start the engine traps is not a download that failed (fresh run G:
/// the pretrained module's view said "tried three times" in WebKit, each try one more memory in
/// a process already failing for too many): the page loads itself once more, as for its own
/// start, and the view opens in the state its link names. One that traps every time says so
/// in the view, with a button that reloads the page, and is never fetched again.
pub async fn a_module_whose_start_traps_loads_the_page_once_more_and_then_says_so() {
    let tries =
        "return performance.getEntriesByType('resource').filter(e => /side(-[0-9a-f]+)?\\.js\\?/.test(e.name)).length;";
    let scratch = Scratch::new("module-trap-once");
    let site = build_whose_start_traps(&scratch, Trapping::Module("side"), true).await;
    let b = Browser::open(1280, 900).await;
    b.client.goto(&site.url("?lang=zh&view=variance&seed=7")).await.expect("navigate");
    all_drawn(&b, "view-variance").await;
    let state = b
        .js(
            "return [sessionStorage.getItem('e2e-trapped'), !!sessionStorage.getItem('attention-lab-restarted-at'),
                     document.documentElement.lang, location.search.includes('seed=7'),
                     [...document.querySelectorAll(`[data-module-trapped], [data-module-failed]`)].some(l => !l.hidden)];",
            vec![],
        )
        .await;
    assert_eq!(state, json!(["1", true, "zh-CN", true, false]), "[trapped, restarted, language, link, a failure line]");
    assert_eq!(b.js(tries, vec![]).await, json!(0), "the module was fetched again in the reloaded page");
    b.assert_no_panic().await;
    b.close().await;

    let scratch = Scratch::new("module-trap-always");
    let site = build_whose_start_traps(&scratch, Trapping::Module("side"), false).await;
    let b = Browser::open(1280, 900).await;
    b.client.goto(&site.url("?lang=en&view=variance")).await.expect("navigate");
    let line = b.wait_for("[data-testid='view-variance'] [data-module-trapped='side']:not([hidden])").await;
    let text = line.text().await.unwrap_or_default();
    assert!(text.contains("could not start") && text.contains("Reload the page"), "{text}");
    let state = b
        .js(
            "return [!!sessionStorage.getItem('attention-lab-restarted-at'),
                     document.querySelector(`[data-module-failed='side']`).hidden,
                     document.querySelector(`[data-module-status='side']`).hidden];",
            vec![],
        )
        .await;
    assert_eq!(state, json!([true, true, true]), "[restarted once, no download failure line, no loading line]");
    assert_eq!(b.js(tries, vec![]).await, json!(0), "a trapped start was taken for a download and tried again");
    // Another view of the same module says so too, without starting it again.
    b.click("nav-block").await;
    b.wait_for("[data-testid='view-block'] [data-module-trapped='side']:not([hidden])").await;
    assert_eq!(b.js(tries, vec![]).await, json!(0), "the module was fetched again for another view");
    // The button loads the page again (in a tab whose last reload is more than a minute old,
    // the engine's trap would be met by one more).
    b.js("window.__samePage = true;", vec![]).await;
    b.click("module-reload").await;
    let reloaded = "return window.__samePage === undefined
        && !!document.querySelector(`[data-testid='view-block'] [data-module-trapped='side']:not([hidden])`);";
    b.until(reloaded, "the page loaded again, and the view says so again", 20).await;
    b.close().await;
}

pub async fn variants_view_shows_self_causal_and_cross_side_by_side() {
    let site = Site::start("").await;
    let b = open_view(&site, "variants").await;
    all_drawn(&b, "view-variants").await;
    let caps = |id: &'static str| {
        let b = &b;
        async move { b.captions_in(id).await }
    };
    assert_eq!(caps("variant-self").await, ["Weights A: 11 × 11"]);
    assert_eq!(caps("variant-causal").await, ["M: 11 × 11", "Weights A: 11 × 11"]);
    // The default second sentence "Le chat est fatigué" has 4 tokens: n_q × n_kv = 11 × 4.
    assert_eq!(caps("variant-cross").await, ["Weights A: 11 × 4"]);
    b.type_into("token-input", "one two three").await;
    assert_eq!(caps("variant-cross").await, ["Weights A: 3 × 4"]);
    b.close().await;
}

pub async fn patterns_view_builds_every_head_and_shows_its_weights() {
    let site = Site::start("").await;
    let b = open_view(&site, "patterns").await;
    for slug in ["previous", "local", "broadcast", "sparse"] {
        all_drawn(&b, &format!("pattern-{slug}")).await;
    }
    b.click("pattern-show-local").await;
    let caps = b.captions_in("view-patterns").await;
    assert!(caps.iter().any(|c| c == "W_Q: 64 × 64") && caps.iter().any(|c| c == "Input X: 11 × 64"), "{caps:?}");
    let pressed = b
        .js("return document.querySelector(`[data-testid='pattern-show-local']`).getAttribute('aria-pressed');", vec![])
        .await;
    assert_eq!(pressed, "true");
    b.close().await;
}

pub async fn graph_view_draws_weighted_edges_and_follows_the_chosen_node() {
    let site = Site::start("").await;
    let b = open_view(&site, "graph").await;
    // One edge per key plus the self ring; their weights are a softmax row, so they sum to 1.
    let weights = b.js("return [...document.querySelectorAll(`[data-testid='graph-svg'] [data-weight]`)].map(e => +e.dataset.weight);", vec![]).await;
    let weights: Vec<f64> =
        weights.as_array().map(|a| a.iter().filter_map(|w| w.as_f64()).collect()).unwrap_or_default();
    assert_eq!(weights.len(), 12, "11 edges and a ring");
    let row_sum: f64 = weights[..11].iter().sum();
    assert!((row_sum - 1.0).abs() < 1e-3, "edge weights sum to {row_sum}");
    // The page owns the query: the module asks it, and draws what the page hands back.
    // Its dot, where a pointer clicks (WebKit's WebDriver cannot click an SVG group itself).
    b.click_css("[data-testid='graph-node-8'] .graph__node").await;
    let pressed = "return document.querySelector(`[data-testid='graph-node-8']`)?.getAttribute('aria-pressed');";
    for _ in 0..50 {
        if b.js(pressed, vec![]).await == "true" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(b.js(pressed, vec![]).await, "true");
    assert!(b.address().await.as_str().is_some_and(|a| a.contains("q=8")), "the page's link has the query");
    // The chosen node picked again changes nothing, and the link stays the one a reload writes
    // (the module puts `q` last; the page once left it there, and the reload moved it back).
    b.click_css("[data-testid='graph-node-8'] .graph__node").await;
    b.frames(5).await;
    let link = b.address().await;
    b.reload().await;
    b.wait_for("[data-testid='graph-node-8'][aria-pressed='true']").await;
    assert_eq!(b.address().await, link, "a reload rewrote the link the page showed");
    let messages = b.text_of("graph-messages").await;
    // One message per line of the list (counted as items: WebKit's element text runs them together).
    let items = b.js("return document.querySelectorAll(`[data-testid='graph-messages'] li`).length;", vec![]).await;
    assert_eq!(items, json!(5), "{messages}");
    assert!(messages.contains("× v["));
    all_drawn(&b, "view-graph").await;
    b.close().await;
}

pub async fn complexity_view_counts_pairs_and_flash_matches_the_full_computation() {
    let site = Site::start("").await;
    let b = open_view(&site, "complexity").await;
    b.set_value("cost-n-slider", "17").await;
    assert_eq!(b.text_of("cost-n-value").await, "131072");
    assert_eq!(b.text_of("cost-pairs").await, (131072u64 * 131072).to_string());
    // 4 heads × 2³⁴ scores × 2 bytes = 128 GiB.
    assert_eq!(b.text_of("cost-mem-fp16").await, "128.0 GiB");
    let error = number(&b, "flash-max-error").await;
    assert!(error < 1e-5, "tiled and full outputs differ by {error}");
    assert!(b.text_of("flash-step").await.starts_with("Step 1 of 9"), "11 tokens in 4 × 4 tiles: 3 × 3 steps");
    b.click("flash-next").await;
    assert!(b.text_of("flash-step").await.starts_with("Step 2 of 9"));
    assert_eq!(b.text_of("flash-next").await, "▶");
    b.js("const s = document.querySelector(`[data-testid='flash-tile']`); s.value = '1'; s.dispatchEvent(new Event('change', { bubbles: true }));", vec![json!(null)]).await;
    assert!(b.text_of("flash-step").await.starts_with("Step 1 of 121"));
    assert!(number(&b, "linear-max-error").await < 1e-4);
    all_drawn(&b, "view-complexity").await;
    b.assert_no_panic().await;
    b.assert_no_broken_numbers().await;
    b.close().await;
}

/// What a view's heatmap `figure` saves as CSV now: its file's name and its header's tokens.
async fn saved_csv(b: &Browser, figure: &str) -> (String, Vec<String>) {
    b.js("window.__downloads = [];", vec![]).await;
    b.click_css(&format!("[data-testid='{figure}'] [data-testid='export-csv']")).await;
    let files = b.downloads().await;
    let name = files.first().and_then(|f| f["name"].as_str()).unwrap_or_default().to_string();
    let text = files.first().and_then(|f| f["text"].as_str()).unwrap_or_default().to_string();
    let header = text.lines().next().unwrap_or_default().split(',').skip(1).map(str::to_string).collect();
    (name, header)
}

/// Wait (up to `secs`) until `figure` saves a file whose name has `tag` and whose columns are
/// `tokens`: the view shows the lesson's state.
async fn shows(b: &Browser, figure: &str, tag: &str, tokens: &[&str], secs: u64, what: &str) {
    let started = std::time::Instant::now();
    loop {
        let (name, header) = saved_csv(b, figure).await;
        if name.contains(tag) && header == tokens {
            return;
        }
        assert!(started.elapsed().as_secs() < secs, "{what}: {figure} saves {name} with columns {header:?}");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

/// The views that draw the lesson's numbers, each with the figures whose saved CSV names the
/// state (the model, its layer, the mask) and whose columns are the sentence's tokens.
const NUMBERS_VIEWS: [(&str, &[&str]); 2] =
    [("graph", &["heatmap-adjacency"]), ("complexity", &["heatmap-flash", "heatmap-softmax-compare"])];

/// Open `view` from the navigation, unless the page shows it already.
async fn open_from_nav(b: &Browser, view: &str) {
    if !b.address().await.as_str().is_some_and(|a| a.contains(&format!("view={view}"))) {
        b.click(&format!("nav-{view}")).await;
        b.wait_for_view(view).await;
    }
}

/// Open each of the views of the lesson's numbers in turn: each of its figures shows the state
/// `tag` and `tokens` name; the values' hull (which saves nothing) has a point for each token
/// and offers each as the query.
async fn each_view_shows(b: &Browser, tag: &str, tokens: &[&str], what: &str) {
    for (view, figures) in NUMBERS_VIEWS {
        open_from_nav(b, view).await;
        for figure in figures {
            shows(b, figure, tag, tokens, 10, &format!("{what}, {view}")).await;
        }
    }
    open_from_nav(b, "convex").await;
    let started = std::time::Instant::now();
    let read = "const texts = (s) => [...document.querySelectorAll(s)].map(e => e.textContent);
                return [texts(`[data-testid='convex-svg'] .convex__label`), texts(`[data-testid='convex-query'] option`)];";
    loop {
        let [points, queries] =
            b.js(read, vec![]).await.as_array().cloned().unwrap_or_default().try_into().unwrap_or_default();
        if points == json!(tokens) && queries == json!(tokens) {
            break;
        }
        assert!(started.elapsed().as_secs() < 10, "{what}, convex: points {points}, queries {queries}");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

/// Every view that draws the lesson's numbers follows the lesson: the graph, the cost of
/// attention (its FlashAttention scores and its softmax weights) and, for a pretrained model,
/// the model view, each opened in turn, then the mask, the sentence and the model changed
/// beside it; what each saves names the new state, and a reload shows the same.
pub async fn every_view_of_the_lesson_s_numbers_follows_the_mask_the_sentence_and_the_model() {
    let site = Site::start("").await;
    let b = Browser::open(1280, 900).await;
    b.open_page(&site.url("?lang=en&view=graph&text=the%20cat%20sat")).await;
    b.wait_for_view("graph").await;
    b.catch_downloads().await;
    each_view_shows(&b, "-seed42_", &["the", "cat", "sat"], "opened").await;
    b.choose("mask-select", "causal").await;
    each_view_shows(&b, "-seed42-causal_", &["the", "cat", "sat"], "the causal mask").await;
    b.set_value("token-input", "a dog ran home").await;
    each_view_shows(&b, "-seed42-causal_", &["a", "dog", "ran", "home"], "a new sentence").await;
    b.choose("weights-switch", "minilm").await;
    let framed: &[&str] = &["[CLS]", "a", "dog", "ran", "home", "[SEP]"];
    each_view_shows(&b, "minilm-layer1-causal_", framed, "the pretrained model").await;
    b.click("nav-model").await;
    b.wait_for_view("model").await;
    // The model view's maps are of the new sentence, under the causal mask.
    let grid = "const g = document.querySelector(`[data-testid='model-grid']`);
                return !!g && g.dataset.tokens.includes('a dog ran home') && g.dataset.mask === 'causal';";
    b.until(grid, "the model view shows the sentence and the mask", 60).await;
    b.reload().await;
    b.wait_for_view("model").await;
    b.until(grid, "the model view after a reload", 60).await;
    b.click("nav-graph").await;
    b.wait_for_view("graph").await;
    b.catch_downloads().await;
    each_view_shows(&b, "minilm-layer1-causal_", framed, "after a reload").await;
    b.assert_no_panic().await;
    b.close().await;
}

/// The same from the learner's model, trained here and opened in the lesson (its example as
/// the sentence, the causal mask): the views of the lesson's numbers show it; the model view,
/// the case study and the other side lessons open beside it and draw; the views of the
/// numbers follow the mask, a shorter sentence of its tokens and another model; a reload
/// shows the same.
pub async fn every_view_of_the_lesson_s_numbers_follows_from_the_learner_s_model() {
    let site = Site::start("").await;
    let b = Browser::open(1280, 900).await;
    b.open_page(&site.url("?lang=en&view=learn")).await;
    crate::learn::a_few_steps_opened_in_the_lesson(&b).await;
    b.catch_downloads().await;
    b.click("export-json").await;
    let files = b.downloads().await;
    let trace: serde_json::Value =
        serde_json::from_str(files[0]["text"].as_str().unwrap_or_default()).expect("the export is JSON");
    let example: Vec<String> = serde_json::from_value(trace["tokens"].clone()).expect("the lesson's tokens");
    let example: Vec<&str> = example.iter().map(String::as_str).collect();
    each_view_shows(&b, "yours-layer1-causal_", &example, "opened from the learner's model").await;
    for (view, hosted) in [("model", "view-model"), ("coref", "view-coref")] {
        b.click(&format!("nav-{view}")).await;
        b.wait_for_view(view).await;
        // Its module mounted: the loading line gave way, and no failure line shows.
        let mounted = format!(
            "const v = document.querySelector(`[data-testid='{hosted}']`);
             return !!v && v.querySelector('[data-module-status]').hidden
               && [...v.querySelectorAll('[data-module-failed], [data-module-trapped]')].every(l => l.hidden);"
        );
        b.until(&mounted, &format!("the {view} view started beside the learner's model"), 30).await;
    }
    // The side lessons that read only the lesson's settings open beside it, and draw.
    for view in ["variance", "position", "rnn-cnn"] {
        b.click(&format!("nav-{view}")).await;
        b.wait_for_view(view).await;
        all_drawn(&b, &format!("view-{view}")).await;
    }
    b.click("nav-block").await;
    b.wait_for("[data-testid='view-block'] [data-testid='block-attention']").await;
    b.choose("mask-select", "none").await;
    each_view_shows(&b, "yours-layer1_", &example, "no mask").await;
    let shorter = &example[..8];
    b.set_value("token-input", &shorter.join(" ")).await;
    each_view_shows(&b, "yours-layer1_", shorter, "a shorter sentence of its tokens").await;
    b.choose("weights-switch", "random").await;
    each_view_shows(&b, "-seed42_", shorter, "a random model").await;
    b.reload().await;
    // The hull's view, the last one opened.
    b.wait_for_view("convex").await;
    b.catch_downloads().await;
    each_view_shows(&b, "-seed42_", shorter, "after a reload").await;
    b.assert_no_panic().await;
    b.close().await;
}

/// A pretrained model reads one sentence: the variants view shows its self and causal
/// attention, and says under cross-attention (and in the padding panel) why there is none,
/// with no error over the whole view. (Fresh run H's random walk ended on this view with
/// nothing drawn: the one variant the model lacks refused all three.)
pub async fn a_pretrained_model_shows_self_and_causal_variants_and_says_why_there_is_no_cross() {
    let site = Site::start("").await;
    let b = Browser::open(1280, 900).await;
    b.open_page(&site.url("?lang=en&model=minilm&text=the%20cat%20sat")).await;
    b.click("nav-variants").await;
    b.wait_for_view("variants").await;
    let framed = "return document.querySelector(`[data-testid='variant-causal'] [data-testid='heatmap-causal'] [data-caption]`)?.textContent === 'Weights A: 5 × 5';";
    b.until(framed, "the causal variant of [CLS] the cat sat [SEP]", 60).await;
    for variant in ["variant-self", "variant-causal"] {
        all_drawn(&b, variant).await;
    }
    // Its map shows nothing, not the picture of the random weights it drew while the model
    // was on its way.
    let stale = b
        .js("return document.querySelector(`[data-testid='heatmap-cross'] canvas`)?.dataset.drawn ?? null;", vec![])
        .await;
    assert_eq!(stale, serde_json::Value::Null, "the cross map shows numbers it no longer has");
    let cross = b.text_of("variant-cross-error").await;
    assert!(cross.contains("read one sentence"), "{cross}");
    assert!(b.text_of("padding-reading").await.contains("read one sentence"), "the padding panel says why too");
    let whole = b.js("return !!document.querySelector(`[data-testid='variants-error']`);", vec![]).await;
    assert_eq!(whole, json!(false), "an error over the whole view");
    // Back to the random weights: all three, and the padding, again.
    b.choose("weights-switch", "random").await;
    b.until(
        "return !document.querySelector(`[data-testid='variant-cross-error']`) && document.querySelector(`[data-testid='heatmap-cross'] [data-caption]`)?.textContent === 'Weights A: 3 × 4';",
        "cross-attention with the random weights",
        10,
    )
    .await;
    all_drawn(&b, "view-variants").await;
    b.assert_no_panic().await;
    b.close().await;
}

/// The random walk's find: when the lesson's settings stop computing (here: the learner's
/// model, which this browser does not keep), the page keeps its last good outcome and says
/// why; the variants must not then be computed by the newly chosen model from the other
/// model's outcome (an error of their own, nothing drawn: the walk ended on a blank view). They
/// keep their last good picture, as every other view does, and follow again once it computes.
pub async fn settings_that_do_not_compute_keep_the_last_good_variants() {
    let site = Site::start("").await;
    let b = Browser::open(1280, 900).await;
    b.open_page(&site.url("?lang=en&view=variants")).await;
    b.wait_for_view("variants").await;
    all_drawn(&b, "view-variants").await;
    assert_eq!(b.captions_in("variant-self").await, ["Weights A: 11 × 11"]);
    b.choose("weights-switch", "yours").await;
    let said = "return !!document.querySelector(`[data-testid='compute-error']`);";
    b.until(said, "the page says why the learner's model does not compute", 10).await;
    b.frames(5).await;
    let error =
        b.js("return document.querySelector(`[data-testid='variants-error']`)?.textContent ?? null;", vec![]).await;
    assert_eq!(error, serde_json::Value::Null, "the variants view has an error of its own");
    all_drawn(&b, "view-variants").await;
    assert_eq!(b.captions_in("variant-self").await, ["Weights A: 11 × 11"], "the last good variants stay");
    b.choose("weights-switch", "random").await;
    b.set_value("token-input", "one two three").await;
    b.until(
        "return document.querySelector(`[data-testid='variant-self'] [data-caption]`)?.textContent === 'Weights A: 3 × 3';",
        "the variants follow again",
        10,
    )
    .await;
    b.assert_no_panic().await;
    b.close().await;
}
