//! Brings into the page the models the registry does not make there (`models::Delivery`):
//! a downloaded file, when first asked for (the lesson's weights, or a view about a pretrained
//! model), from the browser's Cache Storage when an earlier visit kept it, else downloaded with
//! its progress shown, its SHA-256 checked, and kept for the next visit and for offline use (the
//! service worker never precaches it: a learner who never asks for it downloads nothing); and
//! the learner's own model, read from the browser's storage when asked for, and again when the
//! training view keeps a new one.

use super::loading::{LoadError, LoadState};
use super::page::Page;
use crate::core::bert::asset::{sha256_hex, ModelFile};
use crate::core::bert::Asset;
use crate::core::model::{Model, ModelError};
use crate::models::{Arrival, Delivery, ModelId, VIEWED};
use js_sys::{Reflect, Uint8Array};
use leptos::prelude::*;
use std::sync::Arc;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Cache, Response};

/// The Cache Storage name of a model file: a new file gets a new cache, and the service
/// worker, which clears only caches named "attention-lab-…", never deletes it.
fn cache_name(file: &ModelFile) -> String {
    format!("model-{}", &file.sha256[..12])
}

/// The models the settings ask for now: the lesson's, and the one the open view shows.
fn wanted(page: Page) -> Vec<ModelId> {
    page.settings.with(|s| {
        let mut ids = vec![s.choice().id()];
        if s.view().needs_model() && !ids.contains(&VIEWED) {
            ids.push(VIEWED);
        }
        ids
    })
}

/// Bring each model when the settings first ask for it (a download again after a retry sets
/// its state back to idle).
pub fn load_when_asked(page: Page) {
    Effect::new(move |_| {
        for id in wanted(page) {
            let arrived = page.models.with(|m| m.arrival(id).is_some());
            match id.delivery() {
                Delivery::Made => {}
                Delivery::Stored { key, parse } if !arrived => read_stored(page, id, key, parse),
                Delivery::Download { file, build } if !arrived && page.load_state(id) == LoadState::Idle => {
                    download_model(page, id, file, build)
                }
                _ => {}
            }
        }
    });
}

/// Read every stored model again (the training view kept a new one).
pub fn reread_stored(page: Page) {
    for id in ModelId::ALL {
        if let Delivery::Stored { key, parse } = id.delivery() {
            read_stored(page, id, key, parse);
        }
    }
}

/// The model kept under `key`, or none if there is none or it cannot be read (then the
/// lesson says so).
fn read_stored(page: Page, id: ModelId, key: &str, parse: fn(&str) -> Option<Arc<dyn Model>>) {
    let storage = window().local_storage().ok().flatten();
    let text = storage.and_then(|s| s.get_item(key).ok().flatten());
    let arrival = match text.as_deref().and_then(parse) {
        Some(model) => Arrival::Ready(model),
        None => Arrival::Missing(ModelError::NotKept),
    };
    page.arrive(id, arrival);
}

/// Download (or read from the cache) `file`, with its progress in the page's load state.
fn download_model(page: Page, id: ModelId, file: ModelFile, build: fn(Asset) -> Result<Arc<dyn Model>, String>) {
    page.set_load_state(id, LoadState::Loading { received: 0, total: file.bytes });
    leptos::task::spawn_local(async move {
        let progress = move |received| page.set_load_state(id, LoadState::Loading { received, total: file.bytes });
        match load(&file, build, progress).await {
            Ok(model) => {
                // Arrived first: the state going back to idle must not start another download.
                page.arrive(id, Arrival::Ready(model));
                page.set_load_state(id, LoadState::Idle);
            }
            Err(e) => page.set_load_state(id, LoadState::Failed(e)),
        }
    });
}

/// The model of `file` from the cache or the network.
pub(crate) async fn load(
    file: &ModelFile,
    build: fn(Asset) -> Result<Arc<dyn Model>, String>,
    progress: impl Fn(usize),
) -> Result<Arc<dyn Model>, LoadError> {
    let cache = open_cache(file).await;
    let bytes = match &cache {
        Some(cache) => cached(cache, file).await,
        None => None,
    };
    let bytes = match bytes {
        Some(bytes) => bytes,
        None => {
            let bytes = download(file, &progress).await?;
            if sha256_hex(&bytes) != file.sha256 {
                return Err(LoadError::Checksum);
            }
            if let Some(cache) = &cache {
                keep(cache, file, &bytes).await;
            }
            bytes
        }
    };
    progress(bytes.len());
    let asset = Asset::decode(&bytes).map_err(|e| LoadError::Format(e.to_string()))?;
    drop(bytes);
    build(asset).map_err(LoadError::Format)
}

/// The page's cache for the model; `None` where Cache Storage is unavailable (a page served
/// over plain http from another machine): the model is then downloaded on every visit.
async fn open_cache(file: &ModelFile) -> Option<Cache> {
    let caches = window().caches().ok()?;
    JsFuture::from(caches.open(&cache_name(file))).await.ok()?.dyn_into().ok()
}

/// The kept copy, if whole (a copy of the wrong size is dropped and downloaded again).
async fn cached(cache: &Cache, file: &ModelFile) -> Option<Vec<u8>> {
    let found = JsFuture::from(cache.match_with_str(file.name)).await.ok()?;
    let response: Response = found.dyn_into().ok()?;
    let buffer = JsFuture::from(response.array_buffer().ok()?).await.ok()?;
    let bytes = Uint8Array::new(&buffer).to_vec();
    if bytes.len() == file.bytes {
        Some(bytes)
    } else {
        let _ = cache.delete_with_str(file.name);
        None
    }
}

/// Keep the checked file for the next visit (a failure only means downloading it again).
async fn keep(cache: &Cache, file: &ModelFile, bytes: &[u8]) {
    let body = Uint8Array::from(bytes);
    if let Ok(response) = Response::new_with_opt_buffer_source(Some(&body)) {
        let _ = JsFuture::from(cache.put_with_str(file.name, &response)).await;
    }
}

/// Download the file, reporting the bytes received as they arrive.
async fn download(file: &ModelFile, progress: &impl Fn(usize)) -> Result<Vec<u8>, LoadError> {
    let fetched = JsFuture::from(window().fetch_with_str(file.name)).await.map_err(|_| LoadError::Network)?;
    let response: Response = fetched.dyn_into().map_err(|_| LoadError::Network)?;
    if !response.ok() {
        return Err(LoadError::Status(response.status()));
    }
    let body = response.body().ok_or(LoadError::Network)?;
    let reader: web_sys::ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let mut bytes = Vec::with_capacity(file.bytes);
    let total = file.bytes;
    loop {
        let chunk =
            JsFuture::from(reader.read()).await.map_err(|_| LoadError::Truncated { received: bytes.len(), total })?;
        if field(&chunk, "done").as_bool().unwrap_or(true) {
            break;
        }
        let value: Uint8Array = field(&chunk, "value").unchecked_into();
        let start = bytes.len();
        bytes.resize(start + value.length() as usize, 0);
        value.copy_to(&mut bytes[start..]);
        progress(bytes.len());
    }
    if bytes.len() < file.bytes {
        return Err(LoadError::Truncated { received: bytes.len(), total });
    }
    Ok(bytes)
}

fn field(object: &JsValue, name: &str) -> JsValue {
    Reflect::get(object, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
}
