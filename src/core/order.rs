//! Ordering by a float key, largest first: every ranking the site makes (the explanations and
//! readings, the case study, the graph, the generator's likeliest tokens and its sampling)
//! comes from here, so equal keys keep their order everywhere, and the .wasm carries one copy
//! of the sort per float type. Clippy holds the claim: `sort_by` is a disallowed method
//! (`clippy.toml`) everywhere but here.

use std::cmp::Ordering;

/// A float type ranked by `total_cmp` (NaN after +∞, −0 before +0).
pub trait Key: Copy {
    fn total(&self, other: &Self) -> Ordering;
}

impl Key for f32 {
    fn total(&self, other: &Self) -> Ordering {
        self.total_cmp(other)
    }
}

impl Key for f64 {
    fn total(&self, other: &Self) -> Ordering {
        self.total_cmp(other)
    }
}

/// Positions of `keys` from the largest key to the smallest; equal keys keep their order.
/// `keys`: (n,) → (n,) indices into `keys`.
#[allow(clippy::disallowed_methods)]
pub fn largest_first<T: Key>(keys: &[T]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_by(|&a, &b| keys[b].total(&keys[a]));
    order
}

/// `values` sorted from the smallest to the largest.
pub fn ascending<T: Key>(values: &[T]) -> Vec<T> {
    largest_first(values).into_iter().rev().map(|i| values[i]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn largest_first_orders_by_key_and_keeps_ties_in_place() {
        assert_eq!(largest_first(&[0.1, 0.7, 0.2, 0.7]), vec![1, 3, 2, 0]);
        assert!(largest_first::<f32>(&[]).is_empty());
    }

    #[test]
    fn ascending_sorts_negatives_and_duplicates() {
        assert_eq!(ascending(&[3.0, -1.0, 2.0, -1.0]), vec![-1.0, -1.0, 2.0, 3.0]);
    }
}
