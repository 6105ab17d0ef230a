//! The BERT uncased WordPiece tokenizer, equal to the reference (Hugging Face `tokenizers`,
//! `BertNormalizer` + `BertPreTokenizer` + `WordPiece`): clean the text, put spaces around
//! CJK characters, strip accents, lower-case, split on spaces and punctuation (the character
//! rules in [`CharTable`]), then cut each word into the longest vocabulary pieces (`##` marks
//! a piece inside a word), with [CLS] first and [SEP] last. Tested against the reference on
//! `tests/fixtures/model/wordpiece.json`.

use super::chars::CharTable;
use crate::model::{SentenceProblem, Token};
use std::collections::HashMap;

/// Longer words become [UNK] whole, as in the reference.
pub const MAX_WORD_CHARS: usize = 100;

/// The vocabulary, token ↔ id (the line number in `vocab.txt`, from 0), with the character
/// rules that turn text into words.
#[derive(Clone, PartialEq, Eq)]
pub struct Vocab {
    tokens: Vec<String>,
    ids: HashMap<String, u32>,
    chars: CharTable,
}

impl std::fmt::Debug for Vocab {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Vocab({} tokens)", self.tokens.len())
    }
}

impl Vocab {
    /// One token per line, as in `vocab.txt`, and the character rules.
    pub fn new(lines: &str, chars: CharTable) -> Vocab {
        let tokens: Vec<String> = lines.lines().map(str::to_string).collect();
        let ids = tokens.iter().enumerate().map(|(i, t)| (t.clone(), i as u32)).collect();
        Vocab { tokens, ids, chars }
    }

    /// One token per line, with the ASCII rules only (for tests).
    pub fn from_lines(lines: &str) -> Vocab {
        Vocab::new(lines, CharTable::ascii())
    }

    /// The normalised words of `text` (see [`CharTable::words`]).
    pub fn words(&self, text: &str) -> Vec<String> {
        self.chars.words(text)
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

    /// [`Vocab::encode`] for a model of at most `max_tokens`: [CLS] and [SEP] alone are not a
    /// sentence.
    pub fn sentence(&self, text: &str, max_tokens: usize) -> Result<Vec<Token>, SentenceProblem> {
        let tokens = self.encode(text);
        if tokens.len() <= 2 {
            return Err(SentenceProblem::NoTokens);
        }
        SentenceProblem::within(tokens.len(), max_tokens)?;
        Ok(tokens)
    }

    /// `text` as the model reads it: [CLS], the pieces, [SEP] ([UNK] for a word the vocabulary
    /// cannot spell).
    pub fn encode(&self, text: &str) -> Vec<Token> {
        let piece = |text: &str| Token { id: self.id(text).unwrap_or(0), text: text.to_string() };
        let mut out = vec![piece("[CLS]")];
        for word in self.words(text) {
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

/// The words of `text` by the ASCII rules alone: exact for ASCII, a close count otherwise
/// (used before the model's own rules have arrived).
pub fn rough_words(text: &str) -> Vec<String> {
    CharTable::ascii().words(text)
}

/// `text` as the model will read it at most, before its vocabulary has arrived: its words,
/// between [CLS] and [SEP] (no word becomes fewer pieces than one).
pub fn rough_tokens(text: &str) -> Vec<String> {
    let inner = rough_words(text).into_iter();
    std::iter::once("[CLS]".to_string()).chain(inner).chain(std::iter::once("[SEP]".to_string())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vocab() -> Vocab {
        Vocab::from_lines("[PAD]\n[UNK]\n[CLS]\n[SEP]\nthe\nun\n##aff\n##able\n,\n猫\ncafe\n")
    }

    fn texts(pieces: &[Token]) -> Vec<&str> {
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
    fn the_character_rules_come_from_the_table() {
        let mut chars = CharTable::ascii();
        chars.normal.insert('É', "e".into());
        chars.punctuation = super::super::chars::Ranges::from_points([u32::from('-'), 0x3002]);
        let v = Vocab::new("[PAD]\n[UNK]\n[CLS]\n[SEP]\ne\n-\n", chars);
        assert_eq!(v.words("É-x。y"), ["e", "-", "x", "。", "y"]);
        assert_eq!(rough_words("a--b"), ["a", "-", "-", "b"]);
    }
}
