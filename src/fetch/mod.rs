//! Bringing a model file into a page: from the browser's Cache Storage when an earlier visit
//! kept it, else downloaded with its progress reported, its SHA-256 checked, and kept for the
//! next visit and for offline use (the service worker never precaches it: a learner who never
//! asks for it downloads nothing). The page's lesson, the pretrained model's views (their own
//! module) and the worker that computes its forward passes (`compute`) all load through here;
//! [`status`] shows where a load is.

pub mod status;

use crate::core::bert::asset::{ModelFile, Source};
use crate::core::bert::Asset;
use crate::core::model::Model;
use crate::i18n::{fill, t, Lang, ModelMsg};
use crate::models::Download;
use js_sys::{Reflect, Uint8Array};
use std::sync::Arc;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{Cache, Response};

/// Where a model that has to be fetched is.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum LoadState {
    /// Nobody asked for it yet: nothing is downloaded.
    #[default]
    Idle,
    /// Downloading (or reading from the browser's cache): bytes so far of the total.
    Loading { received: usize, total: usize },
    /// Why it could not be loaded (shown with a retry button).
    Failed(LoadError),
}

/// Why the model could not be loaded.
#[derive(Debug, Clone, PartialEq)]
pub enum LoadError {
    /// No answer from the server (offline, or the server is gone).
    Network,
    /// The server answered with an error status (404: the file was not published).
    Status(u16),
    /// Fewer bytes than the file has.
    Truncated { received: usize, total: usize },
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
            Self::Truncated { received, total } => {
                fill(t(lang, ModelMsg::ErrTruncated), &[("got", &mb(*received)), ("total", &mb(*total))])
            }
            Self::Checksum => t(lang, ModelMsg::ErrChecksum).to_string(),
            Self::Format(why) => fill(t(lang, ModelMsg::ErrFormat), &[("why", why)]),
        }
    }
}

/// The Cache Storage name of a model file: a new file gets a new cache, and the service
/// worker, which clears only caches named "attention-lab-…", never deletes it.
fn cache_name(file: &ModelFile) -> String {
    format!("model-{}", &file.sha256[..12])
}

/// Bring the model `download` names, telling `report` where it is (loading with its progress,
/// then idle or failed) and giving it to `done` before the load reports idle.
pub fn bring(
    download: Download,
    report: impl Fn(LoadState) + Clone + 'static,
    done: impl FnOnce(Arc<dyn Model>) + 'static,
) {
    let total = download.file.bytes;
    report(LoadState::Loading { received: 0, total });
    leptos::task::spawn_local(async move {
        let progress = {
            let report = report.clone();
            move |received| report(LoadState::Loading { received, total })
        };
        match load(&download, progress).await {
            Ok(model) => {
                done(model);
                report(LoadState::Idle);
            }
            Err(e) => report(LoadState::Failed(e)),
        }
    });
}

/// The model `download` names, its file from the cache or the network. The file stays where
/// the browser put it, outside this module's memory, and only the entries this build reads
/// (`Download::reads`) come in, one at a time: the module never holds the whole file.
pub async fn load(download: &Download, progress: impl Fn(usize)) -> Result<Arc<dyn Model>, LoadError> {
    let file = &download.file;
    let cache = open_cache(file).await;
    let kept = match &cache {
        Some(cache) => cached(cache, file).await,
        None => None,
    };
    let bytes = match kept {
        Some(bytes) => bytes,
        None => {
            let bytes = fetch_file(file, &progress).await?;
            if let Some(cache) = &cache {
                keep(cache, file, &bytes).await;
            }
            bytes
        }
    };
    progress(file.bytes);
    let asset = Asset::decode_from(&Held(bytes), download.reads).map_err(|e| LoadError::Format(e.to_string()))?;
    (download.build)(asset).map_err(LoadError::Format)
}

/// A file's bytes where the browser holds them, read a piece at a time.
struct Held(Uint8Array);

impl Source for Held {
    fn size(&self) -> usize {
        self.0.length() as usize
    }

    fn read_into(&self, at: usize, out: &mut [u8]) {
        self.0.subarray(at as u32, (at + out.len()) as u32).copy_to(out);
    }
}

/// The page's cache for the model; `None` where Cache Storage is unavailable (a page served
/// over plain http from another machine): the model is then downloaded on every visit.
async fn open_cache(file: &ModelFile) -> Option<Cache> {
    let caches = global_caches()?;
    JsFuture::from(caches.open(&cache_name(file))).await.ok()?.dyn_into().ok()
}

