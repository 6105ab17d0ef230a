//! The tokenizer's Unicode rules as data: which characters are dropped (control, format,
//! private-use and unassigned ones), which are punctuation, and what each character becomes
//! once its accents are stripped and it is lower-cased. The converter computes the table from
//! the reference tokenizer's rules over every code point and ships it in the model file, so the
//! page carries no Unicode tables of its own. [`CharTable::ascii`] is the ASCII part alone.

use std::collections::HashMap;

/// Sorted, disjoint, inclusive code-point ranges.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Ranges(Vec<(u32, u32)>);

impl Ranges {
    /// From sorted code points, merged into ranges.
    pub fn from_points(points: impl IntoIterator<Item = u32>) -> Ranges {
        let mut ranges: Vec<(u32, u32)> = Vec::new();
        for p in points {
            match ranges.last_mut() {
                Some((_, end)) if *end + 1 == p => *end = p,
                _ => ranges.push((p, p)),
            }
        }
        Ranges(ranges)
    }

    pub fn contains(&self, c: char) -> bool {
        let c = u32::from(c);
        self.0
            .binary_search_by(|&(lo, hi)| {
                if hi < c {
                    std::cmp::Ordering::Less
                } else if lo > c {
                    std::cmp::Ordering::Greater
                } else {
                    std::cmp::Ordering::Equal
                }
            })
            .is_ok()
    }

    /// One "start end" line (hex) per range.
    pub fn to_text(&self) -> String {
        self.0.iter().map(|(lo, hi)| format!("{lo:x} {hi:x}\n")).collect()
    }

    /// Read [`Ranges::to_text`]; `None` for a malformed or unsorted line.
    pub fn from_text(text: &str) -> Option<Ranges> {
        let mut ranges = Vec::new();
        for line in text.lines() {
            let (lo, hi) = line.split_once(' ')?;
            let (lo, hi) = (u32::from_str_radix(lo, 16).ok()?, u32::from_str_radix(hi, 16).ok()?);
            if lo > hi || ranges.last().is_some_and(|&(_, end)| end >= lo) {
                return None;
            }
            ranges.push((lo, hi));
        }
        Some(Ranges(ranges))
    }
}

/// What the tokenizer needs to know about characters.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CharTable {
    /// Removed before anything else.
    pub dropped: Ranges,
    /// Split off as words of their own.
    pub punctuation: Ranges,
    /// A character's accent-stripped, lower-cased form where it differs from itself ("" for a
    /// combining accent).
    pub normal: HashMap<char, String>,
}

impl CharTable {
    /// The rules for ASCII only: C0 controls and DEL dropped (tab, newline and carriage return
    /// are spaces), ASCII punctuation split, A–Z lower-cased. Exact for ASCII text.
    pub fn ascii() -> CharTable {
        let dropped = Ranges::from_points((0u32..=0x1f).chain([0x7f]).filter(|c| ![9, 10, 13].contains(c)));
        let punctuation =
            Ranges::from_points((0u32..0x80).filter(|&c| char::from_u32(c).is_some_and(|c| c.is_ascii_punctuation())));
        let normal = ('A'..='Z').map(|c| (c, c.to_ascii_lowercase().to_string())).collect();
        CharTable { dropped, punctuation, normal }
    }

    /// The normal forms as text: one "code point (hex) TAB form" line each, sorted.
    pub fn normal_text(&self) -> String {
        let mut lines: Vec<(char, &String)> = self.normal.iter().map(|(c, s)| (*c, s)).collect();
        lines.sort();
        lines.iter().map(|(c, s)| format!("{:x}\t{s}\n", u32::from(*c))).collect()
    }

    /// The three parts as written by the converter; `None` if any is malformed.
    pub fn from_texts(dropped: &str, punctuation: &str, normal: &str) -> Option<CharTable> {
        let mut map = HashMap::new();
        for line in normal.lines() {
            let (c, form) = line.split_once('\t')?;
            map.insert(char::from_u32(u32::from_str_radix(c, 16).ok()?)?, form.to_string());
        }
        Some(CharTable {
            dropped: Ranges::from_text(dropped)?,
            punctuation: Ranges::from_text(punctuation)?,
            normal: map,
        })
    }

    /// The normalised words and punctuation marks of `text`, before WordPiece: drop what is
    /// dropped, spaces for whitespace, a space around each CJK character, accents stripped and
    /// lower case, split on spaces, each punctuation mark a word of its own.
    pub fn words(&self, text: &str) -> Vec<String> {
        let mut normal = String::with_capacity(text.len());
        for c in text.chars() {
            if c == '\0' || c == '\u{fffd}' || self.dropped.contains(c) {
                continue;
            }
            if matches!(c, '\t' | '\n' | '\r') || c.is_whitespace() {
                normal.push(' ');
            } else if is_cjk(c) {
                normal.extend([' ', c, ' ']);
            } else {
                match self.normal.get(&c) {
                    Some(form) => normal.push_str(form),
                    None => normal.push(c),
                }
            }
        }
        let mut out = Vec::new();
        for chunk in normal.split(char::is_whitespace).filter(|w| !w.is_empty()) {
            let mut word = String::new();
            for c in chunk.chars() {
                if self.punctuation.contains(c) {
                    if !word.is_empty() {
                        out.push(std::mem::take(&mut word));
                    }
                    out.push(c.to_string());
                } else {
                    word.push(c);
                }
            }
            if !word.is_empty() {
                out.push(word);
            }
        }
        out
    }
}

/// The CJK Unified Ideographs blocks (not Japanese kana or Korean hangul), which BERT splits
/// one character per word.
pub fn is_cjk(c: char) -> bool {
    matches!(u32::from(c),
        0x4E00..=0x9FFF | 0x3400..=0x4DBF | 0x20000..=0x2A6DF | 0x2A700..=0x2B73F
        | 0x2B740..=0x2B81F | 0x2B820..=0x2CEAF | 0xF900..=0xFAFF | 0x2F800..=0x2FA1F)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_merge_find_and_round_trip_through_text() {
        let r = Ranges::from_points([1, 2, 3, 7, 9, 10]);
        assert_eq!(r.0, vec![(1, 3), (7, 7), (9, 10)]);
        assert!(r.contains('\u{2}') && r.contains('\u{7}') && !r.contains('\u{8}') && !r.contains('\u{b}'));
        assert_eq!(Ranges::from_text(&r.to_text()), Some(r));
        assert_eq!(Ranges::from_text("5 3\n"), None, "backwards");
        assert_eq!(Ranges::from_text("1 5\n4 6\n"), None, "overlapping");
    }

    #[test]
    fn the_ascii_table_splits_lowercases_and_drops() {
        let t = CharTable::ascii();
        assert_eq!(t.words("Hello,\tWORLD\u{7}!"), ["hello", ",", "world", "!"]);
        assert_eq!(t.words("我是猫。ok"), ["我", "是", "猫", "。ok"], "。 is not ASCII punctuation");
        assert_eq!(t.words("  \n "), Vec::<String>::new());
        let back = CharTable::from_texts(&t.dropped.to_text(), &t.punctuation.to_text(), &t.normal_text());
        assert_eq!(back, Some(t));
    }
}
