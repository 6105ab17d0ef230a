//! A real, pretrained Transformer: all-MiniLM-L6-v2 (a 6-layer BERT encoder), from its file
//! to every layer's attention trace. The file format ([`asset`]), the tokenizer
//! ([`wordpiece`], with its character rules in [`chars`]), the model and its forward pass as
//! one implementation of `model::Model` ([`model`]), and the case study's measurements
//! ([`study`]). Nothing here knows about the web.

pub mod asset;
pub mod chars;
pub mod model;
pub mod unigram;
pub mod wordpiece;

pub use asset::{Asset, AssetError, Tensor};
pub use model::{minilm_shape, Bert, BertFrame, MINILM, MINILM_NAME, MINILM_TOKENS};
pub use unigram::Unigram;
pub use wordpiece::Vocab;
