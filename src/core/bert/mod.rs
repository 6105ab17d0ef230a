//! Real, pretrained Transformers: all-MiniLM-L6-v2 (a 6-layer BERT encoder) and
//! multilingual-e5-small (12 layers, XLM-RoBERTa's vocabulary), from their files to every
//! layer's attention trace. The file format ([`asset`]), the tokenizers ([`wordpiece`], with
//! its character rules in [`chars`]; [`unigram`]), the model and its forward pass as
//! one implementation of `model::Model` ([`model`]), and the case study's measurements
//! ([`study`]). Nothing here knows about the web.

pub mod asset;
pub mod chars;
pub mod model;
pub mod unigram;
pub mod wordpiece;

pub use crate::model::Cutting;
pub use asset::{Asset, AssetError, Tensor};
pub use model::{minilm_shape, Bert, BertFrame, Config, Tokenizer, E5, MINILM, MINILM_NAME, MINILM_TOKENS, PRETRAINED};
pub use unigram::Unigram;
pub use wordpiece::Vocab;
