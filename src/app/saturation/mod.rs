//! The saturation lab, a view of its own: a log-scale d_k slider (1, 2, 4 … 1024, opening at
//! the lesson's d_k) and the lesson's own scaling switch over random unit-variance q and k,
//! with live readouts, the weights, one row, and curves against d_k.

mod readouts;

use super::controls::ScalingBadge;
use super::page::use_page;
use crate::chart::curves::Curve;
use crate::core::readouts::{uniform_jacobian_norm, Summary};
use crate::core::saturation::{saturation, sweep, SweepPoint, DK_STEPS, LAB_SEED};
use crate::i18n::{ClassMsg, Formula, Msg};
use crate::stage_texts::saturation_texts;
use crate::ui::charts::{BarChart, Bars, CurveChart, PageMap};
use crate::ui::specs::weights;
use leptos::prelude::*;
use readouts::Readouts;

/// The slider the site is known for.
#[component]
pub fn SaturationLab() -> impl IntoView {
    let page = use_page();
    let n = Memo::new(move |_| page.outcome.with(|o| o.as_ref().map_or(8, |o| o.0.tokens.len())));
    // The learner's d_k, else the lesson's own head width.
    let chosen = page.pick(|s| *s.lab());
    let d_k = Memo::new(move |_| chosen.get().dk_or(page.model.with(|m| m.0.shape().d_k())));
    let scaled = page.pick(|s| s.lesson().scaled());
    let head = Memo::new(move |_| saturation(n.get(), d_k.get(), scaled.get(), LAB_SEED).ok());
    // The curves depend on n only, not on the slider.
    let points = Memo::new(move |_| sweep(n.get(), LAB_SEED).unwrap_or_default());
    let keys = Memo::new(move |_| (1..=n.get()).map(|i| format!("k{i}")).collect::<Vec<_>>());

    let spec = Memo::new(move |_| {
        let queries: Vec<String> = (1..=n.get()).map(|i| format!("q{i}")).collect();
        head.with(|h| {
            h.as_ref().map(|h| {
                weights(
                    h.head.weights.clone(),
                    &queries,
                    &keys.get(),
                    &ndarray::Array2::from_elem(h.head.weights.dim(), false),
                )
            })
        })
    });
    let row = Signal::derive(move || {
        let weights = head.with(|h| h.as_ref().map(|h| h.head.weights.row(0).to_vec()).unwrap_or_default());
        Bars { blocked: vec![false; weights.len()], weights, labels: keys.get() }
    });
    let summary = Signal::derive(move || head.with(|h| h.as_ref().map(|h| h.summary)));
    let std_curves = curves(points, |s| s.score_std);
    let max_curves = curves(points, |s| s.median_max_weight);
    let entropy_curves = curves(points, |s| if s.log_n > 0.0 { s.entropy / s.log_n } else { 0.0 });
    // The two gradient curves, made once, and the uniform row's value as a dashed reference.
    let grad_pair = curves(points, |s| s.median_jacobian_norm);
    let grad_curves = Signal::derive(move || {
        let mut lines = grad_pair.get();
        let uniform = uniform_jacobian_norm(n.get());
        let ink = page.ink.get();
        lines.push(Curve { color: ink.text, points: DK_STEPS.iter().map(|d| (*d, uniform)).collect(), dashed: true });
        lines
    });

    // The slider moves along the steps of d_k (powers of two): 1–64 is half the track.
    let set_step = move |ev| {
        let step = event_target_value(&ev).parse::<usize>().ok().and_then(|i| DK_STEPS.get(i).copied());
        if let Some(d) = step {
            page.apply(|s, _| s.lab_mut().set_dk(d as f64));
        }
    };
    let step_of = move || DK_STEPS.iter().position(|d| *d == d_k.get()).unwrap_or_default();

    view! {
        <section class="lab" data-testid="saturation-lab" aria-labelledby="lab-title">
            <div class="lab__text">
            <h2 id="lab-title" class="lab__title">{page.text(Msg::SaturationTitle)}</h2>
            <div class="stage__formula" tabindex="0" role="region" aria-label=page.text(ClassMsg::Formula) inner_html=Formula::Variance.mathml()></div>
            <div class="lab__explain" data-testid="lab-explain">
                {move || points.with(|p| saturation_texts(n.get(), p, page.lang.get())).into_iter().map(|l| view! { <p>{l}</p> }).collect_view()}
            </div>
            <div class="lab__controls">
                <label class="field__label" for="lab-dk">
                    {page.text(Msg::SaturationDk)} " = " <strong data-testid="dk-value">{move || d_k.get()}</strong>
                </label>
                <ScalingBadge />
                <div class="lab__slider">
                    <input id="lab-dk" type="range" min="0" max=DK_STEPS.len() - 1 step="1" data-testid="lab-dk"
                        prop:value=move || step_of().to_string()
                        aria-valuetext=move || format!("d_k = {}", d_k.get())
                        on:input=set_step />
                    <div class="lab__ticks" aria-hidden="true">
                        {DK_STEPS.map(|d| view! { <span>{if d >= 1024 { "1K".to_string() } else { d.to_string() }}</span> })}
                    </div>
                </div>
            </div>
            <Readouts summary=summary d_k=d_k.into() />
            </div>
            // On a projector the figures stand beside the text and the slider.
            <div class="lab__figures">
            <div class="stage__grid">
                <PageMap spec=spec name=page.label(Msg::MatWeights) testid="lab-weights" />
                <BarChart bars=row caption=page.label(Msg::SaturationRow) testid="lab-row" />
            </div>
            <Legend />
            <div class="stage__grid">
                <CurveChart curves=std_curves y_range=(0.0, 36.0) marker=d_k caption=page.label(Msg::ChartStd) testid="lab-curve-std" />
                <CurveChart curves=max_curves y_range=(0.0, 1.0) marker=d_k caption=page.label(Msg::ChartMaxWeight) testid="lab-curve-max" />
                <CurveChart curves=entropy_curves y_range=(0.0, 1.0) marker=d_k caption=page.label(Msg::ChartEntropy) testid="lab-curve-entropy" />
                <CurveChart curves=grad_curves y_range=(0.0, 0.5) marker=d_k caption=page.label(Msg::ChartGrad) testid="lab-curve-grad" />
            </div>
            </div>
        </section>
    }
}

/// The key to the curves: the two series and the current-d_k marker.
#[component]
fn Legend() -> impl IntoView {
    let page = use_page();
    view! {
        <p class="legend" aria-hidden="true">
            <span class="legend__item"><span class="legend__swatch legend__swatch--series-1"></span>{page.text(Msg::SeriesUnscaled)}</span>
            <span class="legend__item"><span class="legend__swatch legend__swatch--series-2"></span>{page.text(Msg::SeriesScaled)}</span>
            <span class="legend__item"><span class="legend__swatch legend__swatch--marker"></span>{page.text(Msg::SeriesCurrent)}</span>
        </p>
    }
}

/// One readout against d_k, with and without scaling.
fn curves(points: Memo<Vec<SweepPoint>>, pick: fn(&Summary) -> f32) -> Signal<Vec<Curve>> {
    let page = use_page();
    Signal::derive(move || {
        let ink = page.ink.get();
        points.with(|pts| {
            let line = |color, of: fn(&SweepPoint) -> &Summary| Curve {
                color,
                points: pts.iter().map(|p| (p.d_k, pick(of(p)))).collect(),
                dashed: false,
            };
            vec![line(ink.series[0], |p| &p.unscaled), line(ink.series[1], |p| &p.scaled)]
        })
    })
}