/// The kept copy, if whole (a copy of the wrong size is dropped and downloaded again).
async fn cached(cache: &Cache, file: &ModelFile) -> Option<Uint8Array> {
    let found = JsFuture::from(cache.match_with_str(file.name)).await.ok()?;
    let response: Response = found.dyn_into().ok()?;
    let buffer = JsFuture::from(response.array_buffer().ok()?).await.ok()?;
    let bytes = Uint8Array::new(&buffer);
    if bytes.length() as usize == file.bytes {
        Some(bytes)
    } else {
        let _ = cache.delete_with_str(file.name);
        None
    }
}

/// Keep the checked file for the next visit (a failure only means downloading it again),
/// unless another part of the page (its module, a worker) loading it at the same time kept it
/// first: WebKit's Cache Storage fails a second write of the same file ("Internal error").
/// A check, not a lock: it closes the gap between two downloads that end apart, which is how
/// the page and its forward worker finish; two writes at the very same moment could still meet.
async fn keep(cache: &Cache, file: &ModelFile, bytes: &Uint8Array) {
    let kept =
        JsFuture::from(cache.match_with_str(file.name)).await.ok().is_some_and(|r| r.is_instance_of::<Response>());
    if kept {
        return;
    }
    if let Ok(response) = Response::new_with_opt_buffer_source(Some(bytes)) {
        let _ = JsFuture::from(cache.put_with_str(file.name, &response)).await;
    }
}

/// Download the file into a buffer of the browser's, reporting the bytes received as they
/// arrive, then check its SHA-256.
async fn fetch_file(file: &ModelFile, progress: &impl Fn(usize)) -> Result<Uint8Array, LoadError> {
    let fetched = JsFuture::from(global_fetch(file.name)?).await.map_err(|_| LoadError::Network)?;
    let response: Response = fetched.dyn_into().map_err(|_| LoadError::Network)?;
    if !response.ok() {
        return Err(LoadError::Status(response.status()));
    }
    let body = response.body().ok_or(LoadError::Network)?;
    let reader: web_sys::ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    let total = file.bytes;
    let bytes = Uint8Array::new_with_length(total as u32);
    let mut received = 0;
    loop {
        let chunk = JsFuture::from(reader.read()).await.map_err(|_| LoadError::Truncated { received, total })?;
        if field(&chunk, "done").as_bool().unwrap_or(true) {
            break;
        }
        let value: Uint8Array = field(&chunk, "value").unchecked_into();
        let len = value.length() as usize;
        if received + len > total {
            // More bytes than the published file has: not that file.
            return Err(LoadError::Checksum);
        }
        bytes.set(&value, received as u32);
        received += len;
        progress(received);
    }
    if received < total {
        return Err(LoadError::Truncated { received, total });
    }
    if sha256_hex(&bytes).await.is_some_and(|sum| sum != file.sha256) {
        return Err(LoadError::Checksum);
    }
    Ok(bytes)
}

/// The SHA-256 of `bytes` in lower-case hex, by the browser's own SubtleCrypto (the bytes
/// never enter this module); `None` where the browser offers none, outside a secure context
/// (a page served over plain http from another machine, which has no Cache Storage either):
/// there a file is checked by its length and its format alone.
async fn sha256_hex(bytes: &Uint8Array) -> Option<String> {
    let global = js_sys::global();
    let crypto = match global.dyn_ref::<web_sys::WorkerGlobalScope>() {
        Some(worker) => worker.crypto().ok()?,
        None => global.dyn_ref::<web_sys::Window>()?.crypto().ok()?,
    };
    let digest = crypto.subtle().digest_with_str_and_buffer_source("SHA-256", bytes).ok()?;
    let sum = JsFuture::from(digest).await.ok()?;
    Some(Uint8Array::new(&sum).to_vec().iter().map(|b| format!("{b:02x}")).collect())
}

/// Cache Storage of the page or the worker this runs in.
fn global_caches() -> Option<web_sys::CacheStorage> {
    let global = js_sys::global();
    match global.dyn_ref::<web_sys::WorkerGlobalScope>() {
        Some(worker) => worker.caches().ok(),
        None => global.dyn_ref::<web_sys::Window>()?.caches().ok(),
    }
}

/// Fetch `url` from the page or the worker this runs in.
fn global_fetch(url: &str) -> Result<js_sys::Promise, LoadError> {
    let global = js_sys::global();
    match global.dyn_ref::<web_sys::WorkerGlobalScope>() {
        Some(worker) => Ok(worker.fetch_with_str(url)),
        None => global.dyn_ref::<web_sys::Window>().map(|w| w.fetch_with_str(url)).ok_or(LoadError::Network),
    }
}

fn field(object: &JsValue, name: &str) -> JsValue {
    Reflect::get(object, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
}
