//! Stage 5: O = A · V for one head; each output cell explained by the value rows that made it.

use super::{from_head, head_detail, StagePanel};
use crate::app::page::use_page;
use crate::i18n::Msg;
use crate::settings::Stage;
use crate::ui::charts::PageMap;
use crate::ui::specs::{indices, output_text, signed};
use crate::ui::HeadPicker;
use leptos::prelude::*;

/// V_h and O_h of the chosen head.
#[component]
pub fn OutputStage() -> impl IntoView {
    let page = use_page();
    let v = from_head(|o, h, _| signed(h.v.clone(), &o.kv_tokens, indices(h.v.ncols())));
    let out = from_head(|o, h, _| signed(h.output.clone(), &o.tokens, indices(h.output.ncols())));
    let detail = head_detail(|o, h, lang, (r, c)| {
        Some(output_text(
            lang,
            h.weights.row(r),
            h.v.column(c),
            &o.kv_tokens,
            o.tokens.get(r)?,
            c,
            *h.output.get((r, c))?,
        ))
    });
    view! {
        <StagePanel stage=Stage::Output>
            <HeadPicker />
            <div class="stage__grid">
                <PageMap spec=v name=page.label(Msg::MatValues) testid="heatmap-values" />
                <PageMap spec=out name=page.label(Msg::MatHeadOutput) testid="heatmap-output" detail=detail />
            </div>
        </StagePanel>
    }
}
