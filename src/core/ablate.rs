//! Switching heads off, the intervention that tests a story about a head: which heads, and
//! what each passes on instead of its A·V (zeros, or its mean over the sentence's positions;
//! under a causal mask, over the positions up to each one, so that no row receives what its
//! mask hid from it),
//! before the heads are concatenated and multiplied by W_O. The head's own maps are left as
//! computed: it is switched off after its softmax. Written in the URL as `ablate=L.H,L.H`
//! (layers and heads from 1) and `ablatemode=zero|mean`.

use crate::real::Real;
use ndarray::{Array2, ArrayView2, Axis};
use std::fmt;

crate::slugged! {
    /// What a switched-off head passes on.
    #[derive(Default)]
    pub enum Replacement {
        /// Zeros in its columns of the concatenation.
        #[default]
        Zero = "zero",
        /// Its output averaged over the positions: the same row at every position, or, under a
        /// causal mask, at each position the mean of the rows up to it.
        Mean = "mean",
    }
}

/// The heads switched off, as (layer, head) from 0, sorted and without repeats, and what
/// they pass on.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Ablation {
    heads: Vec<(usize, usize)>,
    pub replacement: Replacement,
}

/// Why a written list of heads was not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AblateError {
    /// An entry is not `layer.head` with both from 1: the entry as written.
    NotAHead(String),
    /// A head the model does not have: (layer, head) from 1, and the model's layers × heads.
    Outside { layer: usize, head: usize, layers: usize, heads: usize },
}

impl fmt::Display for AblateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AblateError::NotAHead(s) => write!(f, "{s:?} is not layer.head (from 1)"),
            AblateError::Outside { layer, head, layers, heads } => {
                write!(f, "head {layer}.{head} is outside {layers} layers × {heads} heads")
            }
        }
    }
}

impl Ablation {
    /// `heads`, (layer, head) from 0, passing on `replacement`.
    pub fn new(heads: impl IntoIterator<Item = (usize, usize)>, replacement: Replacement) -> Self {
        let mut heads: Vec<_> = heads.into_iter().collect();
        heads.sort_unstable();
        heads.dedup();
        Self { heads, replacement }
    }

    /// One head, zeroed.
    pub fn one(layer: usize, head: usize, replacement: Replacement) -> Self {
        Self::new([(layer, head)], replacement)
    }

    /// No head is switched off.
    pub fn is_empty(&self) -> bool {
        self.heads.is_empty()
    }

    /// The heads, (layer, head) from 0, in order.
    pub fn heads(&self) -> &[(usize, usize)] {
        &self.heads
    }

    /// The heads switched off in `layer`, from 0.
    pub fn in_layer(&self, layer: usize) -> Vec<usize> {
        self.heads.iter().filter(|(l, _)| *l == layer).map(|(_, h)| *h).collect()
    }

    /// The same heads, or without `(layer, head)` if it is one of them and with it if not.
    pub fn toggled(&self, layer: usize, head: usize) -> Self {
        let mut heads = self.heads.clone();
        match heads.binary_search(&(layer, head)) {
            Ok(i) => drop(heads.remove(i)),
            Err(i) => heads.insert(i, (layer, head)),
        }
        Self { heads, replacement: self.replacement }
    }

    /// The same, without the heads a model of `layers` × `heads` does not have.
    pub fn within(&self, layers: usize, heads: usize) -> Self {
        let kept = self.heads.iter().copied().filter(|&(l, h)| l < layers && h < heads);
        Self::new(kept, self.replacement)
    }

    /// Whether head `head` of `layer` (from 0) is switched off.
    pub fn has(&self, layer: usize, head: usize) -> bool {
        self.heads.binary_search(&(layer, head)).is_ok()
    }

    /// The first layer with a head switched off: every layer before it computes as intact.
    pub fn first_layer(&self) -> Option<usize> {
        self.heads.first().map(|(l, _)| *l)
    }

    /// Read `L.H,L.H,…` (from 1; spaces around entries allowed, an empty text is no head) for a
    /// model of `layers` × `heads`.
    pub fn parse(text: &str, replacement: Replacement, layers: usize, heads: usize) -> Result<Self, AblateError> {
        let mut found = Vec::new();
        for entry in text.split(',').map(str::trim).filter(|e| !e.is_empty()) {
            let number = |s: &str| s.parse::<usize>().ok().filter(|&x| x >= 1);
            let (layer, head) = entry
                .split_once('.')
                .and_then(|(l, h)| Some((number(l)?, number(h)?)))
                .ok_or_else(|| AblateError::NotAHead(entry.to_string()))?;
            if layer > layers || head > heads {
                return Err(AblateError::Outside { layer, head, layers, heads });
            }
            found.push((layer - 1, head - 1));
        }
        Ok(Self::new(found, replacement))
    }

    /// `L.H,L.H,…` from 1, as [`Ablation::parse`] reads it; empty for no head.
    pub fn written(&self) -> String {
        self.heads.iter().map(|(l, h)| format!("{}.{}", l + 1, h + 1)).collect::<Vec<_>>().join(",")
    }
}

