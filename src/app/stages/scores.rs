//! Stage 2: the raw scores S = Q_h K_hᵀ of one head, each cell explained as a dot product.

use super::{captioned, from_head, HeadPicker, StagePanel};
use crate::app::heatmap::Heatmap;
use crate::app::specs::{score_text, signed};
use crate::app::{formulas, state::use_lab};
use crate::i18n::Msg;
use crate::settings::Stage;
use leptos::prelude::*;

/// The n_q × n_kv score matrix of the chosen head.
#[component]
pub fn ScoresStage() -> impl IntoView {
    let lab = use_lab();
    let head = lab.pick(|s| s.head);
    let s = from_head(|o, h, _| signed(h.scores.clone(), &o.tokens, o.kv_tokens.clone()));
    let detail = Callback::new(move |(r, c): (usize, usize)| {
        lab.outcome.with(|o| {
            let Some(o) = o else { return String::new() };
            let o = &o.0;
            let h = &o.trace.heads[head.get_untracked().min(o.trace.heads.len() - 1)];
            score_text(lab.lang.get_untracked(), h.q.row(r), h.k.row(c), &o.tokens[r], &o.kv_tokens[c], h.scores[[r, c]])
        })
    });
    view! {
        <StagePanel stage=Stage::Scores formula=formulas::SCORES explain=Msg::ExplainScores notice=Msg::NoticeScores>
            <HeadPicker />
            <Heatmap spec=s caption=captioned(s, Msg::MatScores) testid="heatmap-scores" detail=detail />
        </StagePanel>
    }
}
