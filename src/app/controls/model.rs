//! d_model, the number of heads (only divisors of d_model are offered) and the seed.

use super::Hint;
use crate::app::page::use_page;
use crate::core::rng::SplitMix64;
use crate::i18n::{fill, Msg};
use crate::settings::{D_MODEL_CHOICES, MAX_SEED};
use leptos::prelude::*;

/// Model width, heads and seed.
#[component]
pub fn ModelControls() -> impl IntoView {
    let page = use_page();
    let d_model = page.pick(|s| s.choice().random().d_model);
    let heads = page.pick(|s| s.choice().random().n_heads);
    let seed = page.pick(|s| s.choice().random().seed);
    let (seed_error, set_seed_error) = signal(false);

    let set_d_model = move |ev| {
        if let Ok(d) = event_target_value(&ev).parse::<usize>() {
            page.apply(|s, c| s.change_choice(c, |m| m.set_d_model(d)));
        }
    };
    let set_heads = move |ev| {
        if let Ok(h) = event_target_value(&ev).parse::<usize>() {
            page.apply(|s, c| s.change_choice(c, |m| m.set_n_heads(h)));
        }
    };
    let set_seed = move |ev| {
        let accepted = event_target_value(&ev)
            .trim()
            .parse::<u64>()
            .is_ok_and(|x| page.apply(|s, c| s.change_choice(c, |m| m.set_seed(x))));
        set_seed_error.set(!accepted);
    };
    let new_seed = move |_| {
        set_seed_error.set(false);
        page.apply(|s, c| {
            let next = SplitMix64::new(s.choice().random().seed).next_u64() % (MAX_SEED + 1);
            s.change_choice(c, |m| m.set_seed(next))
        });
    };

    view! {
        <div class="field field--row">
            <label class="field__label" for="d-model">{page.text(Msg::DModel)}</label>
            <select id="d-model" data-testid="d-model" prop:value=move || d_model.get().to_string() on:change=set_d_model>
                {D_MODEL_CHOICES.map(|d| view! { <option value=d.to_string()>{d}</option> })}
            </select>
        </div>
        <Hint msg=Msg::HintDModel />
        <div class="field field--row">
            <label class="field__label" for="heads">{page.text(Msg::Heads)}</label>
            <select id="heads" data-testid="heads" prop:value=move || heads.get().to_string() on:change=set_heads>
                {move || {
                    d_model.track();
                    let offered: Vec<usize> = page.settings.with_untracked(|s| s.choice().heads_offered().collect());
                    offered.into_iter().map(|h| view! { <option value=h.to_string() selected=h == heads.get_untracked()>{h}</option> }).collect_view()
                }}
            </select>
        </div>
        <Hint msg=Msg::HintHeads />
        <div class="field">
            <label class="field__label" for="seed">{page.text(Msg::Seed)}</label>
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
                    {page.text(Msg::NewSeed)}
                </button>
            </div>
            <p class="field__error" id="seed-error" role="alert" data-testid="seed-error">
                {move || seed_error.get().then(|| fill(page.t(Msg::ErrSeed), &[("max", &MAX_SEED.to_string())]))}
            </p>
        </div>
        <Hint msg=Msg::HintSeed />
    }
}
