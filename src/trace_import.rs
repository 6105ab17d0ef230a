//! The inverse of `export::trace_json`: the shown layer's trace read back from the page's JSON
//! export, as an [`Outcome`] of one layer. The side lessons' module gets the lesson's numbers
//! this way (`side::handover`), exactly as the page computed them: every array is read, not
//! recomputed, except what the page itself derives from them (a head's Q_h, K_h, V_h are
//! columns of Q, K, V; its scaled scores are its scores ÷ the scale, the same f32 division the
//! core does; its output is A·V_h by the core's own product); the mask is rebuilt from its name
//! (the lesson runs no key padding).

use crate::core::bert::{Config, PRETRAINED};
use crate::core::kernels::matmul;
use crate::core::mask::{causal_mask, Mask};
use crate::core::model::{Encoding, InputRule, LayerTrace, Origin, Outcome, RunOptions, Shape, Token};
use crate::core::projections::Projections;
use crate::core::trace::{HeadTrace, Trace};
use ndarray::{concatenate, s, Array1, Array2, Axis};
use serde_json::Value;
use std::sync::Arc;

/// A (rows, cols) matrix of JSON numbers (null stands for −∞, which JSON cannot write).
fn matrix(m: &Value, shape: (usize, usize)) -> Option<Array2<f32>> {
    let mut data = Vec::with_capacity(shape.0 * shape.1);
    for row in m.as_array()? {
        data.extend(row.as_array()?.iter().map(|x| x.as_f64().map_or(f32::NEG_INFINITY, |x| x as f32)));
    }
    Array2::from_shape_vec(shape, data).ok()
}

fn strings(v: &Value, key: &str) -> Option<Vec<String>> {
    v.get(key)?.as_array()?.iter().map(|s| s.as_str().map(String::from)).collect()
}

fn size(v: &Value, key: &str) -> Option<usize> {
    v.get(key)?.as_u64().and_then(|n| usize::try_from(n).ok())
}

/// The pretrained model the export names, if it names one.
fn pretrained(v: &Value) -> Option<Config> {
    let name = v.get("model")?.as_str()?;
    PRETRAINED.into_iter().find(|c| c.name == name)
}

/// The projections as exported (W_Q … W_O, and the biases if any).
fn projections(v: &Value, d_model: usize) -> Option<Projections> {
    let w = |key: &str| matrix(v.get(key)?, (d_model, d_model));
    let p = Projections::from_matrices(w("w_q")?, w("w_k")?, w("w_v")?, w("w_o")?).ok()?;
    let Some(b_q) = v.get("b_q") else { return Some(p) };
    let vector =
        |b: &Value| -> Option<Array1<f32>> { b.as_array()?.iter().map(|x| x.as_f64().map(|x| x as f32)).collect() };
    let biases = [b_q, v.get("b_k")?, v.get("b_v")?, v.get("b_o")?].map(vector);
    let [b_q, b_k, b_v, b_o] = biases;
    p.with_biases([b_q?, b_k?, b_v?, b_o?]).ok()
}