/// What a switched-off head passes on in place of its `output` (n, d_v). With `causal` (the
/// head's queries may not see later keys), the mean at row i is over rows 0..=i only: the mean
/// over the whole sentence would hand every earlier row the later positions' outputs, which its
/// mask hid (in the learner's model, the answers it is asked for).
pub fn replaced<T: Real>(output: ArrayView2<T>, replacement: Replacement, causal: bool) -> Array2<T> {
    match replacement {
        Replacement::Zero => Array2::zeros(output.dim()),
        Replacement::Mean if causal => {
            let mut sum = ndarray::Array1::<T>::zeros(output.ncols());
            let mut out = Array2::zeros(output.dim());
            for (i, row) in output.rows().into_iter().enumerate() {
                sum += &row;
                out.row_mut(i).assign(&(&sum / T::of((i + 1) as f64)));
            }
            out
        }
        Replacement::Mean => {
            let mean = output.sum_axis(Axis(0)) / T::of(output.nrows().max(1) as f64);
            Array2::from_shape_fn(output.dim(), |(_, j)| mean[j])
        }
    }
}

/// What is large among a sweep's effects, so that a cell can be read against it: the largest
/// and the median of their sizes over every head measured (`grid`: layers × heads, a cell
/// that is not a number left out). `None` for an empty sweep.
pub fn effect_scale(grid: &[Vec<f32>]) -> Option<Scale> {
    let sizes: Vec<f32> = grid.iter().flatten().filter(|v| v.is_finite()).map(|v| v.abs()).collect();
    let n = sizes.len();
    let largest = sizes.iter().copied().reduce(f32::max)?;
    let median = if n % 2 == 1 { kth(&sizes, n / 2) } else { (kth(&sizes, n / 2 - 1) + kth(&sizes, n / 2)) / 2.0 };
    Some(Scale { largest, median, heads: n })
}

/// The `k`-th smallest of `values` (0-based, `k` below their count, none of them NaN), by
/// counting: a sweep has at most a few hundred heads, and a sort would cost the page 6 KB.
fn kth(values: &[f32], k: usize) -> f32 {
    let count = |keep: &dyn Fn(f32) -> bool| values.iter().filter(|&&x| keep(x)).count();
    values
        .iter()
        .copied()
        .find(|&v| {
            let below = count(&|x| x < v);
            below <= k && k < below + count(&|x| x == v)
        })
        .unwrap_or(0.0)
}

/// The sizes a sweep's cells are read against ([`effect_scale`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scale {
    pub largest: f32,
    pub median: f32,
    /// How many heads were measured.
    pub heads: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scale_of_a_sweep_is_its_largest_and_median_size() {
        let grid = vec![vec![0.5, -0.1, f32::NAN], vec![0.0, 0.2, -0.3]];
        assert_eq!(effect_scale(&grid), Some(Scale { largest: 0.5, median: 0.2, heads: 5 }));
        assert_eq!(effect_scale(&[vec![0.1, 0.3]]).map(|s| s.median), Some(0.2));
        assert_eq!(effect_scale(&[vec![1.0, 1.0, -1.0, 2.0]]).map(|s| s.median), Some(1.0), "ties");
        assert_eq!(effect_scale(&[vec![3.0, 1.0, 2.0]]).map(|s| (s.largest, s.median)), Some((3.0, 2.0)));
        assert_eq!(effect_scale(&[]), None);
    }
    use ndarray::array;

    #[test]
    fn the_url_form_reads_back_and_names_what_it_cannot_read() {
        let a = Ablation::parse(" 2.3, 1.1,2.3", Replacement::Mean, 6, 12).unwrap_or_default();
        assert_eq!((a.heads(), a.written().as_str()), (&[(0, 0), (1, 2)][..], "1.1,2.3"));
        assert_eq!(Ablation::parse(&a.written(), Replacement::Mean, 6, 12), Ok(a));
        assert_eq!(Ablation::parse("", Replacement::Zero, 6, 12).map(|a| a.is_empty()), Ok(true));
        for bad in ["0.1", "1", "1.x", "1.2.3", "-1.2"] {
            assert_eq!(Ablation::parse(bad, Replacement::Zero, 6, 12), Err(AblateError::NotAHead(bad.into())));
        }
        let outside = Ablation::parse("7.1", Replacement::Zero, 6, 12);
        assert_eq!(outside, Err(AblateError::Outside { layer: 7, head: 1, layers: 6, heads: 12 }));
    }

    #[test]
    fn toggling_a_head_twice_is_no_change() {
        let a = Ablation::one(1, 2, Replacement::Zero);
        assert_eq!(a.toggled(0, 4).heads(), &[(0, 4), (1, 2)]);
        assert_eq!(a.toggled(0, 4).toggled(0, 4), a);
        assert!(a.toggled(1, 2).is_empty());
        assert_eq!(a.toggled(0, 4).first_layer(), Some(0));
    }

    #[test]
    fn a_mean_head_passes_one_row_everywhere() {
        let out = array![[1.0f64, 4.0], [3.0, 0.0]];
        assert_eq!(replaced(out.view(), Replacement::Mean, false), array![[2.0, 2.0], [2.0, 2.0]]);
        assert_eq!(replaced(out.view(), Replacement::Zero, false), Array2::zeros((2, 2)));
    }

    #[test]
    fn under_a_causal_mask_each_row_gets_the_mean_of_the_rows_up_to_it() {
        let out = array![[1.0f64, 4.0], [3.0, 0.0], [5.0, 2.0]];
        assert_eq!(replaced(out.view(), Replacement::Mean, true), array![[1.0, 4.0], [2.0, 2.0], [3.0, 2.0]]);
        // A later row changed: every earlier row's replacement stays.
        let later = array![[1.0f64, 4.0], [3.0, 0.0], [-50.0, 9.0]];
        let (a, b) = (replaced(out.view(), Replacement::Mean, true), replaced(later.view(), Replacement::Mean, true));
        assert_eq!(a.slice(ndarray::s![..2, ..]), b.slice(ndarray::s![..2, ..]));
    }
}
