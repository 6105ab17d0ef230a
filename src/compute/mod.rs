//! Forward passes off the page's thread: a Web Worker (the `forward` binary, its own .wasm
//! instance, fetched the first time a model that runs there is shown) brings the downloaded
//! model itself (`crate::fetch`, from the cache the page filled) and computes what the page
//! asks; the page keeps one question in flight and only the latest waiting, drops answers
//! nobody wants any more, and draws the rest. [`client`] is the page's side, [`worker`] the
//! worker's; [`message`] what they say; [`sweeper`] runs a head-importance sweep in a worker
//! of its own. The encodings cross as plain numbers
//! (`core::model::wire`), moved, not copied.

pub mod client;
pub mod message;
pub mod sweeper;
pub mod worker;
