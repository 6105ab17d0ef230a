//! The lesson's forward pass, as the page's state keeps it: computed in the page when what it
//! reads changes, or, for a downloaded model, asked of the forward worker (`compute::client`)
//! and drawn when the answer to the latest question arrives.

use crate::compute::client::{forward_worker, Forwarder, Reply};
use crate::core::model::Encoding;
use crate::core::model::{Input, Model, ModelError, RunOptions};
use crate::models::{Arrival, ModelId, Models};
use crate::settings::Settings;
use crate::shared::Shared;
use leptos::prelude::*;
use std::sync::Arc;

/// A forward pass's result as the page keeps it.
pub type Computed = Result<Shared<Encoding>, ModelError>;

/// The forward pass of `model` on what the lesson's settings give it to read: recomputed only
/// when the model, the sentence or the run options change. A downloaded model that has arrived
/// runs in the forward worker where the page has one (`ModelId::computed_in_worker`): `None`
/// until the worker answers the latest question (a sentence the model cannot read is refused
/// at once, in the page).
pub fn forward_of(
    settings: RwSignal<Settings>,
    models: RwSignal<Models>,
    model: Memo<Shared<dyn Model>>,
) -> Memo<Option<Computed>> {
    let request = Memo::new(move |_| {
        let model = model.get();
        settings.with(|s| (s.input(&*model.0), s.run_options(&*model.0)))
    });
    let elsewhere = Memo::new(move |_| {
        let id = settings.with(|s| s.choice().id());
        let arrived = models.with(|m| matches!(m.arrival(id), Some(Arrival::Ready(_))));
        (arrived && id.computed_in_worker() && forward_worker()).then_some(id)
    });
    let answer = RwSignal::new(None::<Answered>);
    if forward_worker() {
        let remote = Remote::new(answer);
        // The worker lives while a view reads the lesson's pass of a downloaded model: leaving
        // for the models' own views (which bring or train their own) or for weights the page
        // computes ends it and gives its memory back; coming back asks again, unless the
        // answer kept is still the one the lesson wants.
        let reads = Memo::new(move |_| settings.with(|s| s.view().reads_lesson()));
        Effect::new(move |_| {
            let (Some(id), true) = (elsewhere.get(), reads.get()) else { return remote.end() };
            let model = model.get();
            request.with(|(input, options)| {
                let answered = answer.with_untracked(|a| a.as_ref().is_some_and(|a| a.answers(&model, input, options)));
                if !answered && refused(&*model.0, input).is_none() {
                    remote.ask(id, model, input.clone(), options.clone());
                }
            });
        });
    }
    Memo::new(move |_| {
        let model = model.get();
        let elsewhere = elsewhere.get().is_some();
        request.with(|(input, options)| {
            if !elsewhere {
                let e = crate::timed!(Compute, model.0.forward(input, options));
                return Some(e.map(|e| Shared(Arc::new(e))));
            }
            if let Some(e) = refused(&*model.0, input) {
                return Some(Err(e));
            }
            answer.with(|a| a.as_ref().filter(|a| a.answers(&model, input, options)).map(|a| a.result.clone()))
        })
    })
}

/// Why `model` cannot read `input`, if it cannot: said at once, without asking the worker.
fn refused(model: &dyn Model, input: &Input) -> Option<ModelError> {
    let query = model.tokenize(&input.text).err().map(|p| p.of("query"));
    let kv = || input.kv_text.as_deref().and_then(|t| model.tokenize(t).err()).map(|p| p.of("key/value"));
    query.or_else(kv)
}

/// The worker's answer to the latest question, with what it was asked.
#[derive(Debug, Clone, PartialEq)]
struct Answered {
    model: Shared<dyn Model>,
    input: Input,
    options: RunOptions,
    result: Computed,
}

impl Answered {
    /// It is the answer to `model` on `input` under `options`.
    fn answers(&self, model: &Shared<dyn Model>, input: &Input, options: &RunOptions) -> bool {
        self.model == *model && self.input == *input && self.options == *options
    }
}

/// The forward worker as the page's state keeps it: started by the first question.
#[derive(Clone, Copy)]
struct Remote {
    forwarder: StoredValue<Option<Forwarder>, LocalStorage>,
    answer: RwSignal<Option<Answered>>,
}

impl Remote {
    fn new(answer: RwSignal<Option<Answered>>) -> Self {
        Self { forwarder: StoredValue::new_local(None), answer }
    }

    /// End the worker, if one runs (a question in flight is dropped with it).
    fn end(self) {
        self.forwarder.set_value(None);
    }

    /// Ask the worker for `model` (the registry's `id`) on `input`.
    fn ask(self, id: ModelId, model: Shared<dyn Model>, input: Input, options: RunOptions) {
        let answer = self.answer;
        if self.forwarder.with_value(Option::is_none) {
            let told = move |reply: Reply| {
                let (q, model) = (reply.asked.question, Shared(reply.asked.model));
                let result = reply.result.map(|e| Shared(Arc::new(e)));
                answer.set(Some(Answered { model, input: q.input, options: q.options, result }));
            };
            self.forwarder.set_value(Forwarder::new(told));
        }
        self.forwarder
            .with_value(|f| f.iter().for_each(|f| f.ask(id, Arc::clone(&model.0), input.clone(), options.clone())));
    }
}
