//! The catalogues' texts as the published page carries them: a JSON script element
//! `{"Catalogue": [["English", "中文"], …], …}` written by the build (scripts/texts.py, messages
//! in declaration order), read once and kept for the life of the page. Keeps about 23 KB
//! (gzip) of prose out of the .wasm.

use wasm_bindgen::JsCast;

/// The id of the script element holding the texts.
const ELEMENT_ID: &str = "attention-lab-texts";

type Pair = (&'static str, &'static str);

/// Each catalogue's name and its messages in order (a handful: a list is enough).
type Catalogues = Vec<(String, Vec<Pair>)>;

thread_local! {
    static TEXTS: Catalogues = read();
}

/// The English and Chinese text of message number `index` of catalogue `catalogue`. A
/// message the page does not hold (a build that skipped the post-build step) shows as "?" and
/// logs an error, which the end-to-end tests fail on.
pub fn pair(catalogue: &'static str, index: usize) -> Pair {
    let found =
        TEXTS.with(|texts| texts.iter().find(|(name, _)| name == catalogue).and_then(|(_, c)| c.get(index).copied()));
    found.unwrap_or_else(|| {
        leptos::logging::error!("Attention Lab: the page holds no text {index} of {catalogue}");
        ("?", "?")
    })
}

/// Every text of the page's script element; the strings live as long as the page.
fn read() -> Catalogues {
    let json = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(ELEMENT_ID))
        .and_then(|e| e.text_content());
    let Some(parsed) = json.and_then(|j| js_sys::JSON::parse(&j).ok()) else {
        leptos::logging::error!("Attention Lab: the page's texts (#{ELEMENT_ID}) are missing or unreadable");
        return Vec::new();
    };
    let text = |v: wasm_bindgen::JsValue| -> &'static str { String::leak(v.as_string().unwrap_or_default()) };
    let mut texts = Vec::new();
    for entry in js_sys::Object::entries(parsed.unchecked_ref()).iter() {
        let entry: js_sys::Array = entry.unchecked_into();
        let messages: js_sys::Array = entry.get(1).unchecked_into();
        let pairs = messages
            .iter()
            .map(|m| {
                let m: js_sys::Array = m.unchecked_into();
                (text(m.get(0)), text(m.get(1)))
            })
            .collect();
        texts.push((entry.get(0).as_string().unwrap_or_default(), pairs));
    }
    texts
}
