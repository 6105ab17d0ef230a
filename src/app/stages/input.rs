//! Stage 0: the input X = embedding + positional encoding.

use super::{captioned, from_outcome, StagePanel};
use crate::app::heatmap::Heatmap;
use crate::app::specs::{indices, num, signed};
use crate::app::{formulas, state::use_lab};
use crate::i18n::Msg;
use crate::settings::Stage;
use leptos::prelude::*;

/// E, PE and X for the query sentence.
#[component]
pub fn InputStage() -> impl IntoView {
    let lab = use_lab();
    let e = from_outcome(|o, _| signed(o.embedding.clone(), &o.tokens, indices(o.trace.d_model())));
    let pe = from_outcome(|o, _| o.positional.as_ref().map(|pe| signed(pe.clone(), &o.tokens, indices(o.trace.d_model()))));
    let pe_spec = Memo::new(move |_| pe.get().flatten());
    let x = from_outcome(|o, _| signed(o.trace.x.clone(), &o.tokens, indices(o.trace.d_model())));
    let x_detail = Callback::new(move |(r, c): (usize, usize)| {
        lab.outcome.with(|o| {
            let Some(o) = o else { return String::new() };
            let o = &o.0;
            let e = o.embedding[[r, c]];
            let pe = o.positional.as_ref().map_or(0.0, |p| p[[r, c]]);
            format!("X[{}, {c}] = E + PE = {} + {} = {}", o.tokens[r], num(e), num(pe), num(o.trace.x[[r, c]]))
        })
    });
    view! {
        <StagePanel stage=Stage::Input formula=formulas::INPUT explain=Msg::ExplainInput notice=Msg::NoticeInput>
            <div class="stage__stack">
                <Heatmap spec=e caption=captioned(e, Msg::MatEmbedding) testid="heatmap-embedding" />
                <Show when=move || pe_spec.with(Option::is_some)
                    fallback=move || view! { <p class="stage__note">{lab.text(Msg::PositionalOff)}</p> }>
                    <Heatmap spec=pe_spec caption=captioned(pe_spec, Msg::MatPositional) testid="heatmap-positional" />
                </Show>
            </div>
            <Heatmap spec=x caption=captioned(x, Msg::MatInput) testid="heatmap-x" detail=x_detail />
        </StagePanel>
    }
}
