//! Self, causal and cross attention over one outcome's sentence. The three differ only in
//! where K and V come from and which pairs are blocked; the tokens, embeddings, weights,
//! scaling and temperature are the outcome's own, and the outcome's trace is reused for the
//! variant it already is, so only the other two are computed.

use super::attention::{run, Mask};
use super::model::{Input, Model, ModelError, Outcome, Token};
use super::trace::Trace;
use ndarray::Array2;

crate::slugged! {
    /// One of the three ways to run attention over a sentence.
    pub enum Variant {
        /// Q, K and V from the same sentence, every pair allowed.
        SelfAttention = "self",
        /// The same, with the future blocked.
        Causal = "causal",
        /// Q from the sentence, K and V from a second one.
        Cross = "cross",
    }
}

impl Variant {
    /// The mask this variant runs with.
    pub fn mask(self) -> Mask {
        if self == Variant::Causal {
            Mask::Causal
        } else {
            Mask::None
        }
    }

    /// Whether keys and values come from the second sentence.
    pub fn is_cross(self) -> bool {
        self == Variant::Cross
    }
}

/// The three traces (the cross one, or why there is none), and the key/value tokens of the
/// cross one.
#[derive(Debug, Clone, PartialEq)]
pub struct Variants {
    /// Columns of the cross-attention trace (none when there is no cross-attention).
    pub kv_tokens: Vec<String>,
    /// The self-attention and the causal trace, in the order of [`Variant::ALL`].
    within: [Trace; 2],
    /// The cross-attention trace, or why there is none: a model that reads one sentence, a
    /// second sentence the model cannot read. The other two do not need it.
    cross: Result<Trace, ModelError>,
}

impl Variants {
    /// The trace of `variant` (`None`: the cross-attention one, which could not be computed).
    pub fn trace(&self, variant: Variant) -> Option<&Trace> {
        match variant {
            Variant::Cross => self.cross.as_ref().ok(),
            _ => self.within.get(variant.index()),
        }
    }

    /// Why there is no cross-attention trace, if there is none.
    pub fn cross_error(&self) -> Option<&ModelError> {
        self.cross.as_ref().err()
    }
}

