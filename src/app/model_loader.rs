//! Brings into the page the models the registry does not make there (`models::Delivery`):
//! a downloaded file when the lesson first asks for it (`crate::fetch`: from the browser's
//! cache, else downloaded with its progress shown and checked), and the learner's own model,
//! read from the browser's storage when asked for, and again when the training view keeps a
//! new one.

use super::page::Page;
use crate::core::model::{Model, ModelError};
use crate::fetch::{bring, LoadState};
use crate::models::{Arrival, Delivery, Download, ModelId};
use leptos::prelude::*;
use std::sync::Arc;

/// Bring the lesson's model when the settings first ask for it and a view reads the lesson (a
/// download again after a retry sets its state back to idle): the models' own views bring
/// theirs themselves, and a tab opened on one of them need not hold the lesson's copy too.
pub fn load_when_asked(page: Page) {
    Effect::new(move |_| {
        let (id, reads) = page.settings.with(|s| (s.choice().id(), s.view().reads_lesson()));
        if !reads {
            return;
        }
        let arrived = page.models.with(|m| m.arrival(id).is_some());
        match id.delivery() {
            Delivery::Made => {}
            Delivery::Stored { key, parse } if !arrived => read_stored(page, id, key, parse),
            Delivery::Download(download) if !arrived && page.load_state(id) == LoadState::Idle => {
                download_model(page, id, download)
            }
            _ => {}
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

/// Download (or read from the cache) the model's file, with its progress in the page's load
/// state. The model arrives before the state goes back to idle, which must not start another
/// download.
fn download_model(page: Page, id: ModelId, download: Download) {
    bring(
        download,
        // The download may end after the page is gone (a test's mount dropped).
        move |state| {
            if !page.models.is_disposed() {
                page.set_load_state(id, state)
            }
        },
        move |model| {
            if !page.models.is_disposed() {
                page.arrive(id, Arrival::Ready(model))
            }
        },
    );
}
