//! A model on its way (downloading, or not yet read from the browser's storage): it knows the
//! shape it will have, or the largest it may have, and reads sentences by a rough rule that
//! counts no more tokens than the model will, so a link that names the model can be read before
//! it arrives. Meanwhile it shows another model's numbers (labelled as that model's), or says
//! why there are none.

use super::{Encoding, Input, Model, ModelError, RunOptions, SentenceProblem, Shape, Token};
use crate::projections::Projections;
use std::sync::Arc;

/// What a stand-in shows while it waits.
#[derive(Debug, Clone)]
pub enum Meanwhile {
    /// This model's numbers (the page labels them as its own).
    Show(Arc<dyn Model>),
    /// Nothing, for this reason.
    Refuse(ModelError),
}

/// A model that is not here yet.
#[derive(Debug, Clone)]
pub struct Standin {
    shape: Shape,
    /// Its rough reading of a sentence, special tokens included.
    rough: fn(&str) -> Vec<String>,
    meanwhile: Meanwhile,
}

impl Standin {
    /// A stand-in of `shape` (the model's own, or its largest), reading sentences by `rough`.
    pub fn new(shape: Shape, rough: fn(&str) -> Vec<String>, meanwhile: Meanwhile) -> Self {
        Self { shape, rough, meanwhile }
    }
}

impl Model for Standin {
    fn shape(&self) -> &Shape {
        &self.shape
    }

    fn tokenize(&self, text: &str) -> Result<Vec<Token>, SentenceProblem> {
        let tokens = (self.rough)(text);
        // A framed sentence of nothing but its frame is no sentence.
        let frame = if self.shape.framed { 2 } else { 0 };
        if tokens.len() <= frame {
            return Err(SentenceProblem::NoTokens);
        }
        SentenceProblem::within(tokens.len(), self.shape.max_tokens)?;
        Ok(tokens.into_iter().map(|text| Token { id: 0, text }).collect())
    }

    fn forward(&self, input: &Input, options: &RunOptions) -> Result<Encoding, ModelError> {
        match &self.meanwhile {
            Meanwhile::Show(model) => model.forward(input, options),
            Meanwhile::Refuse(e) => Err(e.clone()),
        }
    }

    fn on_its_way(&self) -> bool {
        true
    }

    fn layer_projections(&self) -> Vec<Arc<Projections>> {
        match &self.meanwhile {
            Meanwhile::Show(model) => model.layer_projections(),
            Meanwhile::Refuse(_) => vec![],
        }
    }
}
