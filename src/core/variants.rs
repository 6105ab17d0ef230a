//! Self, causal and cross attention over one outcome's sentence. The three differ only in
//! where K and V come from and which pairs are blocked; the tokens, embeddings, weights,
//! scaling and temperature are the outcome's own, and the outcome's trace is reused for the
//! variant it already is, so only the other two are computed.

use super::attention::{run, AttentionConfig, Mask};
use super::embed::input_matrix;
use super::scenario::{checked_tokens, Outcome, ScenarioError};
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

/// The variants of `o`'s sentence; `kv_text` is the second sentence, used when `o` is not
/// cross-attention already (then its own key/value side is used). `max_tokens` bounds it.
pub fn variants(o: &Outcome, kv_text: &str, max_tokens: usize) -> Result<Variants, ScenarioError> {
    let s = &o.scenario;
    let (kv_tokens, x_kv) = match &o.trace.x_kv {
        Some(x_kv) => (o.kv_tokens.clone(), x_kv.clone()),
        None => {
            let tokens = checked_tokens(kv_text, "key/value", max_tokens)?;
            let x_kv = input_matrix(&tokens, s.d_model, s.seed, s.positional).map_err(ScenarioError::Attention)?;
            (tokens, x_kv)
        }
    };
    let traces = Variant::ALL
        .iter()
        .map(|&v| {
            if v.mask() == o.trace.mask && v.is_cross() == o.trace.is_cross() {
                return Ok(o.trace.clone());
            }
            let cfg = AttentionConfig { mask: v.mask(), ..s.config() };
            run(&o.trace.x, v.is_cross().then_some(&x_kv), &o.weights, &cfg).map_err(ScenarioError::Attention)
        })
        .collect::<Result<_, _>>()?;
    Ok(Variants { kv_tokens, traces })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::{compute, Scenario};

    #[test]
    fn each_variant_equals_computing_that_scenario_on_its_own() {
        let kv = "Le chat est fatigué";
        for own in [Scenario::default(), Scenario { mask: Mask::Causal, temperature: 0.5, ..Scenario::default() }] {
            let o = compute(&own, 64).unwrap();
            let v = variants(&o, kv, 64).unwrap();
            for variant in Variant::ALL {
                let alone = Scenario {
                    mask: variant.mask(),
                    kv_text: variant.is_cross().then(|| kv.to_string()),
                    ..own.clone()
                };
                let want = compute(&alone, 64).unwrap().trace;
                assert_eq!(v.trace(variant), Some(&want), "{variant:?} of {own:?}");
            }
            assert_eq!(v.kv_tokens, ["Le", "chat", "est", "fatigué"]);
        }
    }

    #[test]
    fn a_cross_outcome_keeps_its_own_second_sentence() {
        let o = compute(&Scenario { kv_text: Some("猫很累".into()), ..Scenario::default() }, 64).unwrap();
        let v = variants(&o, "ignored here", 64).unwrap();
        assert_eq!(v.kv_tokens, ["猫", "很", "累"]);
        assert_eq!(v.trace(Variant::Cross), Some(&o.trace));
        assert_eq!(v.trace(Variant::Causal).map(|t| t.n()), Some((11, 11)));
    }

    #[test]
    fn a_bad_second_sentence_is_an_error_not_a_gap() {
        let o = compute(&Scenario::default(), 64).unwrap();
        assert_eq!(variants(&o, " ", 64).unwrap_err(), ScenarioError::NoTokens { which: "key/value" });
    }
}
