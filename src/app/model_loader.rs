//! Brings the trained model into the page when it is first asked for (trained weights, or a
//! view about the model): from the browser's Cache Storage when an earlier visit kept it, else
//! downloaded with its progress shown, its SHA-256 checked, and kept for the next visit and
//! for offline use. The service worker never precaches it: a learner who never asks for it
//! downloads nothing.

use super::page::{ModelState, Page, Shared};
use crate::core::bert::asset::{sha256_hex, MINILM_FILE};
use crate::core::bert::{Asset, Model};
use crate::core::scenario::Source;
use crate::i18n::{fill, t, Lang, ModelMsg};
use js_sys::{Reflect, Uint8Array};
use leptos::prelude::*;
use std::sync::Arc;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Cache, Response};

/// Why the model could not be loaded.
#[derive(Debug, Clone, PartialEq)]
pub enum LoadError {
    /// No answer from the server (offline, or the server is gone).
    Network,
    /// The server answered with an error status (404: the file was not published).
    Status(u16),
    /// Fewer bytes than the file has.
    Truncated { received: usize },
    /// The bytes are not the published file.
    Checksum,
    /// The file is whole but not a model this page can read.
    Format(String),
}

impl LoadError {
    /// The message shown next to the weights switch.
    pub fn message(&self, lang: Lang) -> String {
        let mb = |bytes: usize| format!("{:.1}", bytes as f64 / 1e6);
        match self {
            Self::Network => t(lang, ModelMsg::ErrNetwork).to_string(),
            Self::Status(code) => fill(t(lang, ModelMsg::ErrStatus), &[("code", &code.to_string())]),
            Self::Truncated { received } => {
                fill(t(lang, ModelMsg::ErrTruncated), &[("got", &mb(*received)), ("total", &mb(MINILM_FILE.bytes))])
            }
            Self::Checksum => t(lang, ModelMsg::ErrChecksum).to_string(),
            Self::Format(why) => fill(t(lang, ModelMsg::ErrFormat), &[("why", why)]),
        }
    }
}

/// The Cache Storage name of the model file: a new file gets a new cache, and the service
/// worker, which clears only caches named "attention-lab-…", never deletes it.
fn cache_name() -> String {
    format!("model-{}", &MINILM_FILE.sha256[..12])
}

/// Start loading when the settings first ask for the model (and again after a retry sets
/// the state back to idle).
pub fn load_when_asked(page: Page) {
    Effect::new(move |_| {
        let wanted = page.settings.with(|s| s.source == Source::Minilm || s.view.needs_model());
        let idle = page.model.with(|m| *m == ModelState::Idle);
        if !(wanted && idle) {
            return;
        }
        page.model.set(ModelState::Loading { received: 0, total: MINILM_FILE.bytes });
        leptos::task::spawn_local(async move {
            let progress = move |received| page.model.set(ModelState::Loading { received, total: MINILM_FILE.bytes });
            match load(progress).await {
                Ok(model) => {
                    let vocab = Arc::new(model.vocab.clone());
                    page.apply(|s| s.set_vocab(Arc::clone(&vocab)));
                    page.model.set(ModelState::Ready(Shared(Arc::new(model))));
                }
                Err(e) => page.model.set(ModelState::Failed(e)),
            }
        });
    });
}

/// The model from the cache or the network.
pub(crate) async fn load(progress: impl Fn(usize)) -> Result<Model, LoadError> {
    let cache = open_cache().await;
    let bytes = match &cache {
        Some(cache) => cached(cache).await,
        None => None,
    };
    let bytes = match bytes {
        Some(bytes) => bytes,
        None => {
            let bytes = download(&progress).await?;
            if sha256_hex(&bytes) != MINILM_FILE.sha256 {
                return Err(LoadError::Checksum);
            }
            if let Some(cache) = &cache {
                keep(cache, &bytes).await;
            }
            bytes
        }
    };
    progress(bytes.len());
    let asset = Asset::decode(&bytes).map_err(|e| LoadError::Format(e.to_string()))?;
    drop(bytes);
    Model::from_asset(asset).map_err(|e| LoadError::Format(e.to_string()))
}

/// The page's cache for the model; `None` where Cache Storage is unavailable (a page served
/// over plain http from another machine): the model is then downloaded on every visit.
async fn open_cache() -> Option<Cache> {
    let caches = window().caches().ok()?;
    JsFuture::from(caches.open(&cache_name())).await.ok()?.dyn_into().ok()
}

/// The kept copy, if whole (a copy of the wrong size is dropped and downloaded again).
async fn cached(cache: &Cache) -> Option<Vec<u8>> {
    let found = JsFuture::from(cache.match_with_str(MINILM_FILE.name)).await.ok()?;
    let response: Response = found.dyn_into().ok()?;
    let buffer = JsFuture::from(response.array_buffer().ok()?).await.ok()?;
    let bytes = Uint8Array::new(&buffer).to_vec();
    if bytes.len() == MINILM_FILE.bytes {
        Some(bytes)
    } else {
        let _ = cache.delete_with_str(MINILM_FILE.name);
        None
    }
}

/// Keep the checked file for the next visit (a failure only means downloading it again).
async fn keep(cache: &Cache, bytes: &[u8]) {
    let body = Uint8Array::from(bytes);
    if let Ok(response) = Response::new_with_opt_buffer_source(Some(&body)) {
        let _ = JsFuture::from(cache.put_with_str(MINILM_FILE.name, &response)).await;
    }
}

/// Download the file, reporting the bytes received as they arrive.
async fn download(progress: &impl Fn(usize)) -> Result<Vec<u8>, LoadError> {
    let fetched = JsFuture::from(window().fetch_with_str(MINILM_FILE.name)).await.map_err(|_| LoadError::Network)?;
    let response: Response = fetched.dyn_into().map_err(|_| LoadError::Network)?;
    if !response.ok() {
        return Err(LoadError::Status(response.status()));
    }
    let body = response.body().ok_or(LoadError::Network)?;
    let reader: web_sys::ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let mut bytes = Vec::with_capacity(MINILM_FILE.bytes);
    loop {
        let chunk = JsFuture::from(reader.read()).await.map_err(|_| LoadError::Truncated { received: bytes.len() })?;
        if field(&chunk, "done").as_bool().unwrap_or(true) {
            break;
        }
        let value: Uint8Array = field(&chunk, "value").unchecked_into();
        let start = bytes.len();
        bytes.resize(start + value.length() as usize, 0);
        value.copy_to(&mut bytes[start..]);
        progress(bytes.len());
    }
    if bytes.len() < MINILM_FILE.bytes {
        return Err(LoadError::Truncated { received: bytes.len() });
    }
    Ok(bytes)
}

fn field(object: &JsValue, name: &str) -> JsValue {
    Reflect::get(object, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
}
