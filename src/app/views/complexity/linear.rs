//! Linear attention next to softmax attention for the same Q and K of the chosen head: the
//! weights each implies, and a check that the O(n) way gives the direct way's output.

use crate::app::heatmap::Heatmap;
use crate::app::specs::{caption, weights};
use crate::app::state::use_lab;
use crate::core::linear::{linear_attention, linear_weights};
use crate::core::scenario::Outcome;
use crate::i18n::{Msg, ViewMsg};
use leptos::prelude::*;

/// Softmax weights, linear-attention weights, and the agreement check.
#[component]
pub fn LinearPanel() -> impl IntoView {
    let lab = use_lab();
    let head = lab.pick(|s| s.head);
    let causal = lab.pick(|s| s.causal);
    let with_head = move |f: fn(&Outcome, usize, bool) -> _| {
        Memo::new(move |_| lab.outcome.with(|o| o.as_ref().map(|o| f(&o.0, head.get().min(o.0.trace.heads.len() - 1), causal.get()))))
    };
    let soft = with_head(|o, h, _| weights(o.trace.heads[h].weights.clone(), &o.tokens, &o.kv_tokens, &o.trace.blocked));
    let lin = with_head(|o, h, causal| {
        let ht = &o.trace.heads[h];
        weights(linear_weights(ht.q.view(), ht.k.view(), causal), &o.tokens, &o.kv_tokens, &o.trace.blocked)
    });
    let error = Memo::new(move |_| {
        lab.outcome.with(|o| {
            o.as_ref().map(|o| {
                let ht = &o.0.trace.heads[head.get().min(o.0.trace.heads.len() - 1)];
                let fast = linear_attention(ht.q.view(), ht.k.view(), ht.v.view(), causal.get());
                let direct = linear_weights(ht.q.view(), ht.k.view(), causal.get()).dot(&ht.v);
                fast.iter().zip(&direct).map(|(a, b)| (a - b).abs()).fold(0.0f32, f32::max)
            })
        })
    });
    let soft_name = lab.text(Msg::MatWeights);
    let lin_name = lab.text(ViewMsg::LinearWeights);
    view! {
        <div class="panel-block" data-testid="linear-panel">
            <h3 class="view__subtitle">{lab.text(ViewMsg::LinearTitle)}</h3>
            <p class="view__text">{lab.text(ViewMsg::LinearText)}</p>
            <dl class="readouts">
                <div class="readouts__item">
                    <dt>{lab.text(ViewMsg::LinearError)}</dt>
                    <dd data-testid="linear-max-error">{move || error.get().map_or_else(|| "—".into(), |e| format!("{e:.1e}"))}</dd>
                </div>
            </dl>
            <div class="stage__grid">
                <Heatmap spec=soft caption=Signal::derive(move || caption(soft_name(), soft.with(|s| s.as_ref().map_or((0, 0), |s| s.values.dim())))) testid="heatmap-softmax-compare" />
                <Heatmap spec=lin caption=Signal::derive(move || caption(lin_name(), lin.with(|s| s.as_ref().map_or((0, 0), |s| s.values.dim())))) testid="heatmap-linear" />
            </div>
        </div>
    }
}
