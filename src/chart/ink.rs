//! The colours charts draw with besides the data's colour maps. The stylesheet is the one
//! table of theme colours: each theme sets `--ink`, `--chart-frame`, `--chart-accent`,
//! `--chart-series-1` and `--chart-series-2`, and the page reads them into an [`Ink`] for the
//! canvases (HTML parts such as legend swatches use the variables directly).

use super::colormap::{Maps, Rgb};

/// Colours that follow the page theme.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ink {
    /// Labels and the density curve (`--ink`).
    pub text: Rgb,
    /// Axes and frames (`--chart-frame`).
    pub frame: Rgb,
    /// Highlights: the spotlight outline (`--chart-accent`).
    pub accent: Rgb,
    /// Two colour-blind-safe series colours, e.g. unscaled and scaled (`--chart-series-1`, `-2`).
    pub series: [Rgb; 2],
    /// The heatmaps' colour maps (`--chart-maps: contrast` for the projector theme).
    pub maps: Maps,
}

/// The CSS variable naming the colour maps: "contrast", or anything else for the standard pair.
pub const MAPS_VARIABLE: &str = "--chart-maps";

/// The CSS variables an [`Ink`]'s colours are read from, in field order.
pub const VARIABLES: [&str; 5] = ["--ink", "--chart-frame", "--chart-accent", "--chart-series-1", "--chart-series-2"];

impl Ink {
    /// Used only where no stylesheet is loaded (component tests): black on white.
    pub const PLAIN: Ink = Ink {
        text: [0, 0, 0],
        frame: [0x60, 0x60, 0x60],
        accent: [0xff, 0, 0],
        series: [[0, 0, 0], [0x80, 0x80, 0x80]],
        maps: Maps::Standard,
    };

    /// The ink whose colours `var` gives for each name of [`VARIABLES`]; `None` if one is
    /// missing or not a `#rrggbb` colour.
    pub fn from_variables(var: &dyn Fn(&str) -> Option<String>) -> Option<Ink> {
        let mut colours = [[0u8; 3]; 5];
        for (colour, name) in colours.iter_mut().zip(VARIABLES) {
            *colour = parse_hex(&var(name)?)?;
        }
        let [text, frame, accent, s1, s2] = colours;
        let maps =
            if var(MAPS_VARIABLE).is_some_and(|m| m.trim() == "contrast") { Maps::Contrast } else { Maps::Standard };
        Some(Ink { text, frame, accent, series: [s1, s2], maps })
    }
}

/// "#1f2328" (surrounding spaces allowed, as computed styles give them).
pub fn parse_hex(text: &str) -> Option<Rgb> {
    let digits = text.trim().strip_prefix('#')?.as_bytes();
    if digits.len() != 6 {
        return None;
    }
    let nibble = |b: u8| (b as char).to_digit(16).map(|d| d as u8);
    let mut rgb = [0u8; 3];
    for (c, pair) in rgb.iter_mut().zip(digits.chunks(2)) {
        *c = nibble(pair[0])? * 16 + nibble(pair[1])?;
    }
    Some(rgb)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_colours_parse_and_anything_else_does_not() {
        assert_eq!(parse_hex(" #1f2328"), Some([0x1f, 0x23, 0x28]));
        assert_eq!(parse_hex("#FFFFFF"), Some([255, 255, 255]));
        assert_eq!(
            [parse_hex("1f2328"), parse_hex("#12345"), parse_hex("#gggggg"), parse_hex("#ééé"), parse_hex("#fff")],
            [None; 5]
        );
    }

    #[test]
    fn a_missing_variable_gives_no_ink() {
        let all = |_: &str| Some("#123456".to_string());
        assert_eq!(
            Ink::from_variables(&all).map(|i| (i.series[1], i.maps)),
            Some(([0x12, 0x34, 0x56], Maps::Standard))
        );
        let projector = |n: &str| Some(if n == MAPS_VARIABLE { " contrast".into() } else { "#000000".into() });
        assert_eq!(Ink::from_variables(&projector).map(|i| i.maps), Some(Maps::Contrast));
        assert_eq!(Ink::from_variables(&|n: &str| (n != "--chart-accent").then(|| "#000000".to_string())), None);
    }
}
