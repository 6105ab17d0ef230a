//! What the site lets a student take away: a matrix as CSV (with token labels), the whole
//! trace as JSON in the reference-fixture format (the keys `tests/golden.rs` reads, so the
//! file can be checked against another implementation), and file names that say what is in
//! them. Pure text building; the browser download is in the app.

use crate::core::attention::Mask;
use crate::core::model::{InputRule, Origin, Outcome, RunOptions, Shape};
use crate::settings::Stage;
use ndarray::{Array2, ArrayView2};

/// A CSV field: quoted when it holds a comma, quote or line break; a leading = + − @ is
/// neutralised with an apostrophe so spreadsheets never run a token as a formula.
fn field(s: &str) -> String {
    let s = if s.starts_with(['=', '+', '-', '@']) { format!("'{s}") } else { s.to_string() };
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}

/// `values` (rows, cols) as CSV: a header of column labels, then one labelled row per row.
pub fn to_csv(values: &Array2<f32>, row_labels: &[String], col_labels: &[String]) -> String {
    let mut out = String::from("token");
    for c in col_labels {
        out.push(',');
        out.push_str(&field(c));
    }
    out.push('\n');
    for (r, row) in values.rows().into_iter().enumerate() {
        out.push_str(&field(row_labels.get(r).map(String::as_str).unwrap_or("")));
        for v in row {
            out.push(',');
            out.push_str(&number(*v));
        }
        out.push('\n');
    }
    out
}

/// A number for JSON and CSV: shortest form that reads back as the same f32; −∞ (masked
/// logits) and NaN, which JSON cannot hold, become null.
fn number(v: f32) -> String {
    if v.is_finite() {
        format!("{v}")
    } else {
        "null".into()
    }
}

fn json_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn json_matrix(m: ArrayView2<f32>) -> String {
    let rows: Vec<String> = m
        .rows()
        .into_iter()
        .map(|r| format!("[{}]", r.iter().map(|v| number(*v)).collect::<Vec<_>>().join(",")))
        .collect();
    format!("[{}]", rows.join(","))
}

fn json_strings(items: &[String]) -> String {
    format!("[{}]", items.iter().map(|s| json_string(s)).collect::<Vec<_>>().join(","))
}

/// The whole trace as JSON with the reference-fixture keys, plus the tokens and what produced
/// them (read from the outcome itself: its model's origin says which keys describe it);
/// `name` names the file's content.
pub fn trace_json(o: &Outcome, name: &str) -> String {
    let (t, shape) = (o.trace(), o.shape());
    let per_head = |f: fn(&crate::core::trace::HeadTrace) -> &Array2<f32>| {
        format!("[{}]", t.head_traces.iter().map(|h| json_matrix(f(h).view())).collect::<Vec<_>>().join(","))
    };
    let mut fields = vec![
        ("name", json_string(name)),
        ("d_model", t.d_model().to_string()),
        ("heads", t.n_heads().to_string()),
        ("mask", json_string(t.mask.slug())),
        ("scaled", t.scaled.to_string()),
        ("temperature", number(t.temperature)),
    ];
    // The heads switched off ("L.H", from 1) and what they passed on: every map below is as
    // computed with them off.
    let ablation = &o.encoding.options.ablation;
    let ablated: Vec<String> = ablation.heads().iter().map(|(l, h)| format!("{}.{}", l + 1, h + 1)).collect();
    fields.extend([("ablated", json_strings(&ablated)), ("ablate_mode", json_string(ablation.replacement.slug()))]);
    if let Origin::Seeded { seed } = shape.origin {
        let positional = matches!(shape.input, InputRule::Sinusoidal { on: true });
        fields.extend([("seed", seed.to_string()), ("positional_encoding", positional.to_string())]);
    }
    fields.extend([
        ("tokens", json_strings(&o.tokens)),
        ("kv_tokens", json_strings(&o.kv_tokens)),
        ("x", json_matrix(t.x.view())),
    ]);
    if shape.origin == Origin::Yours {
        fields.extend([("model", json_string(shape.origin.tag())), ("layer", (o.layer + 1).to_string())]);
        let positions = match shape.input {
            InputRule::SinusoidalTrained => "sinusoidal",
            InputRule::Rotary => "rope",
            _ => "learned",
        };
        fields.extend([("kv_heads", shape.kv_heads.to_string()), ("positions", json_string(positions))]);
    }
    if let Some(x_kv) = &t.x_kv {
        fields.push(("x_kv", json_matrix(x_kv.view())));
    }
    let w = o.projections();
    fields.extend([
        ("w_q", json_matrix(w.w_q().view())),
        ("w_k", json_matrix(w.w_k().view())),
        ("w_v", json_matrix(w.w_v().view())),
        ("w_o", json_matrix(w.w_o().view())),
    ]);
    if let Some(biases) = &w.biases {
        let vector =
            |b: &ndarray::Array1<f32>| format!("[{}]", b.iter().map(|v| number(*v)).collect::<Vec<_>>().join(","));
        fields.extend(["b_q", "b_k", "b_v", "b_o"].into_iter().zip(biases.iter().map(vector)));
    }
    if let Origin::Pretrained { name: model, quantised, .. } = shape.origin {
        fields.extend([
            ("model", json_string(model)),
            // The site's copy, not the published weights: its numbers are close to those, not equal.
            ("copy", json_string(&quantised.described())),
            ("layer", (o.layer + 1).to_string()),
        ]);
        // Every layer's weights, heads × n × n, so the whole model's attention can be checked.
        let layers: Vec<String> = o
            .encoding
            .layers
            .iter()
            .map(|l| {
                let heads: Vec<String> = l.trace.head_traces.iter().map(|h| json_matrix(h.weights.view())).collect();
                format!("{{\"weights\":[{}]}}", heads.join(","))
            })
            .collect();
        fields.push(("layers", format!("[{}]", layers.join(","))));
    }
    let expected = [
        ("q", json_matrix(t.q.view())),
        ("k", json_matrix(t.k.view())),
        ("v", json_matrix(t.v.view())),
        ("scores", per_head(|h| &h.scores)),
        ("weights", per_head(|h| &h.weights)),
        ("output", json_matrix(t.output.view())),
    ];
    let object = |pairs: &[(&str, String)]| {
        format!("{{{}}}", pairs.iter().map(|(k, v)| format!("\"{k}\":{v}")).collect::<Vec<_>>().join(","))
    };
    let mut all: Vec<(&str, String)> = fields;
    all.push(("expected", object(&expected)));
    object(&all) + "\n"
}