/// The variants of `o`'s sentence, computed by `model` (the one that made `o`); `kv_text` is
/// the second sentence, used when `o` is not cross-attention already (then its own key/value
/// side is used): its X is the model's own first-layer input for it. A model that reads one
/// sentence only, or a second sentence it cannot read, leaves out cross-attention alone.
pub fn variants(model: &dyn Model, o: &Outcome, kv_text: &str) -> Result<Variants, ModelError> {
    let trace = o.trace();
    let n_heads = trace.n_heads();
    let one = |v: Variant, x_kv: Option<&Array2<f32>>| -> Result<Trace, ModelError> {
        if v.mask() == trace.mask && v.is_cross() == trace.is_cross() {
            return Ok(trace.clone());
        }
        let options = super::model::RunOptions { mask: v.mask(), ..o.encoding.options.clone() };
        Ok(run(&trace.x, x_kv, o.projections(), &options.attention(o.layer, n_heads))?)
    };
    let within = [one(Variant::SelfAttention, None)?, one(Variant::Causal, None)?];
    let second = match &trace.x_kv {
        Some(x_kv) => Ok((o.kv_tokens.clone(), x_kv.clone())),
        None if !o.shape().cross => Err(ModelError::OneSentence),
        None => {
            let alone = Input { text: kv_text.to_string(), kv_text: None };
            model.forward(&alone, &o.encoding.options).map_err(|e| e.for_sentence("key/value")).and_then(|e| {
                let x_kv = e.layers.first().map(|l| l.trace.x.clone()).ok_or(ModelError::OneSentence)?;
                Ok((Token::texts(&e.tokens), x_kv))
            })
        }
    };
    let (kv_tokens, cross) = match second {
        Ok((tokens, x_kv)) => (tokens, one(Variant::Cross, Some(&x_kv))?),
        Err(e) => return Ok(Variants { kv_tokens: vec![], within, cross: Err(e) }),
    };
    Ok(Variants { kv_tokens, within, cross: Ok(cross) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::random::{Random, RandomSetup};
    use crate::model::{Encoding, RunOptions, Shape};
    use std::sync::Arc;

    const SENTENCE: &str = "the animal didn't cross the street because it was too tired";

    fn random() -> Random {
        Random::new(RandomSetup::default(), 64, Arc::default())
    }

    fn outcome(model: &dyn Model, kv_text: Option<&str>, options: &RunOptions) -> Outcome {
        let input = Input { text: SENTENCE.into(), kv_text: kv_text.map(String::from) };
        Outcome::new(Arc::new(model.forward(&input, options).unwrap()), 0).unwrap()
    }

    #[test]
    fn each_variant_equals_computing_that_scenario_on_its_own() {
        let (kv, model) = ("Le chat est fatigué", random());
        for own in [RunOptions::default(), RunOptions { mask: Mask::Causal, temperature: 0.5, ..RunOptions::default() }]
        {
            let o = outcome(&model, None, &own);
            let v = variants(&model, &o, kv).unwrap();
            for variant in Variant::ALL {
                let alone = RunOptions { mask: variant.mask(), ..own.clone() };
                let want = outcome(&model, variant.is_cross().then_some(kv), &alone);
                assert_eq!(v.trace(variant), Some(want.trace()), "{variant:?} of {own:?}");
            }
            assert_eq!(v.kv_tokens, ["Le", "chat", "est", "fatigué"]);
        }
    }

    #[test]
    fn a_cross_outcome_keeps_its_own_second_sentence() {
        let model = random();
        let o = outcome(&model, Some("猫很累"), &RunOptions::default());
        let v = variants(&model, &o, "ignored here").unwrap();
        assert_eq!(v.kv_tokens, ["猫", "很", "累"]);
        assert_eq!(v.trace(Variant::Cross), Some(o.trace()));
        assert_eq!(v.trace(Variant::Causal).map(|t| t.n()), Some((11, 11)));
    }

    #[test]
    fn a_bad_second_sentence_is_the_cross_variants_error_not_a_gap() {
        let model = random();
        let o = outcome(&model, None, &RunOptions::default());
        let v = variants(&model, &o, " ").unwrap();
        assert_eq!(v.cross_error(), Some(&ModelError::NoTokens { which: "key/value" }));
        assert_eq!(v.trace(Variant::Cross), None);
        assert_eq!(v.trace(Variant::SelfAttention), Some(o.trace()), "self-attention does not need it");
        assert_eq!(v.trace(Variant::Causal).map(|t| t.n()), Some((11, 11)));
    }

    /// A pretrained encoder reads one sentence: its self and causal attention are shown, and
    /// cross-attention alone says why it is not (fresh run H's random walk ended on a variants
    /// view with nothing drawn, the whole view refused for the one variant it lacks).
    #[test]
    fn a_model_that_reads_one_sentence_has_self_and_causal_attention_and_says_why_no_cross() {
        let model = random();
        let o = outcome(&model, None, &RunOptions::default());
        let one_sentence = Outcome {
            encoding: Arc::new(Encoding {
                shape: Shape { cross: false, ..o.shape().clone() },
                ..(*o.encoding).clone()
            }),
            ..o.clone()
        };
        let v = variants(&model, &one_sentence, "Le chat est fatigué").unwrap();
        assert_eq!(v.cross_error(), Some(&ModelError::OneSentence));
        assert_eq!(v.trace(Variant::SelfAttention), Some(o.trace()));
        let causal = outcome(&model, None, &RunOptions { mask: Mask::Causal, ..RunOptions::default() });
        assert_eq!(v.trace(Variant::Causal), Some(causal.trace()));
    }
}
