//! The numeric core of Attention Lab: everything the site shows is computed here.
//!
//! Pure Rust on `ndarray` and `std` only — nothing from the web — so it is tested natively
//! and fast. It is a crate of its own (`attention-core`, this folder), so the release build can
//! optimise it for speed while the interface is optimised for size; the site re-exports it
//! as `attention_lab::core`. Dimension names follow the papers: `n_q` query tokens, `n_kv` key/value tokens,
//! `d_model` the model width, `heads` the number of heads and `d_k = d_model / heads`.
//!
//! The entry point is [`attention::run`], which returns a [`trace::Trace`] holding every
//! intermediate so the UI only reads and never recomputes.

pub mod slug;

pub mod attention;
pub mod bert;
pub mod choices;
pub mod convex;
pub mod cost;
pub mod embed;
pub mod error;
pub mod explain;
pub mod flash;
pub use attention_kernels as kernels;
pub mod linear;
pub mod order;
pub mod patterns;
pub mod position;
pub mod readouts;
pub mod rng;
pub mod saturation;
pub mod scenario;
pub mod softmax;
pub mod tokenize;
pub mod trace;
pub mod train;
pub mod variance;
pub mod variants;
pub mod weights;

pub use attention::{run, AttentionConfig, Mask};
pub use error::AttnError;
pub use trace::{HeadTrace, Trace};
pub use weights::Weights;
