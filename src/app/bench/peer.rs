//! The peers in the benchmark: onnxruntime-web, and TensorFlow.js for training, loaded into
//! the same page from the benchmark build's `peer/` folder (never in `dist/`) and driven
//! through `window.attentionPeer` (`benches/peer/peer.js`) and `window.attentionTrainPeer`
//! (`benches/peer/train_peer.js`). Their outputs and timings come back as plain numbers.

use js_sys::{Array, Float32Array, Function, Promise, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// Add `<script src=…>` and wait until it has run.
async fn load_script(src: &str) -> Result<(), String> {
    let document = web_sys::window().and_then(|w| w.document()).ok_or("no document")?;
    let script = document.create_element("script").map_err(|_| "cannot make a script")?;
    script.set_attribute("src", src).map_err(|_| "cannot set src")?;
    let loaded = Promise::new(&mut |resolve, reject| {
        let _ = script.add_event_listener_with_callback("load", &resolve);
        let _ = script.add_event_listener_with_callback("error", &reject);
    });
    document.head().ok_or("no head")?.append_child(&script).map_err(|_| "cannot add the script")?;
    JsFuture::from(loaded)
        .await
        .map(|_| ())
        .map_err(|_| format!("{src} did not load (run scripts/bench.sh, which copies it)"))
}

/// Load onnxruntime-web and the page's driver for it (one thread).
pub async fn load() -> Result<(), String> {
    load_with_threads(1).await
}

/// Load onnxruntime-web and its driver, its sessions to run on `threads` threads (fixed for
/// the page once the first starts).
pub async fn load_with_threads(threads: usize) -> Result<(), String> {
    load_script("peer/ort.wasm.min.js").await?;
    load_script("peer/peer.js").await?;
    let window = web_sys::window().ok_or("no window")?;
    Reflect::set(&get(&window, "attentionPeer")?, &"threads".into(), &JsValue::from_f64(threads as f64))
        .map(|_| ())
        .map_err(|_| "cannot set the peer's threads".to_string())
}

fn get(target: &JsValue, key: &str) -> Result<JsValue, String> {
    Reflect::get(target, &JsValue::from_str(key)).map_err(|_| format!("no {key}"))
}

/// Call `attentionPeer[method](...args)` and await its promise.
async fn call(method: &str, args: &Array) -> Result<JsValue, String> {
    call_on("attentionPeer", method, args).await
}

/// Call `window[driver][method](...args)` and await its promise.
async fn call_on(driver: &str, method: &str, args: &Array) -> Result<JsValue, String> {
    let window = web_sys::window().ok_or("no window")?;
    let peer = get(&window, driver)?;
    let f: Function = get(&peer, method)?.dyn_into().map_err(|_| format!("{driver}.{method} is not a function"))?;
    let promise: Promise =
        f.apply(&peer, args).map_err(|e| format!("{e:?}"))?.dyn_into().map_err(|_| "no promise".to_string())?;
    JsFuture::from(promise).await.map_err(|e| format!("the peer failed: {e:?}"))
}

/// Load the layer into the peer with the core's input and weights (all row-major) and run it
/// once; returns its output (n × d_model) and weights (heads × n × n).
pub async fn prepare(
    (n, d_model, heads): (usize, usize, usize),
    x: &[f32],
    weights: [&[f32]; 4],
) -> Result<(Vec<f32>, Vec<f32>), String> {
    let args = Array::new();
    for v in [d_model, heads, n] {
        args.push(&JsValue::from_f64(v as f64));
    }
    args.push(&Float32Array::from(x));
    for w in weights {
        args.push(&Float32Array::from(w));
    }
    let result = call("prepare", &args).await?;
    let floats = |key: &str| get(&result, key).map(|v| Float32Array::new(&v).to_vec());
    Ok((floats("output")?, floats("weights")?))
}

/// Load a pretrained model (`file` in the peer's folder: `minilm.onnx`, `e5.onnx`) into the
/// peer and run it once on `ids`; returns its sentence embedding (d_model) and layer 1's
/// weights (heads × n × n).
pub async fn prepare_model(file: &str, ids: &[u32]) -> Result<(Vec<f32>, Vec<f32>), String> {
    let ids: Vec<i32> = ids.iter().map(|&i| i as i32).collect();
    let args = Array::of2(&JsValue::from_str(file), &js_sys::Int32Array::from(ids.as_slice()));
    let result = call("prepareModel", &args).await?;
    let floats = |key: &str| get(&result, key).map(|v| Float32Array::new(&v).to_vec());
    Ok((floats("pooled")?, floats("weights")?))
}

/// One timing sample of what was prepared last: the mean of `batch` runs, in ms.
pub async fn sample(batch: usize) -> Result<f64, String> {
    let args = Array::of1(&JsValue::from_f64(batch as f64));
    call("sample", &args).await?.as_f64().ok_or_else(|| "no time".to_string())
}

/// Load TensorFlow.js (with its wasm backend) and the page's training driver for it.
pub async fn load_trainer() -> Result<(), String> {
    load_script("peer/tf.min.js").await?;
    load_script("peer/tf-backend-wasm.min.js").await?;
    load_script("peer/train_peer.js").await
}

/// What TensorFlow.js measured training the model: the median step (ms) and the loss of its
/// first and last step.
pub struct PeerTraining {
    pub step_ms: f64,
    pub first_loss: f64,
    pub last_loss: f64,
}

/// Train *reverse* on TensorFlow.js's `backend` for `steps` steps: `sizes` are (n, digits,
/// d_model, heads, batch).
pub async fn train(backend: &str, sizes: [usize; 5], learning_rate: f64, steps: usize) -> Result<PeerTraining, String> {
    let args = Array::of1(&JsValue::from_str(backend));
    for v in sizes {
        args.push(&JsValue::from_f64(v as f64));
    }
    args.push(&JsValue::from_f64(learning_rate));
    args.push(&JsValue::from_f64(steps as f64));
    let result = call_on("attentionTrainPeer", "train", &args).await?;
    let number = |key: &str| get(&result, key)?.as_f64().ok_or_else(|| format!("no {key}"));
    Ok(PeerTraining { step_ms: number("stepMs")?, first_loss: number("firstLoss")?, last_loss: number("lastLoss")? })
}
