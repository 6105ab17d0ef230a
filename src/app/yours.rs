//! The learner's own trained model in the lesson. The training view's "Open in the lesson"
//! keeps it in the browser's storage (so a reload finds it) and fires [`TRAINED_EVENT`]; the
//! page reads it whenever its weights are asked for and the settings do not know it (first
//! use, or settings rebuilt from the URL by Back/Forward), and again at each event.

use super::page::{Page, Shared};
use crate::core::scenario::Source;
use crate::core::train::lesson::Trained;
use crate::settings::YoursShape;
use leptos::prelude::*;
use std::sync::Arc;

/// The storage key the model is kept under, as `Trained::to_text` writes it.
pub const TRAINED_KEY: &str = "attention-lab-trained";
/// Fired on the window when a new model has been kept.
pub const TRAINED_EVENT: &str = "attention-lab-trained";

/// Read the model when the weights ask for it, and whenever the training view keeps a new one.
pub fn read_when_asked(page: Page) {
    let unknown = page.pick(|s| s.source == Source::Yours && s.yours.is_none());
    Effect::new(move |_| {
        if unknown.get() {
            read(page);
        }
    });
    let listener = window_event_listener_untyped(TRAINED_EVENT, move |_| read(page));
    on_cleanup(move || listener.remove());
}

/// The kept model, or none if there is none or it cannot be read (then the lesson says so).
fn read(page: Page) {
    let storage = window().local_storage().ok().flatten();
    let text = storage.and_then(|s| s.get_item(TRAINED_KEY).ok().flatten());
    let model = text.as_deref().and_then(Trained::parse);
    let shape = model.as_ref().map(|m| YoursShape {
        heads: m.heads,
        layers: m.layers.len(),
        context: m.context(),
        tokens: m.vocab.clone().into(),
        example: m.sentence(&m.example),
    });
    page.yours.set(model.map(|m| Shared(Arc::new(m))));
    page.apply(|s| s.set_yours(shape.clone()));
}
