//! Stage 6: every head's weights side by side, the concatenation and the output through W_O.

use super::{from_outcome, StagePanel};
use crate::app::charts::PageMap;
use crate::app::page::use_page;
use crate::app::specs::{indices, signed, weights};
use crate::i18n::{LessonMsg, Msg};
use crate::settings::Stage;
use leptos::prelude::*;

/// Small weight maps per head, then concat and concat · W_O.
#[component]
pub fn MultiHeadStage() -> impl IntoView {
    let page = use_page();
    let heads = from_outcome(|o, _| {
        let t = o.trace();
        t.head_traces
            .iter()
            .map(|h| weights(h.weights.clone(), &o.tokens, &o.kv_tokens, &t.blocked))
            .collect::<Vec<_>>()
    });
    // Only a new head count remounts the maps; new weights just redraw them.
    let count = Memo::new(move |_| heads.with(|h| h.as_ref().map_or(0, Vec::len)));
    let concat = from_outcome(|o, _| signed(o.trace().concat.clone(), &o.tokens, indices(o.trace().d_model())));
    let output = from_outcome(|o, _| signed(o.trace().output.clone(), &o.tokens, indices(o.trace().d_model())));
    view! {
        <StagePanel stage=Stage::MultiHead>
            // On a projector up to four heads a row (see the stylesheet).
            <div class="stage__heads" data-per-row=move || count.get().clamp(1, 4)>
                {move || (0..count.get()).map(|h| {
                    let spec = Memo::new(move |_| heads.with(|all| all.as_ref().and_then(|all| all.get(h).cloned())));
                    let name = Signal::derive(move || format!("{} {}", page.t(Msg::Head), h + 1));
                    view! { <PageMap spec=spec name=name testid="heatmap-head" file=format!("head{}", h + 1) shared_scale=true /> }
                }).collect_view()}
            </div>
            <PageMap spec=concat name=page.label(Msg::MatConcat) testid="heatmap-concat" next_screen=true />
            <PageMap spec=output name=page.label(Msg::MatOutput) testid="heatmap-final" next_screen=true />
            <div class="aside" data-testid="why-heads">
                <h3 class="view__subtitle">{page.text(LessonMsg::WhyHeadsTitle)}</h3>
                <p class="view__text">{page.text(LessonMsg::WhyHeads)}</p>
            </div>
        </StagePanel>
    }
}
