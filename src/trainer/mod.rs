//! Training off the page's thread, on every core: a pool of Web Workers (each its own .wasm
//! instance, the `trainer` binary) trains one run together, data-parallel
//! (`core::train::replica`), and the page only draws what the leading worker reports.
//! [`pool`] is the page's side; [`worker`] runs inside each worker; [`scorer`] is one more
//! worker for the experiments on the trained model (heads switched off). They talk in
//! `core::train::wire`'s messages, with no shared memory (so no cross-origin isolation: any
//! static host serves it).

pub mod pool;
pub mod scorer;
pub mod worker;

use js_sys::{Array, Float64Array};
use wasm_bindgen::{JsCast, JsValue};

/// A message's numbers as a `Float64Array`, and the list that moves its buffer.
fn numbers_to_js(data: &[f64]) -> (Float64Array, Array) {
    let array = Float64Array::from(data);
    (array.clone(), Array::of1(&array.buffer()))
}

/// A message's numbers, if it is a list of them.
fn numbers_of(value: &JsValue) -> Option<Vec<f64>> {
    value.dyn_ref::<Float64Array>().map(Float64Array::to_vec)
}
