//! The numeric core of Attention Lab: everything the site shows is computed here.
//!
//! Pure Rust on `ndarray` and `std` only — nothing from the web — so it is tested natively
//! and fast. It is a crate of its own (`attention-core`, this folder), built for size like the
//! site; only the loops it runs on, the `attention-kernels` crate (`src/kernels`), are built
//! for speed. The site re-exports it as `attention_lab::core`. Dimension names follow the
//! papers: `n_q` query tokens, `n_kv` key/value tokens, `d_model` the model width, `n_heads`
//! the number of heads and `d_k = d_model / n_heads`.
//!
//! Every model the lesson shows is one implementation of [`model::Model`], whose forward pass
//! returns an [`model::Encoding`]: one [`trace::Trace`] per layer from [`attention::run`],
//! every intermediate kept, so the UI only reads and never recomputes.

pub mod slug;

pub mod ablate;
pub mod attention;
pub mod bert;
pub mod block;
pub mod choices;
pub mod convex;
pub mod cost;
pub mod depth;
pub mod embed;
pub mod ends;
pub mod error;
pub mod explain;
pub mod flash;
pub mod intervene;
pub use attention_kernels as kernels;
pub mod linear;
pub mod mask;
pub mod model;
pub mod order;
pub mod padding;
pub mod patterns;
pub mod position;
pub mod projections;
pub mod readouts;
pub mod real;
pub mod rng;
pub mod rotary;
pub mod saturation;
pub mod softmax;
pub mod study;
pub mod tokenize;
pub mod trace;
pub mod train;
pub mod variance;
pub mod variants;
pub mod words;

pub use attention::run;
pub use attention::AttentionConfig;
pub use error::AttnError;
pub use mask::Mask;
pub use projections::Projections;
pub use trace::{HeadTrace, Trace};
