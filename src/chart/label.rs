//! Token labels on chart axes: cut to a readable length, and measured in em so layouts leave
//! room for them (CJK characters are about twice as wide as Latin ones).

/// Token labels longer than this are cut with an ellipsis.
pub const MAX_LABEL_CHARS: usize = 12;

/// A label as drawn: at most [`MAX_LABEL_CHARS`] characters, else cut with "…".
pub fn short_label(s: &str) -> String {
    if s.chars().count() <= MAX_LABEL_CHARS {
        s.to_string()
    } else {
        let head: String = s.chars().take(MAX_LABEL_CHARS - 1).collect();
        format!("{head}…")
    }
}

/// Width of the widest label in em: about 0.6 em per Latin character, 1 em per CJK one.
pub fn max_label_em(labels: &[String]) -> f64 {
    labels
        .iter()
        .map(|l| short_label(l).chars().map(|c| if (c as u32) < 0x2E80 { 0.62 } else { 1.0 }).sum::<f64>())
        .fold(1.0, f64::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_labels_are_cut() {
        assert_eq!(short_label("short"), "short");
        assert_eq!(short_label("abcdefghijklmnop"), "abcdefghijk…");
        assert_eq!(short_label("非常非常非常非常长的词语啊"), "非常非常非常非常长的词…");
    }

    #[test]
    fn width_counts_cjk_as_one_em() {
        assert_eq!(max_label_em(&["猫猫".to_string()]), 2.0);
        assert!((max_label_em(&["cat".to_string()]) - 1.86).abs() < 1e-9);
        assert_eq!(max_label_em(&[]), 1.0, "at least one em");
    }
}
