//! The views about a pretrained model, their own module (the `pretrained` binary, its own
//! .wasm, started by the page when one of them first opens: `bridge::Hosted::Pretrained`):
//! every head of the model at once on the lesson's sentence ([`model_view`]) and the "it →
//! animal" case study ([`case_study`]). They show the lesson's model when it is a pretrained
//! one, else the first pretrained model offered in the page's language (`ModelId::viewed`).
//! The module brings the model's frame itself (`crate::fetch`, from the browser's cache once
//! any view has downloaded it: its shape, tokenizer and attention weights in the file's form,
//! as the page holds them) and keeps it (one at a time; a load given up for another model still
//! finishes, but what it brings is dropped) for the next time one of its views opens; the
//! forward passes run in a worker of the module's own ([`asking`]), which ends when the view
//! closes (`ToModule::Closed`), and the model's other weights with it. The module reads the
//! lesson from the address bar and writes only its own keys there (the case study's, `study`).

mod ablate_panel;
mod asking;
mod case_study;
pub mod depth_view;
mod model_view;
mod second;
pub mod study;
mod sweep_panel;

use crate::bridge::Hosted;
use crate::chart::ink::Ink;
use crate::core::ablate::Ablation;
use crate::core::model::{Encoding, Model, ModelError};
use crate::fetch::LoadState;
use crate::hosted::{host, page_lang_and_ink};
use crate::i18n::Lang;
use crate::models::{Arrival, Delivery, ModelId, Models};
use crate::settings::{Settings, View};
use crate::shared::Shared;
use leptos::prelude::*;
use std::cell::RefCell;
use std::sync::Arc;

/// A model the module has, and which one it is.
type Kept = (ModelId, Arc<dyn Model>);

/// A downloaded model's frame, as the views ask it: its forward passes in a worker
/// ([`asking::Asking`]), where the page has the worker's script; else the model as it came.
fn asked_of(id: ModelId, model: Arc<dyn Model>) -> Arc<dyn Model> {
    if crate::compute::client::forward_worker() {
        let asking = Arc::new(asking::Asking::new(id, model));
        ASKING.with(|a| *a.borrow_mut() = Some(Arc::clone(&asking)));
        asking
    } else {
        model
    }
}

thread_local! {
    /// The model last brought (kept while the page is open, until another is asked for).
    static MODEL: RefCell<Option<Kept>> = const { RefCell::new(None) };
    /// The kept model's worker, if its passes are asked of one: ended when the view closes.
    static ASKING: RefCell<Option<Arc<asking::Asking>>> = const { RefCell::new(None) };
    /// The mounted view's state, which a load reports to.
    static MOUNTED: RefCell<Option<Viewer>> = const { RefCell::new(None) };
    /// The load whose model is kept when it arrives (the model, and the load's number), if any.
    static WANTED: std::cell::Cell<Option<(ModelId, u32)>> = const { std::cell::Cell::new(None) };
    /// Loads started so far: each load's number.
    static STARTED: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// The kept model, if it is `id`.
fn kept(id: ModelId) -> Option<Arc<dyn Model>> {
    MODEL.with(|m| m.borrow().as_ref().filter(|(k, _)| *k == id).map(|(_, m)| Arc::clone(m)))
}

/// What the module's views read: the page's language and colours, the lesson's settings as
/// the address bar has them, the model and its load.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Viewer {
    pub lang: Lang,
    pub ink: Ink,
    /// The lesson's settings (read when the view opened; the page owns them).
    pub settings: StoredValue<Settings>,
    /// The pretrained model the views show.
    pub id: ModelId,
    pub model: RwSignal<Option<Shared<dyn Model>>>,
    pub load: RwSignal<LoadState>,
    /// The heads switched off in the viewed model (the lesson's, when it shows this model).
    pub ablation: RwSignal<Ablation>,
}

/// Start the module: mount the open view, and again whenever the page asks.
pub fn start() {
    crate::report_memory("pretrained");
    // The view closed: the worker ends, and the whole model with it (the frame stays). Not
    // when the view is only mounted again (a new sentence, language or theme): the worker,
    // with the model loaded, answers the next question at once.
    crate::hosted::when_closed(|| ASKING.with(|a| a.borrow().iter().for_each(|a| a.end())));
    host(Hosted::Pretrained, || view! { <PretrainedViews /> }.into_any());
}

/// The models as this module knows them: the pretrained one once here.
fn models() -> Models {
    let mut models = Models::default();
    if let Some((id, m)) = MODEL.with(|m| m.borrow().clone()) {
        models.arrive(id, Arrival::Ready(m));
    }
    models
}

