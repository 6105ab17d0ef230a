//! Tokenisation a learner can predict by eye: Latin words split on white space, every
//! punctuation mark its own token, and one token per CJK character. An apostrophe between
//! two letters stays inside the word ("didn't" is one token).

/// Is `c` a CJK ideograph, kana, Hangul syllable or CJK/full-width punctuation?
/// Each such character is a token of its own.
pub fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3000..=0x303F     // CJK symbols and punctuation (。、「」)
        | 0x3040..=0x30FF   // Hiragana, Katakana
        | 0x3400..=0x4DBF   // CJK extension A
        | 0x4E00..=0x9FFF   // CJK unified ideographs
        | 0xAC00..=0xD7AF   // Hangul syllables
        | 0xF900..=0xFAFF   // CJK compatibility ideographs
        | 0xFF00..=0xFFEF   // full-width forms (，！？)
        | 0x20000..=0x2FA1F // CJK extensions B–F and supplement
    )
}

/// Split `text` into tokens.
///
/// ```
/// use attention_core::tokenize::tokenize;
/// assert_eq!(tokenize("It's tired."), ["It's", "tired", "."]);
/// assert_eq!(tokenize("猫很累。"), ["猫", "很", "累", "。"]);
/// ```
pub fn tokenize(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut word = String::new();
    let flush = |word: &mut String, tokens: &mut Vec<String>| {
        if !word.is_empty() {
            tokens.push(std::mem::take(word));
        }
    };
    for (i, &c) in chars.iter().enumerate() {
        let between_letters = |c: char| {
            matches!(c, '\'' | '’')
                && i > 0
                && chars[i - 1].is_alphanumeric()
                && chars.get(i + 1).is_some_and(|n| n.is_alphanumeric() && !is_cjk(*n))
        };
        if c.is_whitespace() {
            flush(&mut word, &mut tokens);
        } else if is_cjk(c) {
            flush(&mut word, &mut tokens);
            tokens.push(c.to_string());
        } else if c.is_alphanumeric() || between_letters(c) {
            word.push(c);
        } else {
            // Punctuation, symbols, emoji: one token each.
            flush(&mut word, &mut tokens);
            tokens.push(c.to_string());
        }
    }
    flush(&mut word, &mut tokens);
    tokens
}

#[cfg(test)]
mod tests {
    use super::tokenize;

    #[test]
    fn english_sentence() {
        assert_eq!(
            tokenize("The animal didn't cross the street, because it was too tired."),
            ["The", "animal", "didn't", "cross", "the", "street", ",", "because", "it", "was", "too", "tired", "."]
        );
    }

    #[test]
    fn chinese_is_one_token_per_character() {
        assert_eq!(tokenize("小猫 累了！"), ["小", "猫", "累", "了", "！"]);
    }

    #[test]
    fn mixed_and_edge_cases() {
        assert_eq!(tokenize("GPT-4很强"), ["GPT", "-", "4", "很", "强"]);
        assert_eq!(tokenize("'quoted'"), ["'", "quoted", "'"]);
        assert_eq!(tokenize("<b>hi</b>"), ["<", "b", ">", "hi", "<", "/", "b", ">"]);
        assert!(tokenize("   \n\t ").is_empty());
        assert!(tokenize("").is_empty());
    }
}
