//! Colour-blind-safe colour maps: viridis (sequential, for weights in [0, 1]) and
//! ColorBrewer's PuOr (diverging, for signed values around 0), as piecewise-linear tables; and
//! for a washed-out projector (the high-contrast theme), inferno (black to pale yellow: the
//! widest lightness range) and a saturated blue–red map whose colour rises steeply from 0,
//! so that small values are not lost in white.

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

/// Inferno at t = 0, 1/8, …, 1 (matplotlib's table, sampled).
const INFERNO: [Rgb; 9] = [
    [0x00, 0x00, 0x04],
    [0x1f, 0x0c, 0x48],
    [0x55, 0x0f, 0x6d],
    [0x88, 0x22, 0x6a],
    [0xba, 0x36, 0x55],
    [0xe3, 0x59, 0x33],
    [0xf9, 0x8c, 0x0a],
    [0xf9, 0xc9, 0x32],
    [0xfc, 0xff, 0xa4],
];

/// Blue through light grey (not white: a cell near 0 still shows on a white page) to red,
/// saturated at both ends (ColorBrewer's RdBu ends, deepened).
const BLUE_RED: [Rgb; 7] = [
    [0x05, 0x30, 0x61],
    [0x21, 0x66, 0xac],
    [0x67, 0xa9, 0xcf],
    [0xdd, 0xdd, 0xdd],
    [0xef, 0x8a, 0x62],
    [0xb2, 0x18, 0x2b],
    [0x67, 0x00, 0x1f],
];

/// Which pair of colour maps to draw with; the theme chooses (see `Ink`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Maps {
    /// Viridis and PuOr.
    #[default]
    Standard,
    /// Inferno and the steep blue–red map, for projectors.
    Contrast,
}

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

    /// The colour of `v` in `maps`; values outside the range are clamped, NaN gets the
    /// blocked grey.
    pub fn color(&self, v: f32, maps: Maps) -> Rgb {
        if v.is_nan() {
            return BLOCKED;
        }
        let (lo, hi) = self.range();
        let t = if hi > lo { ((v - lo) / (hi - lo)).clamp(0.0, 1.0) } else { 0.5 };
        match (self, maps) {
            (Self::Sequential { .. }, Maps::Standard) => lerp_table(&VIRIDIS, t),
            (Self::Diverging { .. }, Maps::Standard) => lerp_table(&PUOR, t),
            (Self::Sequential { .. }, Maps::Contrast) => lerp_table(&INFERNO, t),
            // √ of the distance from the middle: a tenth of the range already gets a third
            // of the way to full colour.
            (Self::Diverging { .. }, Maps::Contrast) => {
                let d = 2.0 * t - 1.0;
                lerp_table(&BLUE_RED, 0.5 + 0.5 * d.signum() * d.abs().sqrt())
            }
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
        let std = Maps::Standard;
        assert_eq!(seq.color(0.0, std), VIRIDIS[0]);
        assert_eq!(seq.color(1.0, std), VIRIDIS[8]);
        assert_eq!(seq.color(2.0, std), VIRIDIS[8], "clamped above");
        let div = Scale::Diverging { max_abs: 4.0 };
        assert_eq!(div.color(0.0, std), [0xf7, 0xf7, 0xf7]);
        assert_eq!(div.color(-4.0, std), PUOR[0]);
        assert_eq!(div.color(f32::NAN, std), BLOCKED);
        assert_eq!(div.color(4.0, Maps::Contrast), BLUE_RED[6]);
        assert_eq!(seq.color(0.0, Maps::Contrast), INFERNO[0]);
    }

    fn luma(c: Rgb) -> f32 {
        0.2126 * c[0] as f32 + 0.7152 * c[1] as f32 + 0.0722 * c[2] as f32
    }

    #[test]
    fn sequential_maps_get_lighter_monotonically() {
        // Perceived lightness must rise with the value, or the map lies about order.
        let seq = Scale::Sequential { min: 0.0, max: 1.0 };
        for maps in [Maps::Standard, Maps::Contrast] {
            let l: Vec<f32> = (0..=20).map(|i| luma(seq.color(i as f32 / 20.0, maps))).collect();
            assert!(l.windows(2).all(|w| w[1] > w[0]), "{maps:?}: {l:?}");
        }
        // The projector's map spans more lightness than viridis.
        let span = |m| luma(seq.color(1.0, m)) - luma(seq.color(0.0, m));
        assert!(span(Maps::Contrast) > span(Maps::Standard) + 20.0);
    }

    /// On a washed-out projector a small score must not vanish into white: a tenth of the
    /// range away from 0, the projector map is much farther from white than PuOr.
    #[test]
    fn the_projector_map_colours_small_values() {
        let div = Scale::Diverging { max_abs: 10.0 };
        let distance_from_white = |c: Rgb| c.iter().map(|&x| (255.0 - x as f32).powi(2)).sum::<f32>().sqrt();
        for v in [1.0f32, -1.0] {
            let (std, contrast) = (div.color(v, Maps::Standard), div.color(v, Maps::Contrast));
            assert!(distance_from_white(contrast) > 2.0 * distance_from_white(std), "{v}: {contrast:?} vs {std:?}");
        }
        // … and keeps the sign's hue: blue below 0, red above.
        let (neg, pos) = (div.color(-1.0, Maps::Contrast), div.color(1.0, Maps::Contrast));
        assert!(neg[2] > neg[0] && pos[0] > pos[2], "{neg:?} {pos:?}");
    }

    #[test]
    fn diverging_range_covers_the_largest_magnitude() {
        assert_eq!(Scale::diverging_for(&[1.0, -3.0, 2.0]).range(), (-3.0, 3.0));
        assert_eq!(Scale::diverging_for(&[0.0, f32::NEG_INFINITY]).range(), (-1.0, 1.0));
    }
}
