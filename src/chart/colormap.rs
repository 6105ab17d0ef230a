//! Colour-blind-safe colour maps: viridis (sequential, for weights in [0, 1]) and
//! ColorBrewer's PuOr (diverging, for signed values around 0), as piecewise-linear tables.

/// An sRGB colour.
pub type Rgb = [u8; 3];

/// Viridis at t = 0, 1/8, …, 1 (matplotlib's table, sampled).
const VIRIDIS: [Rgb; 9] = [
    [0x44, 0x01, 0x54],
    [0x47, 0x2d, 0x7b],
    [0x3b, 0x52, 0x8b],
    [0x2c, 0x72, 0x8e],
    [0x21, 0x91, 0x8c],
    [0x28, 0xae, 0x80],
    [0x5e, 0xc9, 0x62],
    [0xad, 0xdc, 0x30],
    [0xfd, 0xe7, 0x25],
];

/// PuOr, 11 classes, from negative (purple) through near-white to positive (orange-brown).
const PUOR: [Rgb; 11] = [
    [0x2d, 0x00, 0x4b],
    [0x54, 0x27, 0x88],
    [0x80, 0x73, 0xac],
    [0xb2, 0xab, 0xd2],
    [0xd8, 0xda, 0xeb],
    [0xf7, 0xf7, 0xf7],
    [0xfe, 0xe0, 0xb6],
    [0xfd, 0xb8, 0x63],
    [0xe0, 0x82, 0x14],
    [0xb3, 0x58, 0x06],
    [0x7f, 0x3b, 0x08],
];

/// The colour of blocked (masked) cells: a mid grey that neither map uses.
pub const BLOCKED: Rgb = [0x9a, 0x9a, 0x9a];

/// How values become colours.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Scale {
    /// Viridis from `min` (dark) to `max` (yellow); weights use the fixed 0–1.
    Sequential { min: f32, max: f32 },
    /// PuOr from −`max_abs` (purple) through 0 (white) to +`max_abs` (orange).
    Diverging { max_abs: f32 },
}

impl Scale {
    /// A diverging scale symmetric around 0 that covers every finite value.
    pub fn diverging_for<'a>(values: impl IntoIterator<Item = &'a f32>) -> Self {
        let max_abs = values.into_iter().filter(|v| v.is_finite()).fold(0.0f32, |m, v| m.max(v.abs()));
        Self::Diverging { max_abs: if max_abs > 0.0 { max_abs } else { 1.0 } }
    }

    /// (lowest, highest) value the scale shows.
    pub fn range(&self) -> (f32, f32) {
        match *self {
            Self::Sequential { min, max } => (min, max),
            Self::Diverging { max_abs } => (-max_abs, max_abs),
        }
    }

    /// The colour of `v`; values outside the range are clamped, NaN gets the blocked grey.
    pub fn color(&self, v: f32) -> Rgb {
        if v.is_nan() {
            return BLOCKED;
        }
        let (lo, hi) = self.range();
        let t = if hi > lo { ((v - lo) / (hi - lo)).clamp(0.0, 1.0) } else { 0.5 };
        match self {
            Self::Sequential { .. } => lerp_table(&VIRIDIS, t),
            Self::Diverging { .. } => lerp_table(&PUOR, t),
        }
    }
}

/// Linear interpolation in an evenly spaced table, t ∈ [0, 1].
fn lerp_table(table: &[Rgb], t: f32) -> Rgb {
    let x = t * (table.len() - 1) as f32;
    let i = (x.floor() as usize).min(table.len() - 2);
    let f = x - i as f32;
    let (a, b) = (table[i], table[i + 1]);
    std::array::from_fn(|c| (a[c] as f32 + (b[c] as f32 - a[c] as f32) * f).round() as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ends_and_middle_of_the_maps() {
        let seq = Scale::Sequential { min: 0.0, max: 1.0 };
        assert_eq!(seq.color(0.0), VIRIDIS[0]);
        assert_eq!(seq.color(1.0), VIRIDIS[8]);
        assert_eq!(seq.color(2.0), VIRIDIS[8], "clamped above");
        let div = Scale::Diverging { max_abs: 4.0 };
        assert_eq!(div.color(0.0), [0xf7, 0xf7, 0xf7]);
        assert_eq!(div.color(-4.0), PUOR[0]);
        assert_eq!(div.color(f32::NAN), BLOCKED);
    }

    #[test]
    fn viridis_gets_lighter_monotonically() {
        // Perceived lightness must rise with the value, or the map lies about order.
        let seq = Scale::Sequential { min: 0.0, max: 1.0 };
        let luma = |c: Rgb| 0.2126 * c[0] as f32 + 0.7152 * c[1] as f32 + 0.0722 * c[2] as f32;
        let l: Vec<f32> = (0..=20).map(|i| luma(seq.color(i as f32 / 20.0))).collect();
        assert!(l.windows(2).all(|w| w[1] > w[0]), "{l:?}");
    }

    #[test]
    fn diverging_range_covers_the_largest_magnitude() {
        assert_eq!(Scale::diverging_for(&[1.0, -3.0, 2.0]).range(), (-3.0, 3.0));
        assert_eq!(Scale::diverging_for(&[0.0, f32::NEG_INFINITY]).range(), (-1.0, 1.0));
    }
}
