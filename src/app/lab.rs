//! The saturation lab: a d_k slider (powers of two, 1–1024) and a scaling switch over random
//! unit-variance q and k, with live readouts, the weights, one row, and curves against d_k.

use super::charts::{BarChart, Bars, CurveChart};
use super::heatmap::Heatmap;
use super::specs::{caption, weights};
use super::{formulas, state::use_lab};
use crate::chart::curves::Curve;
use crate::core::lab::{saturation, snap_dk, sweep, DK_STEPS};
use crate::i18n::{fill, Msg};
use leptos::prelude::*;

/// Colours of the two settings in the curves (viridis ends: colour-blind safe).
const SCALED: [u8; 3] = [0x21, 0x91, 0x8c];
const UNSCALED: [u8; 3] = [0x44, 0x01, 0x54];

/// The slider the site is known for.
#[component]
pub fn SaturationLab() -> impl IntoView {
    let lab = use_lab();
    let n = Memo::new(move |_| lab.outcome.with(|o| o.as_ref().map_or(8, |o| o.0.tokens.len())));
    let seed = Memo::new(move |_| lab.settings.with(|s| s.seed));
    let d_k = Memo::new(move |_| lab.settings.with(|s| s.lab_dk));
    let scaled = Memo::new(move |_| lab.settings.with(|s| s.lab_scaled));
    let head = Memo::new(move |_| saturation(n.get(), d_k.get(), scaled.get(), seed.get()));
    // The curves depend on n and the seed only, not on the slider.
    let points = Memo::new(move |_| sweep(n.get(), seed.get()));
    let labels = Memo::new(move |_| (1..=n.get()).map(|i| format!("k{i}")).collect::<Vec<_>>());

    let spec = Memo::new(move |_| {
        let h = head.get();
        let rows: Vec<String> = (1..=n.get()).map(|i| format!("q{i}")).collect();
        let blocked = ndarray::Array2::from_elem(h.weights.dim(), false);
        Some(weights(h.weights, &rows, &labels.get(), &blocked))
    });
    let row = Signal::derive(move || head.with(|h| Bars { weights: h.weights.row(0).to_vec(), labels: labels.get(), blocked: vec![false; h.weights.ncols()] }));
    let curve = move |pick: fn(&crate::core::readouts::Summary) -> f32| {
        Signal::derive(move || {
            let pts = points.get();
            vec![
                Curve { label: lab.t(Msg::SeriesUnscaled).into(), color: UNSCALED, points: pts.iter().map(|p| (p.d_k, pick(&p.unscaled))).collect() },
                Curve { label: lab.t(Msg::SeriesScaled).into(), color: SCALED, points: pts.iter().map(|p| (p.d_k, pick(&p.scaled))).collect() },
            ]
        })
    };
    let max_curves = curve(|s| s.median_max_weight);
    let grad_curves = curve(|s| s.median_jacobian_norm);

    let set_dk = move |v: f64| lab.settings.update(|s| s.lab_dk = snap_dk(v));
    let step = move |up: bool| {
        let i = DK_STEPS.iter().position(|d| *d == d_k.get_untracked()).unwrap_or(0);
        let j = if up { (i + 1).min(DK_STEPS.len() - 1) } else { i.saturating_sub(1) };
        set_dk(DK_STEPS[j] as f64);
    };
    let summary = move || head.with(|h| h.summary);

    view! {
        <section class="lab" data-testid="saturation-lab" aria-labelledby="lab-title">
            <h2 id="lab-title" class="lab__title">{move || lab.t(Msg::LabTitle)}</h2>
            <div class="stage__formula" inner_html=formulas::VARIANCE></div>
            <p class="lab__explain">{move || lab.t(Msg::LabExplain)}</p>
            <div class="lab__controls">
                <label class="field__label" for="dk-slider">
                    {move || lab.t(Msg::LabDk)} " = " <strong data-testid="dk-value">{move || d_k.get()}</strong>
                </label>
                <input id="dk-slider" type="range" min="1" max="1024" step="1" list="dk-ticks" data-testid="dk-slider"
                    prop:value=move || d_k.get().to_string()
                    on:input=move |ev| { if let Ok(v) = event_target_value(&ev).parse::<f64>() { set_dk(v) } }
                    on:keydown=move |ev: web_sys::KeyboardEvent| {
                        let up = match ev.key().as_str() {
                            "ArrowRight" | "ArrowUp" | "PageUp" => true,
                            "ArrowLeft" | "ArrowDown" | "PageDown" => false,
                            _ => return,
                        };
                        ev.prevent_default();
                        step(up);
                    } />
                <datalist id="dk-ticks">
                    {DK_STEPS.map(|d| view! { <option value=d.to_string()></option> })}
                </datalist>
                <label class="switch">
                    <input type="checkbox" data-testid="scale-toggle" prop:checked=scaled
                        on:change=move |ev| lab.settings.update(|s| s.lab_scaled = event_target_checked(&ev)) />
                    {move || lab.t(Msg::LabScaleToggle)}
                </label>
            </div>
            <dl class="readouts" aria-live="polite">
                <div class="readouts__item">
                    <dt>{move || fill(lab.t(Msg::ReadoutStd), &[("sqrt", &format!("{:.1}", (d_k.get() as f32).sqrt()))])}</dt>
                    <dd data-testid="readout-score-std">{move || format!("{:.2}", summary().score_std)}</dd>
                </div>
                <div class="readouts__item">
                    <dt>{move || lab.t(Msg::ReadoutMaxWeight)}</dt>
                    <dd data-testid="readout-max-weight">{move || format!("{:.3}", summary().median_max_weight)}</dd>
                </div>
                <div class="readouts__item">
                    <dt>{move || fill(lab.t(Msg::ReadoutEntropy), &[("logn", &format!("{:.3}", summary().log_n))])}</dt>
                    <dd data-testid="readout-entropy">{move || format!("{:.3}", summary().entropy)}</dd>
                </div>
                <div class="readouts__item">
                    <dt>{move || lab.t(Msg::ReadoutGrad)}</dt>
                    <dd data-testid="readout-grad">{move || format!("{:.4}", summary().median_jacobian_norm)}</dd>
                </div>
            </dl>
            <div class="stage__grid">
                <Heatmap spec=spec caption=Signal::derive(move || spec.with(|s| s.as_ref().map(|s| caption(lab.t(Msg::MatWeights), s.values.dim())).unwrap_or_default())) testid="lab-weights" />
                <BarChart bars=row caption=Signal::derive(move || lab.t(Msg::LabRow).to_string()) testid="lab-row" />
            </div>
            <div class="stage__grid">
                <CurveChart curves=max_curves y_range=(0.0, 1.0) marker=d_k caption=Signal::derive(move || lab.t(Msg::ChartMaxWeight).to_string()) testid="lab-curve-max" />
                <CurveChart curves=grad_curves y_range=(0.0, 0.5) marker=d_k caption=Signal::derive(move || lab.t(Msg::ChartGrad).to_string()) testid="lab-curve-grad" />
            </div>
        </section>
    }
}
