//! The lab's four live numbers, each as plain text in its own element (announced politely
//! to screen readers as they change). "—" if the experiment could not compute.

use crate::app::page::use_page;
use crate::core::readouts::Summary;
use crate::i18n::{fill, Msg};
use leptos::prelude::*;

/// Score std, typical top weight, mean entropy and gradient survival.
#[component]
pub fn Readouts(
    /// The experiment head's summary, if it computed.
    summary: Signal<Option<Summary>>,
    /// The current d_k (for the √d_k reference in the label).
    d_k: Signal<usize>,
) -> impl IntoView {
    let page = use_page();
    let show = move |digits: usize, pick: fn(&Summary) -> f32| {
        move || summary.get().map_or_else(|| "—".to_string(), |s| format!("{:.*}", digits, pick(&s)))
    };
    let log_n = move || summary.get().map_or_else(|| "—".to_string(), |s| format!("{:.3}", s.log_n));
    view! {
        <dl class="readouts" aria-live="polite">
            <div class="readouts__item">
                <dt>{move || fill(page.t(Msg::ReadoutStd), &[("sqrt", &format!("{:.1}", (d_k.get() as f32).sqrt()))])}</dt>
                <dd data-testid="readout-score-std">{show(2, |s| s.score_std)}</dd>
            </div>
            <div class="readouts__item">
                <dt>{page.text(Msg::ReadoutMaxWeight)}</dt>
                <dd data-testid="readout-max-weight">{show(3, |s| s.median_max_weight)}</dd>
            </div>
            <div class="readouts__item">
                <dt>{move || fill(page.t(Msg::ReadoutEntropy), &[("logn", &log_n())])}</dt>
                <dd data-testid="readout-entropy">{show(3, |s| s.entropy)}</dd>
            </div>
            <div class="readouts__item">
                <dt>{page.text(Msg::ReadoutGrad)}</dt>
                <dd data-testid="readout-grad">{show(4, |s| s.median_jacobian_norm)}</dd>
            </div>
        </dl>
    }
}
