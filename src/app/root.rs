//! `App`: the page. Owns the language and the scenario; the trace is computed once per change
//! in a `Memo` and every view reads it.

use super::Heatmap;
use crate::chart::{colormap::Scale, heatmap::HeatmapSpec};
use crate::core::scenario::{compute, Outcome, Scenario};
use crate::i18n::{t, Lang, Msg};
use leptos::prelude::*;

/// The most tokens a sentence may have: beyond this the heatmaps stop being readable.
pub const MAX_TOKENS: usize = 64;

/// The language the browser asks for (zh* → Chinese).
fn browser_lang() -> Lang {
    web_sys::window().and_then(|w| w.navigator().language()).map_or(Lang::En, |tag| Lang::from_tag(&tag))
}

/// The whole site.
#[component]
pub fn App() -> impl IntoView {
    let lang = RwSignal::new(browser_lang());
    let scenario = RwSignal::new(Scenario::default());
    let outcome = Memo::new(move |_| scenario.with(|s| compute(s, MAX_TOKENS)));
    let tr = move |m: Msg| t(lang.get(), m);

    Effect::new(move |_| {
        if let Some(html) = document().document_element() {
            let _ = html.set_attribute("lang", lang.get().code());
        }
    });

    view! {
        <header class="masthead">
            <h1 class="masthead__title">{move || tr(Msg::AppTitle)}</h1>
            <p class="masthead__tagline">{move || tr(Msg::Tagline)}</p>
        </header>
        <main class="page">
            {move || match outcome.get() {
                Ok(o) => view! { <WeightsPanel outcome=o lang=lang.into() /> }.into_any(),
                Err(e) => view! {
                    <p class="error" role="alert" data-testid="compute-error">
                        {tr(Msg::ComputeError)} ": " {e.to_string()}
                    </p>
                }.into_any(),
            }}
        </main>
    }
}

/// The attention weights of the first head, read from the trace.
#[component]
fn WeightsPanel(
    /// The computed scenario.
    outcome: Outcome,
    /// Current language.
    lang: Signal<Lang>,
) -> impl IntoView {
    let heads = outcome.trace.heads.len();
    let (n_q, n_kv) = outcome.trace.n();
    let spec = HeatmapSpec {
        values: outcome.trace.heads[0].weights.clone(),
        row_labels: outcome.tokens.clone(),
        col_labels: outcome.kv_tokens.clone(),
        scale: Scale::Sequential { min: 0.0, max: 1.0 },
        blocked: Some(outcome.trace.blocked.clone()),
    };
    let caption = move || {
        let l = lang.get();
        format!("{} ({} 1/{heads}): {n_q} × {n_kv}", t(l, Msg::WeightsTitle), t(l, Msg::HeadLabel))
    };
    view! {
        <section class="panel" data-testid="weights-panel">
            <p class="panel__text">{move || t(lang.get(), Msg::WeightsExplain)}</p>
            <Heatmap spec=Signal::stored(spec) caption=Signal::derive(caption) testid="heatmap-weights" />
        </section>
    }
}
