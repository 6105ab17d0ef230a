//! d_model, the number of heads (only divisors of d_model are offered) and the seed.

use crate::app::state::use_lab;
use crate::core::rng::SplitMix64;
use crate::i18n::{fill, Msg};
use crate::settings::{fit_heads, heads_allowed, D_MODEL_CHOICES, HEAD_CHOICES, MAX_SEED};
use leptos::prelude::*;

/// Model width, heads and seed.
#[component]
pub fn ModelControls() -> impl IntoView {
    let lab = use_lab();
    let d_model = lab.pick(|s| s.d_model);
    let heads = lab.pick(|s| s.heads);
    let seed = lab.pick(|s| s.seed);
    let (seed_error, set_seed_error) = signal(false);

    let set_d_model = move |ev| {
        if let Ok(d) = event_target_value(&ev).parse::<usize>() {
            if D_MODEL_CHOICES.contains(&d) {
                lab.settings.update(|s| {
                    s.d_model = d;
                    s.heads = fit_heads(d, s.heads);
                    s.head = s.head.min(s.heads - 1);
                });
            }
        }
    };
    let set_heads = move |ev| {
        if let Ok(h) = event_target_value(&ev).parse::<usize>() {
            if heads_allowed(d_model.get_untracked(), h) {
                lab.settings.update(|s| {
                    s.heads = h;
                    s.head = s.head.min(h - 1);
                });
            }
        }
    };
    let set_seed = move |ev| match event_target_value(&ev).trim().parse::<u64>() {
        Ok(x) if x <= MAX_SEED => {
            set_seed_error.set(false);
            lab.settings.update(|s| s.seed = x);
        }
        _ => set_seed_error.set(true),
    };
    let new_seed = move |_| {
        set_seed_error.set(false);
        lab.settings.update(|s| s.seed = SplitMix64::new(s.seed).next_u64() % (MAX_SEED + 1));
    };

    view! {
        <div class="field field--row">
            <label class="field__label" for="d-model">{lab.text(Msg::DModel)}</label>
            <select id="d-model" data-testid="d-model" prop:value=move || d_model.get().to_string() on:change=set_d_model>
                {D_MODEL_CHOICES.map(|d| view! { <option value=d.to_string()>{d}</option> })}
            </select>
        </div>
        <div class="field field--row">
            <label class="field__label" for="heads">{lab.text(Msg::Heads)}</label>
            <select id="heads" data-testid="heads" prop:value=move || heads.get().to_string() on:change=set_heads>
                {move || {
                    let d = d_model.get();
                    HEAD_CHOICES
                        .into_iter()
                        .filter(|h| heads_allowed(d, *h))
                        .map(|h| view! { <option value=h.to_string() selected=h == heads.get_untracked()>{h}</option> })
                        .collect_view()
                }}
            </select>
        </div>
        <div class="field">
            <label class="field__label" for="seed">{lab.text(Msg::Seed)}</label>
            <div class="field__inline">
                <input
                    id="seed"
                    type="number"
                    min="0"
                    max=MAX_SEED.to_string()
                    data-testid="seed-input"
                    prop:value=move || seed.get().to_string()
                    aria-invalid=move || seed_error.get().to_string()
                    aria-describedby="seed-error"
                    on:input=set_seed
                />
                <button type="button" class="button" data-testid="new-seed" on:click=new_seed>
                    {lab.text(Msg::NewSeed)}
                </button>
            </div>
            <p class="field__error" id="seed-error" role="alert" data-testid="seed-error">
                {move || seed_error.get().then(|| fill(lab.t(Msg::ErrSeed), &[("max", &MAX_SEED.to_string())]))}
            </p>
        </div>
    }
}
