//! The page's half of "Predict first": the element the side lessons' module asks its question
//! in, the numbers of the stage on screen handed to it (`module_host::hand_over`), and the stage's figure
//! held back until the module says the question is answered. The questions themselves are in
//! the module (`crate::side::predict`), not in the page's .wasm.

use crate::app::module_host::{hand_over, load as load_module, ModuleFailed};
use crate::app::page::use_page;
use crate::app::ports::on_revealed;
use crate::bridge::{Hosted, PREDICT_VIEW};
use crate::i18n::{PredictMsg, Text};
use crate::settings::Stage;
use leptos::prelude::*;

/// The question's place; `revealed` becomes `true` once it is answered, and `false` again
/// whenever what the question is about (the outcome, the head, the query) changes.
#[component]
pub fn PredictHost(stage: Stage, revealed: RwSignal<bool>) -> impl IntoView {
    let page = use_page();
    hand_over(page);
    let (head, query) = (page.pick(|s| s.lesson().head()), page.pick(|s| s.lesson().query()));
    Effect::new(move |started: Option<()>| {
        head.track();
        query.track();
        page.outcome.track();
        revealed.set(false);
        // Started (or asked to mount again) once the element is in the page; later the
        // module follows the numbers by itself.
        if started.is_none() {
            if let Err(e) = load_module(Hosted::Side) {
                leptos::logging::error!("the questions: {e:?}");
            }
        }
    });
    on_revealed(move || revealed.set(true));
    let name = Hosted::Side.name();
    view! {
        <div class="predict" data-testid="predict">
            <p class="view__text" role="status" data-module-status=name>{page.text(PredictMsg::Loading)}</p>
            <ModuleFailed module=Hosted::Side failed=PredictMsg::Failed.pair() />
            <div id=Hosted::Side.root() data-view=PREDICT_VIEW data-stage=stage.slug()></div>
        </div>
    }
}
