//! The case study's own state: two sentences, the token read from and two tokens it may read
//! (as typed; matched against the model's tokens), kept in the address bar under its own keys
//! (`settings::url::STUDY_KEYS`: `c1`, `c2`, `cw`), which the page keeps as they are.

use crate::bridge::{read_pairs, with_pairs};
use crate::core::bert::wordpiece::rough_words;
use crate::core::bert::MINILM_TOKENS;
use crate::i18n::Lang;
use crate::models::ModelId;
use crate::settings::url::STUDY_KEYS;

/// The sentences and words of the case study.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Study {
    sentences: [String; 2],
    /// The query word, then the two targets.
    words: [String; 3],
}

impl Default for Study {
    fn default() -> Self {
        Self {
            sentences: [
                "The animal didn't cross the street because it was too tired".into(),
                "The animal didn't cross the street because it was too wide".into(),
            ],
            words: ["it".into(), "animal".into(), "street".into()],
        }
    }
}

impl Study {
    /// The pair a class starts from: in Chinese, on a model that reads it (multilingual-e5-small),
    /// the Chinese one (它, 动物, 马路; 原因是 rather than 因为, which swallows 它, and rather than 由于, which Chinese does not put at the head of the second clause); else the English.
    pub fn first(lang: Lang, model: ModelId) -> Self {
        if lang != Lang::Zh || model != ModelId::E5 {
            return Self::default();
        }
        Self {
            sentences: ["动物没有穿过马路，原因是它太累了。".into(), "动物没有穿过马路，原因是它太宽了。".into()],
            words: ["它".into(), "动物".into(), "马路".into()],
        }
    }

    pub fn sentences(&self) -> &[String; 2] {
        &self.sentences
    }

    pub fn words(&self) -> &[String; 3] {
        &self.words
    }

    /// Sentence `which` (0 or 1), if it has words and at most as many as the model reads.
    pub fn set_sentence(&mut self, which: usize, text: &str) -> bool {
        let fits = (1..=MINILM_TOKENS - 2).contains(&rough_words(text).len());
        let slot = self.sentences.get_mut(which).filter(|_| fits);
        slot.map(|s| *s = text.to_string()).is_some()
    }

    /// Word `which` (0 = query, 1 and 2 = targets), if it is one word (no space inside; a
    /// Chinese word may have several characters, and the model may cut it into pieces).
    pub fn set_word(&mut self, which: usize, word: &str) -> bool {
        let one = word.split_whitespace().count() == 1;
        let slot = self.words.get_mut(which).filter(|_| one);
        slot.map(|w| *w = word.trim().to_string()).is_some()
    }

    /// All three words at once, if each is one word (none changes otherwise).
    pub fn set_words(&mut self, words: &[&str]) -> bool {
        let mut next = self.clone();
        let ok = words.len() == 3 && words.iter().enumerate().all(|(i, w)| next.set_word(i, w));
        ok.then(|| *self = next).is_some()
    }

    /// The study a query string names (`start`'s values for what it does not), and the keys
    /// whose values were not taken.
    pub fn from_query(query: &str, start: Study) -> (Self, Vec<String>) {
        let mut study = start;
        let mut ignored = Vec::new();
        for (key, value) in read_pairs(query, &STUDY_KEYS) {
            let taken = value.is_some_and(|v| match key.as_str() {
                "c1" => study.set_sentence(0, &v),
                "c2" => study.set_sentence(1, &v),
                _ => study.set_words(&v.split(',').collect::<Vec<_>>()),
            });
            if !taken {
                ignored.push(key);
            }
        }
        (study, ignored)
    }

    /// `query` with this study's keys written.
    pub fn into_query(&self, query: &str) -> String {
        let words = self.words.join(",");
        with_pairs(query, &[("c1", &self.sentences[0]), ("c2", &self.sentences[1]), ("cw", &words)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_study_keeps_sentences_and_single_words() {
        let mut study = Study::default();
        assert!(study.set_word(1, " Animal ") && study.words()[1] == "Animal");
        assert!(!study.set_word(2, "two words") && !study.set_word(3, "x"));
        assert!(!study.set_sentence(0, "  ") && !study.set_sentence(2, "fine"));
        assert!(study.set_sentence(1, "The cat sat."));
        assert!(study.set_word(2, "马路") && study.words()[2] == "马路", "a Chinese word of two characters");
    }

    #[test]
    fn a_chinese_class_on_the_multilingual_model_starts_from_the_chinese_pair() {
        let zh = Study::first(Lang::Zh, ModelId::E5);
        assert_eq!(zh.words(), &["它", "动物", "马路"].map(String::from));
        assert!(zh.sentences().iter().all(|s| s.contains("原因是它")));
        assert_eq!(Study::first(Lang::Zh, ModelId::Minilm), Study::default(), "MiniLM reads no Chinese");
        assert_eq!(Study::first(Lang::En, ModelId::E5), Study::default());
        let (kept, _) = Study::from_query("c1=A%20cat%20sat", zh.clone());
        assert_eq!(
            (kept.sentences()[1].as_str(), kept.sentences()[0].as_str()),
            (zh.sentences()[1].as_str(), "A cat sat")
        );
    }

    #[test]
    fn the_study_goes_through_the_url_beside_the_lesson_s_keys() {
        let mut study = Study::default();
        assert!(study.set_sentence(1, "A cat, then & a dog") && study.set_words(&["cat", "dog", "then"]));
        let query = study.into_query("lang=zh&c1=old&d=64");
        assert!(query.starts_with("lang=zh&d=64&c1="), "{query}");
        assert_eq!(Study::from_query(&query, Study::default()), (study, vec![]));
        let (bad, ignored) = Study::from_query("cw=a,b&c2=%20", Study::default());
        assert_eq!((bad, ignored), (Study::default(), vec!["cw".to_string(), "c2".to_string()]));
    }
}
