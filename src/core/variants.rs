//! Self, causal and cross attention over one outcome's sentence. The three differ only in
//! where K and V come from and which pairs are blocked; the tokens, embeddings, weights,
//! scaling and temperature are the outcome's own, and the outcome's trace is reused for the
//! variant it already is, so only the other two are computed.

use super::attention::{run, Mask};
use super::model::{Input, Model, ModelError, Outcome, Token};
use super::trace::Trace;

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

/// The three traces, and the key/value tokens of the cross one.
#[derive(Debug, Clone, PartialEq)]
pub struct Variants {
    /// Columns of the cross-attention trace.
    pub kv_tokens: Vec<String>,
    /// One trace per [`Variant`], in the order of [`Variant::ALL`].
    traces: Vec<Trace>,
}

impl Variants {
    /// The trace of `variant`.
    pub fn trace(&self, variant: Variant) -> Option<&Trace> {
        self.traces.get(variant.index())
    }
}

/// The variants of `o`'s sentence, computed by `model` (the one that made `o`); `kv_text` is
/// the second sentence, used when `o` is not cross-attention already (then its own key/value
/// side is used): its X is the model's own first-layer input for it. A model that reads one
/// sentence only has no cross-attention to show.
pub fn variants(model: &dyn Model, o: &Outcome, kv_text: &str) -> Result<Variants, ModelError> {
    let trace = o.trace();
    let (kv_tokens, x_kv) = match &trace.x_kv {
        Some(x_kv) => (o.kv_tokens.clone(), x_kv.clone()),
        None if !o.shape().cross => return Err(ModelError::OneSentence),
        None => {
            let alone = Input { text: kv_text.to_string(), kv_text: None };
            let e = model.forward(&alone, &o.encoding.options).map_err(|e| e.for_sentence("key/value"))?;
            let x_kv = e.layers.first().map(|l| l.trace.x.clone()).ok_or(ModelError::OneSentence)?;
            (Token::texts(&e.tokens), x_kv)
        }
    };
    let n_heads = trace.n_heads();
    let traces = Variant::ALL
        .iter()
        .map(|&v| {
            if v.mask() == trace.mask && v.is_cross() == trace.is_cross() {
                return Ok(trace.clone());
            }
            let options = super::model::RunOptions { mask: v.mask(), ..o.encoding.options.clone() };
            let cfg = options.attention(o.layer, n_heads);
            Ok(run(&trace.x, v.is_cross().then_some(&x_kv), o.projections(), &cfg)?)
        })
        .collect::<Result<_, ModelError>>()?;
    Ok(Variants { kv_tokens, traces })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::random::{Random, RandomSetup};
    use crate::model::RunOptions;
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
    fn a_bad_second_sentence_is_an_error_not_a_gap() {
        let model = random();
        let o = outcome(&model, None, &RunOptions::default());
        assert_eq!(variants(&model, &o, " ").unwrap_err(), ModelError::NoTokens { which: "key/value" });
    }
}
