//! The page's Leptos interface. State lives in [`App`] (see `page`); components read it through
//! the [`page::Page`] context and own only their local UI state.
//!
//! - `charts`: the page's figures (`crate::figures` with the page's ink, language, files);
//! - `stages`, `stepper`: the seven-stage lesson; `saturation`: the √d_k slider experiment;
//! - `views`: the deeper lessons; `controls`, `header`, `share`: what the learner sets;
//! - `model_loader`: brings the models the registry fetches or reads from storage;
//! - `keys`, `url_sync`: the keyboard and the address bar; `updates`: new published versions.

#[cfg(feature = "bench")]
mod bench;
mod clipboard;
pub(crate) mod controls;
mod forward;
mod header;
pub(crate) mod keys;
mod model_loader;
mod module_host;
pub mod page;
pub(crate) mod ports;
mod root;
mod saturation;
mod share;
pub(crate) mod stages;
mod stepper;
mod updates;
pub(crate) mod url_sync;
mod view_link;
mod views;

pub use root::App;
