//! Stage 6: every head's weights side by side, the concatenation and the output through W_O.

use super::{from_outcome, StagePanel};
use crate::app::page::use_page;
use crate::core::model::Origin;
use crate::figures::heads::HeadSwitches;
use crate::i18n::{fill, AblateMsg, Lang, LessonMsg, Msg};
use crate::settings::Stage;
use crate::stage_texts::replacement_name;
use crate::ui::charts::PageMap;
use crate::ui::specs::{indices, signed, weights};
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
            <HeadsOff />
            <PageMap spec=concat name=page.label(Msg::MatConcat) testid="heatmap-concat" next_screen=true />
            <PageMap spec=output name=page.label(Msg::MatOutput) testid="heatmap-final" next_screen=true />
            <div class="aside" data-testid="why-heads">
                <h3 class="view__subtitle">{page.text(LessonMsg::WhyHeadsTitle)}</h3>
                <p class="view__text">{page.text(LessonMsg::WhyHeads)}</p>
            </div>
        </StagePanel>
    }
}

/// A switch for each head of the layer shown: a switched-off head's map above stays as
/// computed, and what it passes on to the concatenation (zeros, or its mean) is what W_O sees.
#[component]
fn HeadsOff() -> impl IntoView {
    let page = use_page();
    let shape = from_outcome(|o, _| (o.encoding.layers.len(), o.trace().n_heads(), o.layer));
    let pretrained = from_outcome(|o, _| matches!(o.shape().origin, Origin::Pretrained { .. }));
    let off = Signal::derive(move || page.settings.with(|s| s.lesson().ablation().clone()));
    let toggle = Callback::new(move |(l, h)| {
        page.apply(|s, c| s.toggle_head(l, h, c));
    });
    let note = move || {
        let mode = replacement_name(page.settings.with(|s| s.lesson().ablation().replacement), page.lang.get());
        let mut note = fill(page.t(AblateMsg::StageNote), &[("mode", mode)]);
        let later = shape.get().is_some_and(|(layers, _, layer)| layer + 1 < layers);
        let joiner = if page.lang.get() == Lang::Zh { "" } else { " " };
        for (says, msg) in
            [(later, AblateMsg::StageNoteLater), (pretrained.get() == Some(true), AblateMsg::StageNoteModelView)]
        {
            if says {
                note = format!("{note}{joiner}{}", page.t(msg));
            }
        }
        note
    };
    view! {
        <div class="aside" data-testid="stage-heads-off">
            <h3 class="view__subtitle">{page.text(AblateMsg::Title)}</h3>
            <p class="view__text">{note}</p>
            {move || shape.get().map(|(layers, heads, layer)| {
                view! { <HeadSwitches layers=layers heads=heads off=off toggle=toggle lang=page.lang.get() only=layer /> }
            })}
        </div>
    }
}
