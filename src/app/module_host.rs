//! The place in the page of a view that is its own module (its own .wasm, see
//! `bridge::Hosted`), fetched only when the view first opens: the page's own .wasm stays small
//! and the first heatmap fast. The build names the module's start script in
//! `<meta name="attention-lab-{name}">`; the module mounts itself into this view's element,
//! again each time the view is opened, the language or theme changes or, for the model view,
//! the lesson's model, sentence or run options change ([`ReadAtMount`]), and is told when the
//! view closes (`ToModule::Closed`). It reads which of its views it is from the element's
//! `data-view` (a module that mirrors the settings follows them in place instead). If it
//! cannot be loaded, the start script shows the failure line instead of the loading one, and
//! marks its script so that the module's other views say so too. The start script tries three
//! times before it gives up (a classroom's network drops a file now and then); the failure
//! line then offers to try again ([`ModuleFailed`]), which never reloads the page or loses its
//! settings. A trap of the engine while the module starts is no failed download: the start
//! script loads the page once more, as the page's own start does (assets/start.js), and if it
//! traps again the view says so.

use super::page::{use_page, Page, Shared};
use super::ports::{hand_over as send_shown, send};
use super::url_sync::Link;
use crate::bridge::Hosted;
use crate::core::attention::Mask;
use crate::i18n::{ClassMsg, Pair};
use crate::models::ModelId;
use crate::protocol::{ShownLayer, ToModule};
use crate::settings::{Settings, View};
use leptos::prelude::*;
use wasm_bindgen::JsCast;

/// While the calling component lives, hand the side lessons' module the numbers on screen
/// (`protocol::ToModule::Shown`): the shown layer of the outcome, and the chosen head and
/// query, again whenever they change. The module reads them (`side::handover`) for the views
/// that draw the lesson's numbers and for "Predict first".
pub fn hand_over(page: Page) {
    let (head, query) = (page.pick(|s| s.lesson().head()), page.pick(|s| s.lesson().query()));
    Effect::new(move |_| {
        let (head, query) = (head.get(), query.get());
        if let Some(Shared(outcome)) = page.outcome.get() {
            send_shown(ToModule::Shown { layer: outcome.layer, shown: ShownLayer::Outcome(outcome), head, query });
        }
    });
}

/// What of the page's settings a module that does not mirror them reads when it mounts, beyond
/// its own keys: a change of it mounts the module again. The model view reads the lesson's
/// model, sentences and run options; the heads it switches off are not in it (the view changes
/// those itself, and keeps its own state meanwhile).
#[derive(Debug, Clone, PartialEq)]
struct ReadAtMount {
    model: ModelId,
    text: String,
    kv_text: String,
    cross: bool,
    mask: Mask,
    scaled: bool,
    temperature: f32,
}

impl ReadAtMount {
    fn of(module: Hosted, s: &Settings) -> Option<ReadAtMount> {
        let l = s.lesson();
        (module == Hosted::Pretrained && s.view() == View::Model).then(|| ReadAtMount {
            model: s.choice().id(),
            text: l.text().to_string(),
            kv_text: l.kv_text().to_string(),
            cross: l.cross(),
            mask: l.mask(),
            scaled: l.scaled(),
            temperature: l.temperature(),
        })
    }
}

/// The view: its title, a place for the module, with a line saying it is loading (hidden by
/// the module once mounted) and one saying it failed (shown by the start script if it does).
#[component]
pub fn HostedView(
    /// The module that shows the view.
    module: Hosted,
    /// `data-testid` of the view.
    testid: &'static str,
    /// Its title.
    title: Pair,
    /// The line while the module loads.
    loading: Pair,
    /// The line if it could not be loaded.
    failed: Pair,
) -> impl IntoView {
    let page = use_page();
    let link = expect_context::<Link>();
    let reads = Memo::new(move |_| page.settings.with(|s| ReadAtMount::of(module, s)));
    Effect::new(move |opened: Option<()>| {
        page.lang.track();
        page.ink.track();
        // Read, not only tracked: a memo that was never read computes for the first time on
        // the next change of the settings, which counts as a change of it (and mounted the
        // module again when a head was switched off).
        reads.with(|_| ());
        // The link first, so that a module mounted again reads the settings of now (on its
        // channel, messages arrive in the order they were sent). A module that mirrors the
        // settings follows the language and theme in place.
        link.tell_modules();
        if opened.is_some() && module.mirrors_settings() {
            return;
        }
        if let Err(e) = load(module) {
            leptos::logging::error!("the {} module: {e:?}", module.name());
        }
    });
    // Closed: a module that holds much for its view lets it go (`hosted::when_closed`).
    on_cleanup(move || {
        send(module, &ToModule::Closed);
    });
    view! {
        <section class=format!("view view--{}", module.name()) data-testid=testid>
            <h2 class="view__title">{page.text(title)}</h2>
            <p class="view__text" role="status" data-module-status=module.name()>{page.text(loading)}</p>
            <ModuleFailed module=module failed=failed />
            <div id=module.root() data-view=move || page.settings.with(|s| s.view().slug())></div>
        </section>
    }
}

