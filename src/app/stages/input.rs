//! Stage 0: the input X = embedding + positional encoding.

use super::{from_outcome, StagePanel};
use crate::app::charts::Heatmap;
use crate::app::specs::{indices, num, signed};
use crate::app::{formulas, page::use_page};
use crate::i18n::Msg;
use crate::settings::Stage;
use leptos::prelude::*;

/// E, PE and X for the query sentence.
#[component]
pub fn InputStage() -> impl IntoView {
    let page = use_page();
    let e = from_outcome(|o, _| signed(o.embedding.clone(), &o.tokens, indices(o.trace.d_model())));
    let pe =
        from_outcome(|o, _| o.positional.as_ref().map(|pe| signed(pe.clone(), &o.tokens, indices(o.trace.d_model()))));
    let pe_spec = Memo::new(move |_| pe.get().flatten());
    let x = from_outcome(|o, _| signed(o.trace.x.clone(), &o.tokens, indices(o.trace.d_model())));
    let x_detail = Callback::new(move |(r, c): (usize, usize)| {
        page.outcome
            .with(|o| {
                let o = &o.as_ref()?.0;
                let e = *o.embedding.get((r, c))?;
                let pe = o.positional.as_ref().and_then(|p| p.get((r, c)).copied()).unwrap_or(0.0);
                Some(format!(
                    "X[{}, {c}] = E + PE = {} + {} = {}",
                    o.tokens.get(r)?,
                    num(e),
                    num(pe),
                    num(*o.trace.x.get((r, c))?)
                ))
            })
            .unwrap_or_default()
    });
    view! {
        <StagePanel stage=Stage::Input formula=formulas::INPUT explain=Msg::ExplainInput notice=Msg::NoticeInput>
            <div class="stage__stack">
                <Heatmap spec=e name=page.label(Msg::MatEmbedding) testid="heatmap-embedding" />
                <Show when=move || pe_spec.with(Option::is_some)
                    fallback=move || view! { <p class="stage__note">{page.text(Msg::PositionalOff)}</p> }>
                    <Heatmap spec=pe_spec name=page.label(Msg::MatPositional) testid="heatmap-positional" />
                </Show>
            </div>
            <Heatmap spec=x name=page.label(Msg::MatInput) testid="heatmap-x" detail=x_detail />
        </StagePanel>
    }
}
