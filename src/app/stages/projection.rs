//! Stage 1: Q, K and V, each X times its own weight matrix.

use super::{from_outcome, StagePanel};
use crate::app::page::use_page;
use crate::core::model::InputRule;
use crate::i18n::{fill, t, ModelMsg, Msg};
use crate::settings::Stage;
use crate::ui::charts::PageMap;
use crate::ui::specs::{indices, signed};
use leptos::prelude::*;

/// Q (from the query sentence), K and V (from the key/value sentence).
#[component]
pub fn ProjectionStage() -> impl IntoView {
    let page = use_page();
    let q = from_outcome(|o, _| signed(o.trace().q.clone(), &o.tokens, indices(o.trace().d_model())));
    let k = from_outcome(|o, _| signed(o.trace().k.clone(), &o.kv_tokens, indices(o.trace().d_model())));
    let v = from_outcome(|o, _| signed(o.trace().v.clone(), &o.kv_tokens, indices(o.trace().d_model())));
    // How this model's Q, K and V differ from X times the weights alone, if they do.
    let notes = from_outcome(|o, lang| {
        let shape = o.shape();
        let rotary = (shape.input == InputRule::Rotary).then(|| t(lang, ModelMsg::RotaryProjection).to_string());
        let (h, kv) = (shape.n_heads, shape.kv_heads.max(1));
        let shared = (kv < h).then(|| {
            let pairs = [("kv", kv.to_string()), ("h", h.to_string()), ("per", (h / kv).to_string())];
            fill(t(lang, ModelMsg::SharedKv), &pairs.each_ref().map(|(k, v)| (*k, v.as_str())))
        });
        [rotary, shared].into_iter().flatten().collect::<Vec<_>>()
    });
    view! {
        <StagePanel stage=Stage::Projection>
            {move || notes.get().unwrap_or_default().into_iter().map(|n| view! { <p class="stage__note" data-testid="projection-note">{n}</p> }).collect_view()}
            <div class="stage__grid stage__grid--three">
                <PageMap spec=q name=page.label(Msg::MatQueries) testid="heatmap-q" />
                <PageMap spec=k name=page.label(Msg::MatKeys) testid="heatmap-k" />
                <PageMap spec=v name=page.label(Msg::MatValues) testid="heatmap-v" />
            </div>
        </StagePanel>
    }
}
