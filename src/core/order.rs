//! Ordering by a float key. Every sort in the crate goes through here, so the .wasm carries
//! one copy of the sort routine instead of one per call site.

/// Positions of `keys` from the largest key to the smallest; equal keys keep their order.
/// `keys`: (n,) → (n,) indices into `keys`.
pub fn largest_first(keys: &[f32]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_by(|&a, &b| keys[b].total_cmp(&keys[a]));
    order
}

/// `values` sorted from the smallest to the largest.
pub fn ascending(values: &[f32]) -> Vec<f32> {
    largest_first(values).into_iter().rev().map(|i| values[i]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn largest_first_orders_by_key_and_keeps_ties_in_place() {
        assert_eq!(largest_first(&[0.1, 0.7, 0.2, 0.7]), vec![1, 3, 2, 0]);
        assert!(largest_first(&[]).is_empty());
    }

    #[test]
    fn ascending_sorts_negatives_and_duplicates() {
        assert_eq!(ascending(&[3.0, -1.0, 2.0, -1.0]), vec![-1.0, -1.0, 2.0, 3.0]);
    }
}
