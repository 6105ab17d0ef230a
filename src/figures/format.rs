//! How a figure writes its caption (its numbers: `crate::number::show`).

/// "Name: rows × cols", the caption every heatmap carries.
pub fn caption(name: &str, dim: (usize, usize)) -> String {
    format!("{name}: {} × {}", dim.0, dim.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captions_carry_the_shape() {
        assert_eq!(caption("Queries Q", (9, 64)), "Queries Q: 9 × 64");
    }
}
