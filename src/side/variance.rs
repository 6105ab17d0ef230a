//! Why √d_k: sample pairs of unit-variance vectors, histogram q·k before and after ÷√d_k, and
//! the empirical variance against d_k on the line Var = d_k, with the derivation beside it.
//! The numbers come from `core::variance`; this view only lays them out.

use crate::chart::xy::{draw_histogram, draw_log_log, LogLog};
use crate::core::saturation::DK_STEPS;
use crate::core::variance::{experiment, variance_curve, Histogram};
use crate::figures::CanvasChart;
use crate::i18n::{fill, Formula, ViewMsg};
use crate::number::parse_decimal;
use crate::settings::SAMPLE_CHOICES;
use crate::ui::use_lesson_state;
use leptos::prelude::*;
use web_sys::HtmlCanvasElement;

/// The variance experiment.
#[component]
pub fn VarianceView() -> impl IntoView {
    let page = use_lesson_state();
    let d_k = page.pick(|s| s.variance().dk());
    let samples = page.pick(|s| s.variance().samples());
    let seed = page.pick(|s| s.choice().random().seed);
    let run = Memo::new(move |_| experiment(d_k.get(), samples.get(), seed.get()));
    // The curve over every d_k depends on the sample count and seed, not on the slider.
    let curve = Memo::new(move |_| variance_curve(&DK_STEPS, samples.get(), seed.get()));

    let histogram = move |pick: fn(&crate::core::variance::Experiment) -> &Histogram, series: usize| {
        Callback::new(move |(c, w): (HtmlCanvasElement, f64)| {
            let ink = page.ink.get();
            run.with(|r| {
                let h = pick(r);
                draw_histogram(&c, &h.counts, h.range, &h.density, w, ink, ink.series[series])
            })
        })
    };
    let raw = histogram(|r| &r.raw, 0);
    let scaled = histogram(|r| &r.scaled, 1);
    let against_dk = Callback::new(move |(c, w): (HtmlCanvasElement, f64)| {
        let ink = page.ink.get();
        let points: Vec<(f64, f64)> = curve.with(|pts| pts.iter().map(|(d, v)| (*d as f64, *v)).collect());
        let chart = LogLog {
            lines: &[],
            dots: Some((ink.series[1], &points)),
            diagonal: true,
            x_exp: (0.0, 10.0),
            y_exp: Some((-1.0, 11.0)),
            marker: d_k.get() as f64,
        };
        draw_log_log(&c, &chart, w, ink)
    });
    let caption = move |m: ViewMsg| Signal::derive(move || fill(page.t(m), &[("n", &samples.get().to_string())]));

    view! {
        <>
            <p class="view__text">{page.text(ViewMsg::VarIntro)}</p>
            <div class="view__controls">
                <label class="field__label" for="var-dk">{page.text(ViewMsg::VarDk)} " = " <strong>{move || d_k.get()}</strong></label>
                <input id="var-dk" type="range" min="0" max="10" step="1" data-testid="variance-dk"
                    prop:value=move || d_k.get().trailing_zeros().to_string()
                    on:input=move |ev| { if let Some(e) = parse_decimal(&event_target_value(&ev)) { page.apply(|s, _| s.variance_mut().set_dk(2f64.powf(e))); } } />
                <label class="field__label" for="var-n">{page.text(ViewMsg::VarSamples)} " = " <strong>{move || samples.get()}</strong></label>
                <input id="var-n" type="range" min="0" max=(SAMPLE_CHOICES.len() - 1).to_string() step="1" data-testid="variance-samples"
                    prop:value=move || SAMPLE_CHOICES.iter().position(|n| *n == samples.get()).unwrap_or(0).to_string()
                    on:input=move |ev| {
                        if let Some(&n) = event_target_value(&ev).parse::<usize>().ok().and_then(|i| SAMPLE_CHOICES.get(i)) {
                            page.apply(|s, _| s.variance_mut().set_samples(n));
                        }
                    } />
            </div>
            <dl class="readouts">
                <div class="readouts__item">
                    <dt>{page.text(ViewMsg::VarReadout)}</dt>
                    <dd data-testid="variance-readout">{move || format!("{:.2}", run.with(|r| r.variance))}</dd>
                    <dd class="readouts__note">{move || fill(page.t(ViewMsg::VarPredicted), &[("dk", &d_k.get().to_string())])}</dd>
                </div>
            </dl>
            <div class="stage__grid">
                <CanvasChart draw=raw caption=caption(ViewMsg::VarHistRaw) testid="variance-hist-raw" />
                <CanvasChart draw=scaled caption=caption(ViewMsg::VarHistScaled) testid="variance-hist-scaled" />
            </div>
            <p class="view__text" data-testid="variance-normal-note">{page.text(ViewMsg::VarNormalApprox)}</p>
            <div class="stage__grid">
                <CanvasChart draw=against_dk caption=caption(ViewMsg::VarCurve) testid="variance-curve" />
                <div class="derivation">
                    <h3 class="derivation__title">{page.text(ViewMsg::VarDerivation)}</h3>
                    <ol class="derivation__steps">
                        <li><div class="derivation__formula" tabindex="0" inner_html=Formula::VarStep1.mathml()></div><p>{page.text(ViewMsg::VarStep1)}</p></li>
                        <li><div class="derivation__formula" tabindex="0" inner_html=Formula::VarStep2.mathml()></div><p>{page.text(ViewMsg::VarStep2)}</p></li>
                        <li><div class="derivation__formula" tabindex="0" inner_html=Formula::VarStep3.mathml()></div><p>{page.text(ViewMsg::VarStep3)}</p></li>
                        <li><div class="derivation__formula" tabindex="0" inner_html=Formula::VarStep4.mathml()></div><p>{page.text(ViewMsg::VarStep4)}</p></li>
                    </ol>
                </div>
            </div>
            <p class="stage__notice">{page.text(ViewMsg::VarWhy)}</p>
        </>
    }
}
