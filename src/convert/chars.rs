//! The reference tokenizer's character rules (Hugging Face `tokenizers`' `BertNormalizer` and
//! `BertPreTokenizer`, which use the `unicode_categories` and Unicode normalisation crates),
//! evaluated over every code point into the table the model file carries.

use attention_core::bert::chars::{CharTable, Ranges};
use unicode_categories::UnicodeCategories;
use unicode_normalization::UnicodeNormalization;

/// Control, format, private-use, surrogate and unassigned characters are dropped; tab,
/// newline and carriage return are spaces instead.
fn dropped(c: char) -> bool {
    !matches!(c, '\t' | '\n' | '\r') && c.is_other()
}

fn punctuation(c: char) -> bool {
    c.is_ascii_punctuation() || c.is_punctuation()
}

/// Canonical decomposition, non-spacing marks removed, lower case.
fn normal(c: char) -> String {
    std::iter::once(c).nfd().filter(|c| !c.is_mark_nonspacing()).flat_map(char::to_lowercase).collect()
}

/// The table over every code point.
pub fn char_table() -> CharTable {
    let all = || (0..=0x10FFFFu32).filter_map(char::from_u32);
    CharTable {
        dropped: Ranges::from_points(all().filter(|&c| dropped(c)).map(u32::from)),
        punctuation: Ranges::from_points(all().filter(|&c| punctuation(c)).map(u32::from)),
        normal: all().filter_map(|c| Some((c, normal(c))).filter(|(c, n)| n.chars().ne(std::iter::once(*c)))).collect(),
    }
}
