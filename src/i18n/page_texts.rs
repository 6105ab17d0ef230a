//! The catalogues' texts as the published page carries them: a JSON script element
//! `{"Name.Variant": ["English", "中文"], …}` written by the build (scripts/texts.py), read once
//! and kept for the life of the page. Keeps about 23 KB (gzip) of prose out of the .wasm.

use std::collections::HashMap;
use wasm_bindgen::JsCast;

/// The id of the script element holding the texts.
const ELEMENT_ID: &str = "attention-lab-texts";

thread_local! {
    static TEXTS: HashMap<&'static str, (&'static str, &'static str)> = read();
}

/// The English and Chinese text of the message called `key` ("Name.Variant"). A message the
/// page does not hold (a build that skipped the post-build step) shows its name and logs an
/// error, which the end-to-end tests fail on.
pub fn pair(key: &'static str) -> (&'static str, &'static str) {
    TEXTS.with(|texts| texts.get(key).copied()).unwrap_or_else(|| {
        leptos::logging::error!("Attention Lab: the page holds no text for {key}");
        (key, key)
    })
}

/// Every text of the page's script element; the strings live as long as the page.
fn read() -> HashMap<&'static str, (&'static str, &'static str)> {
    let json = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(ELEMENT_ID))
        .and_then(|e| e.text_content());
    let Some(parsed) = json.and_then(|j| js_sys::JSON::parse(&j).ok()) else {
        leptos::logging::error!("Attention Lab: the page's texts (#{ELEMENT_ID}) are missing or unreadable");
        return HashMap::new();
    };
    let leak = |v: &wasm_bindgen::JsValue| -> Option<&'static str> { Some(String::leak(v.as_string()?)) };
    let mut texts = HashMap::new();
    for entry in js_sys::Object::entries(parsed.unchecked_ref()).iter() {
        let entry: js_sys::Array = entry.unchecked_into();
        let pair: js_sys::Array = entry.get(1).unchecked_into();
        if let (Some(key), Some(en), Some(zh)) = (leak(&entry.get(0)), leak(&pair.get(0)), leak(&pair.get(1))) {
            texts.insert(key, (en, zh));
        }
    }
    texts
}
