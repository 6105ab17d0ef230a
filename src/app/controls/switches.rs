//! Positional encoding, mask, self/cross, scaling and temperature.

use super::toggle::Toggle;
use super::Hint;
use crate::app::page::use_page;
use crate::core::attention::Mask;
use crate::core::model::InputRule;
use crate::core::variants::Variant;
use crate::i18n::Msg;
use crate::number::parse_decimal;
use crate::settings::{format_temperature, TEMPERATURE_RANGE};
use leptos::prelude::*;

/// The switches that change how attention is computed.
#[component]
pub fn Switches() -> impl IntoView {
    let page = use_page();
    let mask = Memo::new(move |_| page.model.with(|m| page.settings.with(|s| s.effective_mask(&*m.0))));
    let mask_applies = Memo::new(move |_| page.model.with(|m| page.settings.with(|s| s.mask_applies(&*m.0))));
    let cross = page.pick(|s| s.lesson().cross());
    let temperature = page.pick(|s| s.lesson().temperature());
    // What the model offers: a positional encoding to switch, a second sentence.
    let sinusoidal = Memo::new(move |_| page.model.with(|m| matches!(m.0.shape().input, InputRule::Sinusoidal { .. })));
    let takes_two = Memo::new(move |_| page.model.with(|m| m.0.shape().cross));
    // The slider moves in log₁₀ T, so 0.05–1 gets as much room as 1–20.
    let (lo, hi) = (TEMPERATURE_RANGE.0.log10(), TEMPERATURE_RANGE.1.log10());

    view! {
        <Show when=move || sinusoidal.get()>
            <Toggle testid="pe-toggle" label=Msg::Positional get=|s| s.choice().random().positional
                set=|s, v, c| { s.change_choice(c, |m| m.set_positional(v)); } />
            <Hint msg=Msg::HintPositional />
        </Show>
        <Toggle testid="scaling-toggle" label=Msg::Scaling get=|s| s.lesson().scaled() set=|s, v, _| s.lesson_mut().set_scaled(v) />
        <Hint msg=Msg::HintScaling />
        <div class="field field--row">
            <label class="field__label" for="mask">{page.text(Msg::Mask)}</label>
            <select id="mask" data-testid="mask-select" prop:value=move || mask.get().slug()
                disabled=move || !mask_applies.get() aria-describedby="mask-note"
                on:change=move |ev| { if let Some(m) = Mask::from_slug(&event_target_value(&ev)) { page.settings.update(|s| s.lesson_mut().set_mask(m)) } }>
                <option value=Mask::None.slug()>{page.text(Msg::MaskNone)}</option>
                <option value=Mask::Causal.slug()>{page.text(Msg::MaskCausal)}</option>
            </select>
        </div>
        <Hint msg=Msg::HintMask />
        <Show when=move || !mask_applies.get()>
            <p class="field__hint" id="mask-note" data-testid="mask-note">{page.text(Msg::MaskNotInCross)}</p>
        </Show>
        <Show when=move || takes_two.get()>
            <div class="field field--row">
                <label class="field__label" for="kind">{page.text(Msg::Kind)}</label>
                <select id="kind" data-testid="kind-select" prop:value=move || if cross.get() { Variant::Cross.slug() } else { Variant::SelfAttention.slug() }
                    on:change=move |ev| page.settings.update(|s| s.lesson_mut().set_cross(event_target_value(&ev) == Variant::Cross.slug()))>
                    <option value=Variant::SelfAttention.slug()>{page.text(Msg::KindSelf)}</option>
                    <option value=Variant::Cross.slug()>{page.text(Msg::KindCross)}</option>
                </select>
            </div>
            <Hint msg=Msg::HintKind />
        </Show>
        <div class="field">
            <label class="field__label" for="temperature">
                {page.text(Msg::Temperature)} " = " <span data-testid="temperature-value">{move || format_temperature(temperature.get())}</span>
            </label>
            <input id="temperature" type="range" data-testid="temperature-slider"
                min=lo.to_string() max=hi.to_string() step="0.01"
                prop:value=move || temperature.get().log10().to_string()
                on:input=move |ev| {
                    if let Some(x) = parse_decimal(&event_target_value(&ev)) {
                        let t = 10f64.powf(x.clamp(f64::from(lo), f64::from(hi)));
                        page.apply(|s, _| s.lesson_mut().set_temperature(t));
                    }
                } />
        </div>
        <Hint msg=Msg::HintTemperature />
    }
}
