//! The tokens of the sentence as the options of a select ("3. it"), keyed by position and
//! token, so editing one word replaces one option instead of rebuilding all of them.

use crate::app::page::use_page;
use leptos::prelude::*;

/// One `<option>` per token, its value the token's 0-based index.
#[component]
pub fn TokenOptions(
    /// The index selected when the options are first drawn (the select's value follows it).
    selected: Memo<usize>,
) -> impl IntoView {
    let page = use_page();
    view! {
        <For each=move || page.tokens.get().into_iter().enumerate() key=|(i, t)| (*i, t.clone()) let((i, t))>
            <option value=i.to_string() selected=i == selected.get_untracked()>{format!("{}. {t}", i + 1)}</option>
        </For>
    }
}
