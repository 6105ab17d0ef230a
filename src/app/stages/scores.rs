//! Stage 2: the raw scores S = Q_h K_hᵀ of one head, each cell explained as a dot product.

use super::{from_head, head_detail, StagePanel};
use crate::app::page::use_page;
use crate::i18n::Msg;
use crate::settings::Stage;
use crate::ui::charts::PageMap;
use crate::ui::specs::{score_text, scores_on};
use crate::ui::HeadPicker;
use leptos::prelude::*;

/// The n_q × n_kv score matrix of the chosen head.
#[component]
pub fn ScoresStage() -> impl IntoView {
    let page = use_page();
    // The keys a mask hides are grey here already (it enters only at the softmax).
    let s =
        from_head(|o, h, _| scores_on(h.scores.clone(), &h.scores, &o.tokens, o.kv_tokens.clone(), &o.trace().blocked));
    let detail = head_detail(|o, h, lang, (r, c)| {
        Some(score_text(lang, h.q.row(r), h.k.row(c), o.tokens.get(r)?, o.kv_tokens.get(c)?, *h.scores.get((r, c))?))
    });
    view! {
        <StagePanel stage=Stage::Scores>
            <HeadPicker />
            <PageMap spec=s name=page.label(Msg::MatScores) testid="heatmap-scores" detail=detail />
        </StagePanel>
    }
}