/// The line saying that `module` could not be loaded (hidden until its start script gives up),
/// with a button that tries again; and the one saying that the engine stopped it as it started
/// (hidden until its start script says so, after the page loaded itself once more for it), with
/// one that loads the page again.
#[component]
pub(crate) fn ModuleFailed(
    /// The module.
    module: Hosted,
    /// What the line says.
    failed: Pair,
) -> impl IntoView {
    let page = use_page();
    let again = move |_| {
        if let Err(e) = retry(module) {
            leptos::logging::error!("the {} module, tried again: {e:?}", module.name());
        }
    };
    view! {
        <p class="field__error" role="alert" data-module-failed=module.name() hidden>
            {page.text(failed)} " "
            <button type="button" class="button button--small" data-testid="module-retry" on:click=again>
                {page.text(ClassMsg::ModuleRetry)}
            </button>
        </p>
        <p class="field__error" role="alert" data-module-trapped=module.name() hidden>
            {page.text(ClassMsg::ModuleTrapped)} " "
            <button type="button" class="button button--small" data-testid="module-reload" on:click=|_| {
                let _ = window().location().reload();
            }>{page.text(ClassMsg::ReloadPage)}</button>
        </p>
    }
}

/// Start `module` again after its start script gave up: the failure lines give way to the
/// loading ones, and a new start script element runs the module's start script again (under
/// its own query: a module script runs once per address in a page).
fn retry(module: Hosted) -> Result<(), wasm_bindgen::JsValue> {
    let document = document();
    let name = module.name();
    let failed = document.query_selector(&format!("script[data-module='{name}'][data-failed]"))?;
    let Some(failed) = failed else { return Ok(()) };
    let tries = failed.get_attribute("data-tries").and_then(|t| t.parse::<u32>().ok()).unwrap_or(1) + 1;
    failed.remove();
    let lines = |which: &str| document.query_selector_all(&format!("[data-module-{which}='{name}']"));
    for (which, hide) in [("failed", true), ("status", false)] {
        let found = lines(which)?;
        for i in 0..found.length() {
            if let Some(line) = found.item(i).and_then(|n| n.dyn_into::<web_sys::Element>().ok()) {
                let _ = if hide { line.set_attribute("hidden", "") } else { line.remove_attribute("hidden") };
            }
        }
    }
    start(module, tries)
}

/// Start the module (a module script of the same origin, as the page's security policy
/// allows), or, when it is already running, ask it to mount into the new element.
pub(crate) fn load(module: Hosted) -> Result<(), wasm_bindgen::JsValue> {
    let document = document();
    let name = module.name();
    if let Some(script) = document.query_selector(&format!("script[data-module='{name}']"))? {
        // It could not be loaded or started before (its start script marked it): say so again.
        if let Some(why) = script.get_attribute("data-failed") {
            let line = |which: &str| document.query_selector(&format!("[data-module-{which}='{name}']"));
            if let Some(failed) = line(if why == "trapped" { "trapped" } else { "failed" })? {
                failed.remove_attribute("hidden")?;
            }
            if let Some(status) = line("status")? {
                status.set_attribute("hidden", "")?;
            }
            return Ok(());
        }
        // Running: mount again. (Still starting: it mounts once it has the page's link.)
        send(module, &ToModule::Mount);
        return Ok(());
    }
    start(module, 1)
}

/// Add `module`'s start script to the page: its `tries`-th start (a later one under its own
/// query, so that the browser runs it again).
fn start(module: Hosted, tries: u32) -> Result<(), wasm_bindgen::JsValue> {
    let document = document();
    let name = module.name();
    let src = document
        .query_selector(&format!("meta[name='attention-lab-{name}']"))?
        .and_then(|m| m.get_attribute("content"))
        .ok_or_else(|| wasm_bindgen::JsValue::from_str("the page names no such module"))?;
    let script = document.create_element("script")?;
    script.set_attribute("type", "module")?;
    let src = if tries > 1 { format!("{src}?again={tries}") } else { src };
    script.set_attribute("src", &src)?;
    script.set_attribute("data-module", name)?;
    script.set_attribute("data-tries", &tries.to_string())?;
    document.head().ok_or_else(|| wasm_bindgen::JsValue::from_str("no head"))?.append_child(&script).map(|_| ())
}
