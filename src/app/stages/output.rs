//! Stage 5: O = A · V for one head; each output cell explained by the value rows that made it.

use super::{captioned, from_head, HeadPicker, StagePanel};
use crate::app::heatmap::Heatmap;
use crate::app::specs::{indices, output_text, signed};
use crate::app::{formulas, state::use_lab};
use crate::i18n::Msg;
use crate::settings::Stage;
use leptos::prelude::*;

/// V_h and O_h of the chosen head.
#[component]
pub fn OutputStage() -> impl IntoView {
    let lab = use_lab();
    let head = lab.pick(|s| s.head);
    let v = from_head(|o, h, _| signed(h.v.clone(), &o.kv_tokens, indices(h.v.ncols())));
    let out = from_head(|o, h, _| signed(h.output.clone(), &o.tokens, indices(h.output.ncols())));
    let detail = Callback::new(move |(r, c): (usize, usize)| {
        lab.outcome.with(|o| {
            let Some(o) = o else { return String::new() };
            let o = &o.0;
            let h = &o.trace.heads[head.get_untracked().min(o.trace.heads.len() - 1)];
            output_text(lab.lang.get_untracked(), h.weights.row(r), h.v.column(c), &o.kv_tokens, &o.tokens[r], c, h.output[[r, c]])
        })
    });
    view! {
        <StagePanel stage=Stage::Output formula=formulas::OUTPUT explain=Msg::ExplainOutput notice=Msg::NoticeOutput>
            <HeadPicker />
            <div class="stage__grid">
                <Heatmap spec=v caption=captioned(v, Msg::MatValues) testid="heatmap-values" />
                <Heatmap spec=out caption=captioned(out, Msg::MatHeadOutput) testid="heatmap-output" detail=detail />
            </div>
        </StagePanel>
    }
}