/// "attention-lab_softmax_d64-h4-seed42-causal_weights-head1": what is in the file, from the
/// stage, the model shown (`shape`, its `layer`), how it ran, whether it was cross-attention,
/// and `what` (a stable slug, never translated text).
pub fn file_stem(stage: Stage, shape: &Shape, layer: usize, options: &RunOptions, cross: bool, what: &str) -> String {
    let mut stem = match shape.origin {
        Origin::Seeded { seed } => {
            format!("attention-lab_{}_d{}-h{}-seed{seed}", stage.slug(), shape.d_model, shape.n_heads)
        }
        Origin::Pretrained { .. } | Origin::Yours => {
            format!("attention-lab_{}_{}-layer{}", stage.slug(), shape.origin.tag(), layer + 1)
        }
    };
    if options.mask != Mask::None {
        stem.push('-');
        stem.push_str(options.mask.slug());
    }
    if !options.scaled {
        stem.push_str("-unscaled");
    }
    if cross {
        stem.push_str("-cross");
    }
    let what: String =
        what.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect();
    format!("{stem}_{}", what.trim_matches('-'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_has_token_labels_and_safe_fields() {
        let m = ndarray::arr2(&[[0.5, 0.25], [1.0, f32::NEG_INFINITY]]);
        let labels = vec!["it".to_string(), "=SUM(A1)".to_string()];
        let cols = vec!["a,b".to_string(), "say \"hi\"".to_string()];
        assert_eq!(to_csv(&m, &labels, &cols), "token,\"a,b\",\"say \"\"hi\"\"\"\nit,0.5,0.25\n'=SUM(A1),1,null\n");
    }

    #[test]
    fn file_names_say_what_they_hold() {
        use crate::core::model::random::{Random, RandomSetup};
        use crate::core::model::Model;
        let random = Random::new(RandomSetup::default(), 64, Default::default());
        let causal = RunOptions { mask: Mask::Causal, ..RunOptions::default() };
        assert_eq!(
            file_stem(Stage::Softmax, random.shape(), 0, &causal, false, "weights-head1"),
            "attention-lab_softmax_d64-h4-seed42-causal_weights-head1"
        );
        let unscaled = RunOptions { scaled: false, ..RunOptions::default() };
        assert_eq!(
            file_stem(Stage::Input, random.shape(), 0, &unscaled, true, "Odd Name!"),
            "attention-lab_input_d64-h4-seed42-unscaled-cross_odd-name"
        );
        let pretrained = crate::core::bert::minilm_shape();
        assert_eq!(
            file_stem(Stage::Scores, &pretrained, 2, &RunOptions::default(), false, "scores"),
            "attention-lab_scores_minilm-layer3_scores"
        );
    }

    #[test]
    fn json_escapes_strings() {
        assert_eq!(json_string("a\"b\\c\n"), "\"a\\\"b\\\\c\\u000a\"");
    }
}
