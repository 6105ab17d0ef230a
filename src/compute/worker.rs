//! Inside the forward worker: it brings the model it is asked about (from the cache the page
//! filled, else the network: `crate::fetch`), keeps it until it is asked about another (one at
//! a time: the next one's weights reuse its memory), and answers every question with
//! the forward pass's numbers, or why there are none; a sweep, a head at a time. A panic is said to the page in words.

use super::message::{Answer, Message, Question, SweepQuestion, ToWorker, Work};
use crate::core::intervene::Experiment;
use crate::core::kernels::BUILD;
use crate::core::model::wire::encode;
use crate::core::model::Model;
use crate::models::{Delivery, ModelId};
use std::cell::RefCell;
use std::sync::Arc;
use wasm_bindgen::prelude::*;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

thread_local! {
    /// The model brought last.
    static KEPT: RefCell<Option<(ModelId, Arc<dyn Model>)>> = const { RefCell::new(None) };
}

fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

fn now() -> f64 {
    scope().performance().map_or(0.0, |p| p.now())
}

/// Start the worker: listen to the page.
pub fn start() {
    crate::report_memory("forward");
    std::panic::set_hook(Box::new(|info| {
        let _ = scope().post_message(&JsValue::from_str(&format!("panic: {info}")));
    }));
    let on_message = Closure::<dyn Fn(MessageEvent)>::new(|event: MessageEvent| {
        match ToWorker::from_js(&event.data()) {
            Ok(ToWorker::Forward(question)) => wasm_bindgen_futures::spawn_local(async move {
                // One message per part: the page rebuilds each in a task of its own.
                for part in answer(question).await {
                    tell(&part);
                }
            }),
            Ok(ToWorker::Sweep(sweep)) => wasm_bindgen_futures::spawn_local(swept(sweep)),
            Err(why) => {
                let _ = scope().post_message(&JsValue::from_str(&format!("a question the worker cannot read: {why}")));
            }
        }
    });
    scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
}

/// The answer to `q`: the encoding's parts (`wire::encode`), or why there is none.
async fn answer(q: Question) -> Vec<Answer> {
    let number = q.number;
    match model(q.model).await {
        Ok(model) => {
            let t0 = now();
            match model.forward(&q.input, &q.options) {
                Ok(encoding) => {
                    let work = Work { ms: now() - t0, kernels: BUILD.to_string() };
                    let parts = encode(&encoding).into_iter();
                    parts.map(|numbers| Answer::Encoded { number, numbers, work: work.clone() }).collect()
                }
                Err(e) => vec![Answer::Failed { number, why: e.to_string() }],
            }
        }
        Err(why) => vec![Answer::Failed { number, why }],
    }
}

fn tell(answer: &Answer) {
    let (message, moved) = answer.to_js();
    let _ = scope().post_message_with_transfer(&message, &moved);
}

/// Answer a sweep a head at a time, or say why it cannot run.
async fn swept(q: SweepQuestion) {
    let number = q.number;
    let ran = match model(q.model).await {
        Ok(model) => {
            let (text, other) = (&q.input.text, q.other.as_deref());
            Experiment::for_readout(&*model, text, &q.options, other, q.readout)
                .and_then(|e| {
                    let of = model.shape().n_layers * model.shape().n_heads;
                    let mut done = 0;
                    e.sweep(&*model, q.replacement, q.readout, |layer, head, effect| {
                        done += 1;
                        tell(&Answer::Swept { number, layer, head, effect, done, of });
                    })
                })
                .map(drop)
                .map_err(|e| e.to_string())
        }
        Err(why) => Err(why),
    };
    if let Err(why) = ran {
        tell(&Answer::Failed { number, why });
    }
}

/// Model `id`: the one kept, or brought (and kept in place of the last).
async fn model(id: ModelId) -> Result<Arc<dyn Model>, String> {
    if let Some(m) = KEPT.with(|k| k.borrow().as_ref().filter(|(i, _)| *i == id).map(|(_, m)| Arc::clone(m))) {
        return Ok(m);
    }
    // The last model goes before this one comes (an answer still computing with it keeps it
    // until it is done).
    KEPT.with(|k| k.borrow_mut().take());
    let Delivery::Download(download) = id.delivery() else {
        return Err(format!("the model “{}” is not computed in a worker", id.slug()));
    };
    let model = crate::fetch::load(&download, |_| {}).await.map_err(|e| format!("the model did not load: {e:?}"))?;
    KEPT.with(|k| *k.borrow_mut() = Some((id, Arc::clone(&model))));
    Ok(model)
}
