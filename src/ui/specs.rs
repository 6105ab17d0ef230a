//! From trace matrices to what a heatmap draws and says: scales, axis labels and the hover
//! texts. Pure, so it is tested natively.

use crate::chart::colormap::Scale;
use crate::chart::heatmap::HeatmapSpec;
use crate::core::explain::{largest_terms, Term};
use crate::core::readouts::open_values;
use crate::i18n::{fill, t, Lang, Msg};
use crate::number::{show, Room};
use ndarray::{Array2, ArrayView1};

/// A signed matrix on a diverging scale fitted to its values.
pub fn signed(values: Array2<f32>, rows: &[String], cols: Vec<String>) -> HeatmapSpec {
    let scale = Scale::diverging_for(values.iter());
    HeatmapSpec { values, row_labels: rows.to_vec(), col_labels: cols, scale, blocked: None }
}

/// Scores (raw or scaled) on the scale of the raw scores the mask leaves open (one scale for
/// both, to compare them by eye), the keys the mask hides from each query grey: the mask enters
/// only at the softmax, but a reader should see here which scores it will ignore.
pub fn scores_on(
    values: Array2<f32>,
    raw: &Array2<f32>,
    rows: &[String],
    cols: Vec<String>,
    blocked: &Array2<bool>,
) -> HeatmapSpec {
    let scale = Scale::diverging_for(open_values(raw, blocked).iter());
    let blocked = blocked.iter().any(|b| *b).then(|| blocked.clone());
    HeatmapSpec { values, row_labels: rows.to_vec(), col_labels: cols, scale, blocked }
}

/// Attention weights on the fixed 0–1 sequential scale, blocked cells grey.
pub fn weights(values: Array2<f32>, rows: &[String], cols: &[String], blocked: &Array2<bool>) -> HeatmapSpec {
    HeatmapSpec {
        values,
        row_labels: rows.to_vec(),
        col_labels: cols.to_vec(),
        scale: Scale::Sequential { min: 0.0, max: 1.0 },
        blocked: Some(blocked.clone()),
    }
}

/// Column labels 1, 2, …, n for feature dimensions: the site counts heads, rows, columns and
/// the terms of a sum from 1, as the formulas do.
pub fn indices(n: usize) -> Vec<String> {
    (1..=n).map(|i| i.to_string()).collect()
}

/// Hover text of a score: q_i · k_j as the sum of its d_k terms q_m·k_m (m from 1, as in the
/// formula), with its three largest terms. Only the label "largest terms" is words.
pub fn score_text(lang: Lang, q: ArrayView1<f32>, k: ArrayView1<f32>, row: &str, col: &str, score: f32) -> String {
    let terms = largest_terms(q, k, 3);
    format!(
        "q[{row}] · k[{col}] = Σ (m = 1…{}) q_m·k_m = {}; {}: {}",
        q.len(),
        show(score, Room::Reading),
        t(lang, Msg::LargestTerms),
        list_terms(&terms, |t| format!(
            "q{m}·k{m} = {}×{}",
            show(t.a, Room::Reading),
            show(t.b, Room::Reading),
            m = t.index + 1
        ))
    )
}

/// Hover text of an output cell: which value rows made it, and how much each gave. `col` is
/// 0-based; the text counts from 1.
pub fn output_text(
    lang: Lang,
    a_row: ArrayView1<f32>,
    v_col: ArrayView1<f32>,
    keys: &[String],
    row: &str,
    col: usize,
    out: f32,
) -> String {
    let terms = largest_terms(a_row, v_col, 3);
    format!(
        "O[{row}, {}] = Σ A·V = {}; {}: {}",
        col + 1,
        show(out, Room::Reading),
        t(lang, Msg::Contributions),
        list_terms(&terms, |t| {
            let key = keys.get(t.index).map(String::as_str).unwrap_or("?");
            format!("{key} {}×{}", show(t.a, Room::Reading), show(t.b, Room::Reading))
        })
    )
}

fn list_terms(terms: &[Term], each: impl Fn(&Term) -> String) -> String {
    terms.iter().map(|t| format!("{} = {}", each(t), show(t.product, Room::Reading))).collect::<Vec<_>>().join(", ")
}

/// "std s, range a to b" of the entries of a matrix the mask leaves open: the same spread
/// "Predict first" asks for (`predict::questions`).
pub fn spread_text(lang: Lang, m: &Array2<f32>, blocked: &Array2<bool>) -> String {
    let finite = open_values(m, blocked);
    if finite.is_empty() {
        return String::new();
    }
    let (_, std) = crate::core::readouts::mean_std(&finite);
    let (lo, hi) = finite.iter().fold((f32::MAX, f32::MIN), |(a, b), v| (a.min(*v), b.max(*v)));
    fill(
        t(lang, Msg::Spread),
        &[("std", &show(std, Room::Reading)), ("min", &show(lo, Room::Legend)), ("max", &show(hi, Room::Legend))],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::arr1;

    #[test]
    fn score_text_names_the_largest_terms() {
        let s = score_text(Lang::En, arr1(&[1.0, -3.0]).view(), arr1(&[2.0, 3.0]).view(), "it", "animal", -7.0);
        assert_eq!(s, "q[it] · k[animal] = Σ (m = 1…2) q_m·k_m = -7.000; largest terms: q2·k2 = -3.000×3.000 = -9.000, q1·k1 = 1.000×2.000 = 2.000");
    }

    #[test]
    fn output_text_names_value_rows_by_token() {
        let keys = vec!["a".to_string(), "b".to_string()];
        let s = output_text(Lang::En, arr1(&[0.25, 0.75]).view(), arr1(&[4.0, 1.0]).view(), &keys, "a", 3, 1.75);
        assert_eq!(s, "O[a, 4] = Σ A·V = 1.750; largest contributions: a 0.250×4.000 = 1.000, b 0.750×1.000 = 0.750");
    }

    #[test]
    fn spread_ignores_masked_entries() {
        let m = ndarray::arr2(&[[1.0, f32::NEG_INFINITY], [3.0, 1.0]]);
        // values 1, 3, 1: mean 5/3, variance (4/9 + 16/9 + 4/9) / 3 = 8/9, std ≈ 0.943
        assert_eq!(spread_text(Lang::En, &m, &Array2::from_elem(m.dim(), false)), "std 0.943, range 1.00 to 3.00");
    }
}
