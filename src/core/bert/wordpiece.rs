//! The BERT uncased WordPiece tokenizer, equal to the reference (Hugging Face `tokenizers`,
//! `BertNormalizer` + `BertPreTokenizer` + `WordPiece`): clean the text, put spaces around
//! CJK characters, strip accents, lower-case, split on spaces and punctuation, then cut each
//! word into the longest vocabulary pieces (`##` marks a piece inside a word), with [CLS]
//! first and [SEP] last. Tested against the reference on `tests/fixtures/model/wordpiece.json`.

use std::collections::HashMap;
use unicode_categories::UnicodeCategories;
use unicode_normalization::UnicodeNormalization;

/// Longer words become [UNK] whole, as in the reference.
pub const MAX_WORD_CHARS: usize = 100;

/// The vocabulary: token ↔ id (the line number in `vocab.txt`, from 0).
#[derive(Clone, PartialEq, Eq)]
pub struct Vocab {
    tokens: Vec<String>,
    ids: HashMap<String, u32>,
}

/// One token of a sentence: its id and its text in the vocabulary ([UNK] for a word the
/// vocabulary cannot spell).
#[derive(Debug, Clone, PartialEq)]
pub struct Piece {
    pub id: u32,
    pub text: String,
}

impl std::fmt::Debug for Vocab {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Vocab({} tokens)", self.tokens.len())
    }
}

impl Vocab {
    /// One token per line, as in `vocab.txt`.
    pub fn from_lines(text: &str) -> Vocab {
        let tokens: Vec<String> = text.lines().map(str::to_string).collect();
        let ids = tokens.iter().enumerate().map(|(i, t)| (t.clone(), i as u32)).collect();
        Vocab { tokens, ids }
    }

    pub fn len(&self) -> usize {
        self.tokens.len()
    }

    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// The id of `token`, if it is in the vocabulary.
    pub fn id(&self, token: &str) -> Option<u32> {
        self.ids.get(token).copied()
    }

    /// The text of token `id` ("" past the end).
    pub fn token(&self, id: u32) -> &str {
        self.tokens.get(id as usize).map_or("", String::as_str)
    }

    /// `text` as the model reads it: [CLS], the pieces, [SEP].
    pub fn encode(&self, text: &str) -> Vec<Piece> {
        let piece = |text: &str| Piece { id: self.id(text).unwrap_or(0), text: text.to_string() };
        let mut out = vec![piece("[CLS]")];
        for word in words(text) {
            out.extend(self.pieces(&word).into_iter().map(|p| piece(&p)));
        }
        out.push(piece("[SEP]"));
        out
    }

    /// The longest-match pieces of one word, or [UNK] alone when some part has no piece.
    fn pieces(&self, word: &str) -> Vec<String> {
        let chars: Vec<char> = word.chars().collect();
        if chars.len() > MAX_WORD_CHARS {
            return vec!["[UNK]".into()];
        }
        let mut out = Vec::new();
        let mut start = 0;
        while start < chars.len() {
            let found = (start + 1..=chars.len()).rev().find_map(|end| {
                let body: String = chars[start..end].iter().collect();
                let candidate = if start > 0 { format!("##{body}") } else { body };
                self.ids.contains_key(&candidate).then_some((candidate, end))
            });
            match found {
                Some((piece, end)) => {
                    out.push(piece);
                    start = end;
                }
                None => return vec!["[UNK]".into()],
            }
        }
        out
    }
}

/// The normalised words and punctuation marks of `text`, before WordPiece.
pub fn words(text: &str) -> Vec<String> {
    let mut spaced = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\0' || c == '\u{fffd}' || is_control(c) {
            continue;
        }
        if is_whitespace(c) {
            spaced.push(' ');
        } else if is_cjk(c) {
            spaced.extend([' ', c, ' ']);
        } else {
            spaced.push(c);
        }
    }
    let normal: String = spaced.nfd().filter(|c| !c.is_mark_nonspacing()).flat_map(char::to_lowercase).collect();
    let mut out = Vec::new();
    for chunk in normal.split(char::is_whitespace).filter(|w| !w.is_empty()) {
        let mut word = String::new();
        for c in chunk.chars() {
            if c.is_ascii_punctuation() || c.is_punctuation() {
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

/// Tab, newline and carriage return count as spaces, not as control characters.
fn is_whitespace(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r') || c.is_whitespace()
}

/// Control, format, private-use, surrogate and unassigned characters are dropped.
fn is_control(c: char) -> bool {
    !matches!(c, '\t' | '\n' | '\r') && c.is_other()
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

    fn vocab() -> Vocab {
        Vocab::from_lines("[PAD]\n[UNK]\n[CLS]\n[SEP]\nthe\nun\n##aff\n##able\n,\n猫\ncafe\n")
    }

    fn texts(pieces: &[Piece]) -> Vec<&str> {
        pieces.iter().map(|p| p.text.as_str()).collect()
    }

    #[test]
    fn pieces_are_longest_first_with_continuations() {
        let v = vocab();
        assert_eq!(
            texts(&v.encode("The unaffable, 猫")),
            ["[CLS]", "the", "un", "##aff", "##able", ",", "猫", "[SEP]"]
        );
        assert_eq!(v.encode("unaffable")[2].id, 6);
    }

    #[test]
    fn unknown_words_and_very_long_words_are_unk_whole() {
        let v = vocab();
        assert_eq!(texts(&v.encode("unx the")), ["[CLS]", "[UNK]", "the", "[SEP]"]);
        assert_eq!(texts(&v.encode(&"un".repeat(60))), ["[CLS]", "[UNK]", "[SEP]"]);
    }

    #[test]
    fn accents_case_controls_and_cjk_are_normalised() {
        assert_eq!(words("Café\u{200b}\u{7}NAÏVE"), ["cafenaive"]);
        assert_eq!(words("我是猫。ok"), ["我", "是", "猫", "。", "ok"]);
        assert_eq!(words("  \t\n "), Vec::<String>::new());
        assert_eq!(words("a--b"), ["a", "-", "-", "b"]);
    }
}