/// The outcome the export `json` describes, or `None` if it is not one.
pub fn outcome_from_export(json: &str) -> Option<Outcome> {
    let v: Value = serde_json::from_str(json).ok()?;
    let (tokens, kv_tokens) = (strings(&v, "tokens")?, strings(&v, "kv_tokens")?);
    let (n_q, n_kv) = (tokens.len(), kv_tokens.len());
    let (d_model, n_heads) = (size(&v, "d_model")?, size(&v, "heads")?);
    let cross = v.get("x_kv").is_some();
    if n_q == 0 || n_kv == 0 || n_heads == 0 || d_model % n_heads != 0 || (!cross && n_q != n_kv) {
        return None;
    }
    let d_k = d_model / n_heads;
    let expected = v.get("expected")?;
    let whole = |key: &str, rows: usize| matrix(expected.get(key)?, (rows, d_model));
    let (q, k, values, output) = (whole("q", n_q)?, whole("k", n_kv)?, whole("v", n_kv)?, whole("output", n_q)?);
    let x = matrix(v.get("x")?, (n_q, d_model))?;
    let x_kv = match v.get("x_kv") {
        Some(m) => Some(matrix(m, (n_kv, d_model))?),
        None => None,
    };
    let scaled = v.get("scaled")?.as_bool()?;
    let scale = if scaled { (d_k as f32).sqrt() } else { 1.0 };
    let temperature = v.get("temperature").and_then(Value::as_f64).map_or(1.0, |t| t as f32);
    let mask = Mask::from_slug(v.get("mask")?.as_str()?)?;
    if mask == Mask::Causal && n_q != n_kv {
        return None;
    }
    let blocked = if mask == Mask::Causal { causal_mask(n_q) } else { Array2::from_elem((n_q, n_kv), false) };
    let per_head = |key: &str, h: usize| matrix(expected.get(key)?.get(h)?, (n_q, n_kv));
    let head_traces = (0..n_heads)
        .map(|h| {
            let columns = |m: &Array2<f32>| m.slice(s![.., h * d_k..(h + 1) * d_k]).to_owned();
            let (scores, weights) = (per_head("scores", h)?, per_head("weights", h)?);
            let v_h = columns(&values);
            Some(HeadTrace {
                q: columns(&q),
                k: columns(&k),
                output: matmul(weights.view(), v_h.view()),
                v: v_h,
                scaled_scores: &scores / scale,
                scores,
                weights,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    let outputs: Vec<_> = head_traces.iter().map(|h| h.output.view()).collect();
    let concat = concatenate(Axis(1), &outputs).ok()?;
    let projections = Arc::new(projections(&v, d_model)?);
    let trace = Trace {
        x: x.clone(),
        x_kv,
        q,
        k,
        v: values,
        blocked,
        mask,
        scaled,
        scale,
        temperature,
        d_k,
        head_traces,
        concat,
        output,
    };
    let seeded = v.get("model").is_none();
    let origin = if seeded {
        Origin::Seeded { seed: v.get("seed").and_then(Value::as_u64).unwrap_or(0) }
    } else {
        Origin::Yours
    };
    let input = if seeded {
        InputRule::Sinusoidal { on: v.get("positional_encoding").and_then(Value::as_bool) == Some(true) }
    } else {
        match v.get("positions").and_then(Value::as_str) {
            Some("sinusoidal") => InputRule::SinusoidalTrained,
            Some("rope") => InputRule::Rotary,
            _ => InputRule::Learned,
        }
    };
    let made = Shape {
        n_layers: 1,
        n_heads,
        kv_heads: v.get("kv_heads").and_then(Value::as_u64).map_or(n_heads, |k| k as usize),
        d_model,
        max_tokens: n_q.max(n_kv),
        causal: mask == Mask::Causal,
        scaled,
        input,
        framed: false,
        unknown: None,
        cross,
        biases: v.get("b_q").is_some(),
        origin,
    };
    // A pretrained model's own shape (its frame, its unknown token), with the one layer shown.
    let shape = pretrained(&v).map_or(made, |c| Shape { n_layers: 1, ..c.shape() });
    let token = |text: &String| Token { id: 0, text: text.clone() };
    let options = RunOptions { mask, scaled, temperature, ..RunOptions::default() };
    let encoding = Encoding {
        shape,
        options,
        tokens: tokens.iter().map(token).collect(),
        kv_tokens: cross.then(|| kv_tokens.iter().map(token).collect()),
        embedding: x,
        position: None,
        layers: vec![LayerTrace { trace, projections, block: None }],
    };
    Outcome::new(Arc::new(encoding), 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::trace_json;
    use crate::i18n::Lang;
    use crate::reading::tests::outcome;

    #[test]
    fn the_export_reads_back_as_the_trace_it_was_written_from() {
        let o = outcome(Lang::En, |_, _| {});
        let back = outcome_from_export(&trace_json(&o, "lesson")).expect("reads the export");
        let (a, b) = (o.trace(), back.trace());
        assert_eq!((&back.tokens, &back.kv_tokens), (&o.tokens, &o.kv_tokens));
        assert_eq!(
            (&a.x, &a.q, &a.k, &a.v, &a.blocked, a.mask, a.scale),
            (&b.x, &b.q, &b.k, &b.v, &b.blocked, b.mask, b.scale)
        );
        assert_eq!(a.head_traces, b.head_traces, "every head, Q_h to A·V_h, the same numbers");
        assert_eq!((&a.concat, &a.output), (&b.concat, &b.output));
        assert_eq!(back.shape().origin, o.shape().origin);
        assert!(outcome_from_export("{}").is_none() && outcome_from_export("not json").is_none());
    }
}
