//! Finding a typed word among a model's tokens: the run of pieces that spells it. A word may be
//! one token (`it`, `它`) or several (`马路` is `马 | 路` to multilingual-e5-small); the case
//! study and the same-word panel both look words up here, for every tokenizer.
//!
//! Pieces are read by their own marks: WordPiece marks a piece that continues a word with `##`;
//! SentencePiece marks a piece that starts one with `▁`, so in its tokens an unmarked piece
//! continues a word when it touches letters or digits on both sides (of a script that spaces
//! its words: Chinese characters run on without spaces, and every one may start a word). A span must start
//! and end at word edges: `it` is found in "because it was", never inside "wait" (`▁wa | it`).

use super::bert::chars::is_cjk;
use super::model::Token;
use std::ops::Range;

/// SentencePiece's word-start mark.
const WORD_START: char = '▁';

/// The piece as it spells the word: without its marks, lower-cased.
pub fn spelled(piece: &str) -> String {
    piece.trim_start_matches("##").trim_start_matches(WORD_START).to_lowercase()
}

/// Whether `tokens[i]` starts a word (or is past the end, which ends one).
fn starts_word(tokens: &[Token], i: usize, sentencepiece: bool) -> bool {
    let Some(token) = tokens.get(i) else { return true };
    let text = &token.text;
    if text.starts_with("##") {
        return false;
    }
    if !sentencepiece || text.starts_with(WORD_START) {
        return true;
    }
    let before = i.checked_sub(1).and_then(|p| tokens[p].text.chars().last());
    let spaced = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() && !is_cjk(c));
    !(spaced(before) && spaced(text.chars().next()))
}

/// The tokens that spell `word` (case aside), at its first place where they start and end at
/// word edges; `None` when no run of whole pieces spells it (a piece may swallow it: `因为它`).
pub fn word_span(tokens: &[Token], word: &str) -> Option<Range<usize>> {
    let target: String = word.split_whitespace().collect::<String>().to_lowercase();
    if target.is_empty() {
        return None;
    }
    let sentencepiece = tokens.iter().any(|t| t.text.starts_with(WORD_START));
    (0..tokens.len()).find_map(|start| {
        let first = spelled(&tokens[start].text);
        if first.is_empty() || !starts_word(tokens, start, sentencepiece) {
            return None;
        }
        let mut spelt = String::new();
        for end in start..tokens.len() {
            spelt.push_str(&spelled(&tokens[end].text));
            if !target.starts_with(&spelt) {
                return None;
            }
            if spelt == target {
                return starts_word(tokens, end + 1, sentencepiece).then_some(start..end + 1);
            }
        }
        None
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(texts: &[&str]) -> Vec<Token> {
        texts.iter().map(|t| Token { id: 0, text: t.to_string() }).collect()
    }

    #[test]
    fn a_word_of_several_pieces_is_found_whole() {
        let t =
            tokens(&["<s>", "▁动物", "没有", "穿过", "马", "路", ",", "原因是", "它", "太", "累", "了", "。", "</s>"]);
        assert_eq!(word_span(&t, "马路"), Some(4..6));
        assert_eq!(word_span(&t, "它"), Some(8..9));
        assert_eq!(word_span(&t, "动物"), Some(1..2));
        assert_eq!(word_span(&t, "猫"), None);
    }

    #[test]
    fn a_swallowed_word_is_not_found() {
        let t = tokens(&["<s>", "▁动物", "没有", "穿过", "马路", ",", "因为它", "太", "累", "了", "</s>"]);
        assert_eq!(word_span(&t, "它"), None);
        assert_eq!(word_span(&t, "马"), None, "half of a piece is not a word");
    }

    #[test]
    fn latin_words_start_and_end_at_word_edges() {
        let sp = tokens(&["<s>", "▁we", "▁wa", "it", "▁because", "▁it", "s", "▁it", "</s>"]);
        assert_eq!(word_span(&sp, "it"), Some(7..8), "not inside wait, not the start of its");
        assert_eq!(word_span(&sp, "wait"), Some(2..4));
        let wp = tokens(&["[CLS]", "the", "street", "##s", "it", "[SEP]"]);
        assert_eq!(word_span(&wp, "street"), None, "streets is not street");
        assert_eq!(word_span(&wp, "streets"), Some(2..4));
        assert_eq!(word_span(&wp, "It"), Some(4..5), "case aside");
        let accented = tokens(&["<s>", "▁caf", "é", "▁au", "▁lait", "</s>"]);
        assert_eq!((word_span(&accented, "caf"), word_span(&accented, "café")), (None, Some(1..3)));
    }
}