/// Tell the mounted view where the load is.
fn tell_mounted(state: LoadState) {
    if let Some(v) = MOUNTED.with(|m| *m.borrow()) {
        v.load.try_set(state);
    }
}

/// Bring the model (from the cache or the network) to the mounted view; nothing more if it is
/// here or on its way.
fn bring_to(viewer: Viewer) {
    MOUNTED.with(|m| *m.borrow_mut() = Some(viewer));
    let id = viewer.id;
    if let Some(m) = kept(id) {
        viewer.model.set(Some(Shared(m)));
        return;
    }
    let Delivery::Download(download) = id.delivery() else { return };
    if WANTED.with(|w| w.get()).is_some_and(|(wanted, _)| wanted == id) {
        return;
    }
    // Another model is let go before this one arrives: one kept at a time.
    MODEL.with(|m| m.borrow_mut().take());
    ASKING.with(|a| a.borrow_mut().take());
    let load = STARTED.with(|n| n.replace(n.get().wrapping_add(1)));
    WANTED.with(|w| w.set(Some((id, load))));
    let wanted = move || WANTED.with(|w| w.get()) == Some((id, load));
    let report = move |state: LoadState| {
        if !wanted() {
            return;
        }
        if !matches!(state, LoadState::Loading { .. }) {
            WANTED.with(|w| w.set(None));
        }
        tell_mounted(state);
    };
    crate::fetch::bring(download, report, move |model| {
        // The load's last report (after this) lets it go.
        if !wanted() {
            return;
        }
        let model = asked_of(id, model);
        MODEL.with(|m| *m.borrow_mut() = Some((id, Arc::clone(&model))));
        if let Some(v) = MOUNTED.with(|m| *m.borrow()).filter(|v| v.id == id) {
            v.model.try_set(Some(Shared(model)));
        }
    });
}

/// The view the address bar names (every head at once, or the case study), with the model it
/// brings, or `model` when one is given (a page embedding its own).
#[component]
pub fn PretrainedViews(
    /// The model to show instead of the one the page loads (the tests hand in a toy model).
    #[prop(optional)]
    model: Option<Arc<dyn Model>>,
) -> impl IntoView {
    let (lang, ink) = page_lang_and_ink();
    let search = crate::hosted::address();
    let mut settings = Settings::from_query(&search, lang, &models()).0;
    let id = settings.choice().id().viewed(settings.lang());
    if let Some(m) = model {
        // Read again with the model handed in known (a link may name it).
        MODEL.with(|kept| *kept.borrow_mut() = Some((id, m)));
        settings = Settings::from_query(&search, lang, &models()).0;
    }
    // The view the page's element for it says (the address bar may not have caught up).
    let root = document().get_element_by_id(Hosted::Pretrained.root());
    let named = root.and_then(|r| r.get_attribute("data-view")).and_then(|v| View::from_slug(&v));
    let view = named.unwrap_or(settings.view());
    let ablation =
        if settings.choice().id() == id { settings.lesson().ablation().clone() } else { Ablation::default() };
    let viewer = Viewer {
        lang,
        ink,
        settings: StoredValue::new(settings),
        id,
        model: RwSignal::new(None),
        load: RwSignal::new(LoadState::Idle),
        ablation: RwSignal::new(ablation),
    };
    provide_context(viewer);
    bring_to(viewer);
    // The view that asked; the model view otherwise.
    match view {
        View::Coref => view! { <case_study::CaseStudy /> }.into_any(),
        _ => view! { <model_view::ModelView /> }.into_any(),
    }
}

/// A forward pass as the views show it: `None` while a worker computes it (the view says so,
/// and its memo runs again with the answer), else its outcome.
pub(crate) fn settled(pass: Result<Encoding, ModelError>) -> Option<Result<Shared<Encoding>, ModelError>> {
    match pass {
        Err(ModelError::Computing) => None,
        pass => Some(pass.map(|e| Shared(Arc::new(e)))),
    }
}

/// "Computing in the background…", while `computing` says so and the model is here.
pub(crate) fn computing_line(viewer: Viewer, computing: impl Fn() -> bool + Send + Sync + 'static) -> impl IntoView {
    move || {
        (viewer.model.with(Option::is_some) && computing()).then(|| {
            view! {
                <p class="view__text" role="status" data-testid="pretrained-computing">
                    {crate::i18n::t(viewer.lang, crate::i18n::ErrMsg::Computing)}
                </p>
            }
        })
    }
}

/// The module's context.
pub(crate) fn use_viewer() -> Viewer {
    expect_context::<Viewer>()
}

/// Try loading the model again after a failure.
pub(crate) fn retry(viewer: Viewer) -> Callback<()> {
    Callback::new(move |()| {
        viewer.load.set(LoadState::Idle);
        bring_to(viewer);
    })
}
