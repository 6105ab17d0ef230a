//! A real, pretrained Transformer: all-MiniLM-L6-v2 (a 6-layer BERT encoder), from its file
//! to every layer's attention trace. The file format ([`asset`]), the tokenizer
//! ([`wordpiece`], with its character rules in [`chars`]), the parts around attention ([`layers`]), the model ([`model`]) and the
//! forward pass ([`forward`]). Nothing here knows about the web.

pub mod asset;
pub mod chars;
pub mod forward;
pub mod layers;
pub mod model;
pub mod study;
pub mod wordpiece;

pub use asset::{Asset, AssetError, Tensor};
pub use forward::{forward, similarity, Encoding, LayerOutcome};
pub use model::{Model, MINILM, MINILM_NAME};
pub use wordpiece::{Piece, Vocab};
