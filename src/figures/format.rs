//! How a figure writes its caption and its numbers.

/// "Name: rows × cols", the caption every heatmap carries.
pub fn caption(name: &str, dim: (usize, usize)) -> String {
    format!("{name}: {} × {}", dim.0, dim.1)
}

/// A number for people: 4 significant figures at most, no "-0".
pub fn num(v: f32) -> String {
    let v = if v == 0.0 { 0.0 } else { v };
    let a = v.abs();
    if a != 0.0 && !(0.001..10_000.0).contains(&a) {
        format!("{v:.3e}")
    } else if a >= 100.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.3}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn captions_carry_the_shape() {
        assert_eq!(caption("Queries Q", (9, 64)), "Queries Q: 9 × 64");
    }

    #[test]
    fn numbers_are_short_and_never_nan_looking() {
        assert_eq!(num(0.123456), "0.123");
        assert_eq!(num(-0.0), "0.000");
        assert_eq!(num(1234.5), "1234.5");
        assert_eq!(num(123456.0), "1.235e5");
    }
}
