//! The settings' round trip through the URL query string, so a reload or a shared link shows
//! the same picture. One table, [`KEYS`], names every key with how to write and read it; the
//! writer, the parser and the fuzz test all walk it. Parsing never fails: a bad value is
//! ignored (the default stays) and its key is reported, so the page can name it.

use super::{Catalog, Index, ModelId, Settings, Stage, Theme, View};
use crate::bridge::{key_of, Hosted};
use crate::core::ablate::{Ablation, Replacement};
use crate::core::attention::Mask;
use crate::i18n::Lang;
use crate::number::parse_decimal;
pub use crate::percent::{decode, encode};

fn flag(v: bool) -> Option<String> {
    Some(if v { "1" } else { "0" }.into())
}

fn parse_flag(v: &str) -> Option<bool> {
    match v {
        "1" | "true" | "on" => Some(true),
        "0" | "false" | "off" => Some(false),
        _ => None,
    }
}

/// A 1-based index in the URL as the 0-based index the settings hold.
fn index(v: &str) -> Option<usize> {
    v.parse::<usize>().ok()?.checked_sub(1)
}

/// One key of the query string.
pub struct Key {
    /// The name in the URL.
    pub name: &'static str,
    /// Its value for `s`, or `None` to leave the key out.
    write: fn(&Settings) -> Option<String>,
    /// Apply a value to `s` through the setting's own setter (which may ask `catalog` for the
    /// model); `false` if it was not accepted.
    read: fn(&mut Settings, &str, &dyn Catalog) -> bool,
}

// The keys of a link that the modules the page starts own or change ([`module_keys`]),
// beside the lesson's `KEYS` below, so that every key of a link is named in this one file.

/// The lesson's keys the side lessons' module changes (besides `view`, when the block's button
/// leads back to the lesson): the page owns them (they are in its settings and its links) and
/// reads them from the link the module asks it to go to. A key a side lesson changes that is
/// not here never reaches the page.
pub const SIDE_KEYS: [&str; 6] = ["vdk", "vn", "layer", "head", "tile", "cn"];

/// The training view's URL keys, in the order it writes them; the page keeps them as they are.
pub const LEARN_KEYS: [&str; 11] = ["task", "ld", "lh", "ll", "lr", "lb", "lseed", "lscale", "lmlp", "lkv", "lpos"];

/// The generator's choice of model (`saved`: the one saved for the lesson), which the lesson's
/// "Generate with this model" sets.
pub const GENERATE_KEY: &str = "lgen";

/// Every key of the training view's module: its setup's and the generator's.
pub const LEARN_MODULE_KEYS: [&str; 12] = {
    let mut keys = [GENERATE_KEY; 12];
    let mut i = 0;
    while i < LEARN_KEYS.len() {
        keys[i] = LEARN_KEYS[i];
        i += 1;
    }
    keys
};

/// The case study's URL keys: its two sentences and its three words.
pub const STUDY_KEYS: [&str; 3] = ["c1", "c2", "cw"];

/// The model view's second sentence, which a similarity is measured against.
pub const SECOND_KEY: &str = "cmp";

/// The pretrained views' URL keys: the case study's and the model view's.
pub const PRETRAINED_KEYS: [&str; 4] = ["c1", "c2", "cw", SECOND_KEY];

/// The URL keys module `module` owns, in the order it writes them.
pub fn module_keys(module: Hosted) -> &'static [&'static str] {
    match module {
        Hosted::Learn => &LEARN_MODULE_KEYS,
        Hosted::Pretrained => &PRETRAINED_KEYS,
        Hosted::Side => &[],
    }
}

/// Whether a query pair is one of a module's.
pub fn is_module_pair(pair: &str) -> bool {
    key_of(pair).is_some_and(|k| Hosted::ALL.iter().any(|&m| module_keys(m).contains(&k.as_str())))
}

/// The modules' pairs of `query` ("&"-joined, each with its leading "&"), as they are: the
/// page keeps them as the module last asked.
pub fn module_pairs(query: &str) -> String {
    query.trim_start_matches('?').split('&').filter(|p| is_module_pair(p)).map(|p| format!("&{p}")).collect()
}

/// Every key, in the order it is written and read. Order matters when reading: `lang` first
/// (it decides the default sentences), `model` before the layer, the sentence and the head,
/// `d` before `h`, `h` before `head`, `text` before the indices into it.
pub const KEYS: &[Key] = &[
    Key {
        name: "lang",
        write: |s| Some(s.lang().slug().into()),
        read: |s, v, _| Lang::from_slug(v).is_some_and(|l| l == s.lang()),
    },
    // Before the sentence and the head: the model decides how tokens and heads are counted.
    Key {
        name: "model",
        write: |s| Some(s.choice().id().slug().into()),
        // Chosen before the sentence is read (the sentence may be one only it reads); the two
        // are checked together once the whole link is read.
        read: |s, v, c| ModelId::from_slug(v).is_some_and(|m| s.select_model(m, c)),
    },
    Key {
        name: "layer",
        // Left out while it is the model's own (see `Lesson::head_follows`), like the head.
        write: |s| (!s.lesson().head_follows()).then(|| (s.lesson().layer() + 1).to_string()),
        read: |s, v, c| index(v).is_some_and(|l| s.set_layer(l, c)),
    },
    Key { name: "text", write: |s| Some(s.lesson().text().into()), read: |s, v, c| s.set_text(v, c).is_ok() },
    // Always written: the self/causal/cross view shows the second sentence even when off.
    Key { name: "kv", write: |s| Some(s.lesson().kv_text().into()), read: |s, v, c| s.set_kv_text(v, c).is_ok() },
    Key {
        name: "cross",
        write: |s| flag(s.lesson().cross()),
        read: |s, v, _| parse_flag(v).map(|b| s.lesson_mut().set_cross(b)).is_some(),
    },
    Key {
        name: "d",
        write: |s| Some(s.choice().random().d_model.to_string()),
        read: |s, v, c| v.parse().is_ok_and(|d| s.change_choice(c, |m| m.set_d_model(d))),
    },
    Key {
        name: "h",
        write: |s| Some(s.choice().random().n_heads.to_string()),
        read: |s, v, c| v.parse().is_ok_and(|h| s.change_choice(c, |m| m.set_n_heads(h))),
    },
    Key {
        name: "seed",
        write: |s| Some(s.choice().random().seed.to_string()),
        read: |s, v, c| v.parse().is_ok_and(|x| s.change_choice(c, |m| m.set_seed(x))),
    },
    Key {
        name: "pe",
        write: |s| flag(s.choice().random().positional),
        read: |s, v, c| parse_flag(v).is_some_and(|b| s.change_choice(c, |m| m.set_positional(b))),
    },
    Key {
        name: "mask",
        write: |s| Some(s.lesson().mask().slug().into()),
        read: |s, v, _| Mask::from_slug(v).map(|m| s.lesson_mut().set_mask(m)).is_some(),
    },
    Key {
        name: "scale",
        write: |s| flag(s.lesson().scaled()),
        read: |s, v, _| parse_flag(v).map(|b| s.lesson_mut().set_scaled(b)).is_some(),
    },
    Key {
        name: "t",
        write: |s| Some(s.lesson().temperature_text()),
        read: |s, v, _| parse_decimal(v).is_some_and(|t| s.lesson_mut().set_temperature(t)),
    },
    Key {
        name: "dk",
        write: |s| s.lab().chosen().map(|d| d.to_string()),
        read: |s, v, _| parse_decimal(v).is_some_and(|d| s.lab_mut().set_dk(d)),
    },
    Key {
        name: "stage",
        write: |s| Some(s.lesson().stage().slug().into()),
        read: |s, v, _| Stage::from_slug(v).map(|x| s.lesson_mut().set_stage(x)).is_some(),
    },
    Key {
        name: "view",
        write: |s| Some(s.view().slug().into()),
        read: |s, v, _| View::from_slug(v).map(|x| s.set_view(x)).is_some(),
    },
    Key {
        name: "vdk",
        write: |s| Some(s.variance().dk().to_string()),
        read: |s, v, _| parse_decimal(v).is_some_and(|d| s.variance_mut().set_dk(d)),
    },
    Key {
        name: "vn",
        write: |s| Some(s.variance().samples().to_string()),
        read: |s, v, _| v.parse().is_ok_and(|n| s.variance_mut().set_samples(n)),
    },
    Key {
        name: "cn",
        write: |s| Some(s.cost().log_n().to_string()),
        read: |s, v, _| v.parse().is_ok_and(|e| s.cost_mut().set_log_n(e)),
    },
    Key {
        name: "tile",
        write: |s| Some(s.cost().tile().to_string()),
        read: |s, v, _| v.parse().is_ok_and(|t| s.cost_mut().set_tile(t)),
    },
    Key {
        name: "head",
        write: |s| (!s.lesson().head_follows()).then(|| (s.lesson().head() + 1).to_string()),
        read: |s, v, c| index(v).is_some_and(|h| s.set_head(h, c)),
    },
    // The replacement before the heads, which are read with it.
    Key {
        name: "ablatemode",
        write: |s| {
            Some(s.lesson().ablation().replacement).filter(|r| *r != Replacement::default()).map(|r| r.slug().into())
        },
        read: |s, v, _| Replacement::from_slug(v).map(|r| s.lesson_mut().set_replacement(r)).is_some(),
    },
    Key {
        name: "ablate",
        write: |s| Some(s.lesson().ablation().written()).filter(|w| !w.is_empty()),
        read: |s, v, c| {
            let shape = s.model(c).shape().clone();
            let replacement = s.lesson().ablation().replacement;
            Ablation::parse(v, replacement, shape.n_layers, shape.n_heads).is_ok_and(|a| s.set_ablated(&a, c))
        },
    },
    Key {
        name: "q",
        write: |s| s.linked(Index::Query).map(|q| (q + 1).to_string()),
        read: |s, v, c| index(v).is_some_and(|q| s.ask_for(Index::Query, q, c)),
    },
    Key {
        name: "spot",
        write: |s| s.linked(Index::Spot).map(|x| (x + 1).to_string()),
        read: |s, v, c| index(v).is_some_and(|x| s.ask_for(Index::Spot, x, c)),
    },
    Key {
        name: "present",
        write: |s| flag(s.classroom().present()),
        read: |s, v, _| parse_flag(v).map(|b| s.classroom_mut().set_present(b)).is_some(),
    },
    Key {
        name: "predict",
        write: |s| flag(s.classroom().predict()),
        read: |s, v, _| parse_flag(v).map(|b| s.classroom_mut().set_predict(b)).is_some(),
    },
    Key {
        name: "theme",
        write: |s| Some(s.classroom().theme().slug().into()),
        read: |s, v, _| Theme::from_slug(v).map(|t| s.classroom_mut().set_theme(t)).is_some(),
    },
    Key {
        name: "anchor",
        write: |s| s.linked(Index::Anchor).map(|a| (a + 1).to_string()),
        read: |s, v, c| index(v).is_some_and(|a| s.ask_for(Index::Anchor, a, c)),
    },
];

/// The lesson's pairs that show `model` with `ablation`'s heads switched off, named as
/// [`KEYS`] names them: what the model view's switches ask the page for.
pub fn ablation_pairs(model: ModelId, ablation: &Ablation) -> [(&'static str, String); 3] {
    [("model", model.slug().into()), ("ablatemode", ablation.replacement.slug().into()), ("ablate", ablation.written())]
}

impl Settings {
    /// The settings as a query string (without "?").
    pub fn to_query(&self) -> String {
        self.query_where(|_, _| true)
    }

    /// The query of the keys whose written value `keep(key, value)` accepts, in [`KEYS`] order.
    fn query_where(&self, keep: impl Fn(&Key, &str) -> bool) -> String {
        let pair = |k: &Key| (k.write)(self).filter(|v| keep(k, v)).map(|v| format!("{}={}", k.name, encode(&v)));
        KEYS.iter().filter_map(pair).collect::<Vec<_>>().join("&")
    }

    /// The shortest query that reopens these settings: the language, then only the keys whose
    /// value differs from that language's defaults.
    pub fn to_short_query(&self) -> String {
        let defaults = Settings::new(self.lang());
        self.query_where(|k, value| k.name == "lang" || (k.write)(&defaults).as_deref() != Some(value))
    }

    /// Settings from a query string (with or without "?"), starting from the defaults in the
    /// link's language (else `lang`), the models as `catalog` knows them; also returns the
    /// keys whose values were ignored, in the order of [`KEYS`]. Unknown keys are ignored
    /// silently; of a repeated key the last counts.
    pub fn from_query(query: &str, lang: Lang, catalog: &dyn Catalog) -> (Self, Vec<String>) {
        let pairs = crate::percent::pairs(query);
        let get = |key: &str| crate::percent::last(&pairs, key);
        let lang = get("lang").flatten().and_then(Lang::from_slug).unwrap_or(lang);
        let mut s = Settings::new(lang);
        let mut ignored = Vec::new();
        for key in KEYS {
            if let Some(value) = get(key.name) {
                if !value.is_some_and(|v| (key.read)(&mut s, v, catalog)) {
                    ignored.push(key.name.to_string());
                }
            }
        }
        if !s.settle_link(catalog) && !ignored.iter().any(|k| k == "model") {
            // In the table's order, like the others.
            let order = |name: &str| KEYS.iter().position(|k| k.name == name);
            let at = ignored.iter().position(|k| order(k) > order("model")).unwrap_or(ignored.len());
            ignored.insert(at, "model".to_string());
        }
        (s, ignored)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models::Models;

    fn parse(query: &str, lang: Lang) -> (Settings, Vec<String>) {
        Settings::from_query(query, lang, &Models::default())
    }

    #[test]
    fn the_modules_keys_are_theirs_and_the_lesson_keeps_the_others() {
        assert!(is_module_pair("%6Cd=3") && !is_module_pair("lang=zh") && !is_module_pair("d=64"));
        assert_eq!(module_pairs("?lang=zh&task=sort&d=64&lr=0.1&c1=A"), "&task=sort&lr=0.1&c1=A");
        assert_eq!(LEARN_MODULE_KEYS[..11], LEARN_KEYS, "the module's keys are the setup's and then the generator's");
        assert_eq!(LEARN_MODULE_KEYS[11], GENERATE_KEY);
        let lesson: Vec<&str> = KEYS.iter().map(|k| k.name).collect();
        for module in Hosted::ALL {
            assert!(module_keys(module).iter().all(|k| !lesson.contains(k)), "{module:?} owns a key of the lesson");
        }
        assert!(SIDE_KEYS.iter().all(|k| lesson.contains(k)), "the side lessons change only the lesson's keys");
    }

    #[test]
    fn round_trip_through_the_query() {
        let c = Models::default();
        let mut s = Settings::new(Lang::Zh);
        assert!(s.set_text("猫 & dog = 100% <b>", &c).is_ok());
        s.lesson_mut().set_cross(true);
        assert!(s.set_kv_text("key side", &c).is_ok());
        assert!(
            s.change_choice(&c, |m| m.set_d_model(128))
                && s.change_choice(&c, |m| m.set_n_heads(8))
                && s.change_choice(&c, |m| m.set_seed(7))
                && s.change_choice(&c, |m| m.set_positional(false))
        );
        s.lesson_mut().set_mask(Mask::Causal);
        assert!(s.lesson_mut().set_temperature(0.5) && s.lab_mut().set_dk(1024.0));
        s.lesson_mut().set_scaled(false);
        s.set_view(View::Graph);
        assert!(s.variance_mut().set_dk(8.0) && s.variance_mut().set_samples(10_000));
        assert!(s.set_anchor(2, &c) && s.cost_mut().set_log_n(17) && s.cost_mut().set_tile(16));
        s.classroom_mut().set_present(true);
        s.classroom_mut().set_theme(Theme::Contrast);
        assert!(s.set_spot(Some(1), &c));
        s.lesson_mut().set_stage(Stage::Softmax);
        assert!(s.set_head(3, &c) && s.set_query(2, &c));
        let (back, ignored) = parse(&s.to_query(), Lang::En);
        assert_eq!(back, s);
        assert!(ignored.is_empty(), "{ignored:?}");
    }

    #[test]
    fn the_pretrained_model_and_its_layer_round_trip_and_garbage_is_named() {
        let c = Models::default();
        let mut s = Settings::new(Lang::En);
        assert!(s.set_model(ModelId::Minilm, &c) && s.set_layer(2, &c) && s.set_head(11, &c));
        let (back, ignored) = parse(&s.to_query(), Lang::En);
        let got = (back.choice().id(), back.lesson().layer(), back.lesson().head(), ignored.len());
        assert_eq!(got, (ModelId::Minilm, 2, 11, 0));
        // The case study's keys are its module's (`pretrained::study`): the page leaves them.
        let (bad, ignored) = parse("model=gpt9&layer=7&cw=a,b", Lang::En);
        assert_eq!((bad.choice().id(), bad.lesson().layer()), (ModelId::Random, 0));
        assert_eq!(ignored, ["model", "layer"]);
    }

    #[test]
    fn switched_off_heads_round_trip_and_a_head_the_model_lacks_is_named() {
        let c = Models::default();
        let (s, ignored) = parse("model=minilm&ablate=2.3,%201.1&ablatemode=mean", Lang::En);
        assert!(ignored.is_empty(), "{ignored:?}");
        let a = s.lesson().ablation();
        assert_eq!((a.heads(), a.replacement), (&[(0, 0), (1, 2)][..], Replacement::Mean));
        assert_eq!(s.run_options(&*s.model(&c)).ablation, *a, "the model runs with them off");
        let query = s.to_query();
        assert!(query.contains("&ablatemode=mean&ablate=1.1%2C2.3&"), "{query}");
        assert_eq!(parse(&query, Lang::En).0, s);
        // MiniLM has 6 layers of 12 heads; a typo is not a head.
        for bad in ["ablate=7.1", "ablate=1.13", "ablate=1.1,x", "ablate=0.1"] {
            let (s, ignored) = parse(&format!("model=minilm&{bad}"), Lang::En);
            assert_eq!((s.lesson().ablation().is_empty(), ignored), (true, vec!["ablate".to_string()]), "{bad}");
        }
        let (s, ignored) = parse("ablatemode=half", Lang::En);
        assert_eq!((s.lesson().ablation().replacement, ignored), (Replacement::Zero, vec!["ablatemode".to_string()]));
        // Another model keeps the heads it has.
        let (mut s, _) = parse("model=minilm&ablate=1.2,3.4", Lang::En);
        assert!(s.set_model(ModelId::Random, &c));
        assert_eq!(s.lesson().ablation().heads(), [(0, 1)], "random weights have one layer of four heads");
    }

    #[test]
    fn the_model_view_s_switches_are_read_by_the_lesson() {
        let ablation = Ablation::new([(5, 11), (0, 2)], Replacement::Mean);
        let pairs = ablation_pairs(ModelId::Minilm, &ablation);
        assert!(pairs.iter().all(|(k, _)| KEYS.iter().any(|key| key.name == *k)));
        let query: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={}", encode(v))).collect();
        let (s, ignored) = parse(&query.join("&"), Lang::En);
        assert!(ignored.is_empty(), "{ignored:?}");
        assert_eq!((s.choice().id(), s.lesson().ablation()), (ModelId::Minilm, &ablation));
    }

    #[test]
    fn every_key_is_written_once() {
        let c = Models::default();
        let mut s = Settings::new(Lang::En);
        assert!(s.set_spot(Some(0), &c) && s.lab_mut().set_dk(64.0) && s.toggle_head(0, 1, &c));
        // The layer, head and query once chosen (before, they follow the model and sentence).
        assert!(s.set_layer(0, &c) && s.set_head(0, &c) && s.set_query(0, &c));
        s.lesson_mut().set_replacement(Replacement::Mean);
        let query = s.to_query();
        let written: Vec<&str> = query.split('&').filter_map(|p| p.split_once('=')).map(|(k, _)| k).collect();
        assert_eq!(written, KEYS.iter().map(|k| k.name).collect::<Vec<_>>());
    }

    #[test]
    fn garbage_falls_back_to_defaults_and_is_named() {
        let (s, ignored) = parse("?d=abc&h=3&t=-1&stage=nope&dk=5000&seed=x&text=&lang=fr&zzz=1&view=x&vn=7&cn=40&tile=3&anchor=99&spot=0&present=maybe&theme=neon&mask=sideways", Lang::En);
        let d = Settings::new(Lang::En);
        assert_eq!((s.choice(), s.lesson(), s.lab()), (d.choice(), d.lesson(), d.lab()));
        assert_eq!(
            ignored,
            [
                "lang", "text", "d", "h", "seed", "mask", "t", "dk", "stage", "view", "vn", "cn", "tile", "spot",
                "present", "theme", "anchor"
            ]
        );
    }

    #[test]
    fn heads_are_fitted_to_a_new_width() {
        let (s, ignored) = parse("d=8&h=16", Lang::En);
        assert_eq!((s.choice().random().d_model, s.choice().random().n_heads), (8, 4));
        assert_eq!(ignored, ["h"]);
    }

    #[test]
    fn lab_dk_snaps_to_a_power_of_two_and_temperature_rounds() {
        let (s, ignored) = parse("dk=700&t=0.123", Lang::En);
        assert_eq!((s.lab().dk_or(16), s.lesson().temperature()), (512, 0.12));
        assert!(ignored.is_empty());
    }

    #[test]
    fn the_lab_follows_the_lessons_head_width_until_its_slider_moves() {
        let (mut s, _) = parse("d=128&h=2", Lang::En);
        let c = Models::default();
        let lesson_dk = |s: &Settings| s.model(&c).shape().d_k();
        assert_eq!((s.lab().chosen(), s.lab().dk_or(lesson_dk(&s))), (None, 64));
        let query = s.to_query();
        assert!(!query.split('&').any(|p| p.starts_with("dk=")), "an untouched lab writes no d_k: {query}");
        assert!(s.change_choice(&c, |m| m.set_n_heads(8)));
        assert_eq!(s.lab().dk_or(lesson_dk(&s)), 16);
        assert!(s.lab_mut().set_dk(256.0));
        assert!(s.change_choice(&c, |m| m.set_n_heads(2)));
        assert_eq!(s.lab().dk_or(lesson_dk(&s)), 256);
    }

    #[test]
    fn a_student_link_is_short_leaves_the_projector_behind_and_reopens_the_same_lesson() {
        let mut s = Settings::new(Lang::Zh);
        s.classroom_mut().set_present(true);
        s.classroom_mut().set_theme(Theme::Contrast);
        s.lesson_mut().set_stage(Stage::Softmax);
        s.lesson_mut().set_scaled(false);
        s.classroom_mut().set_predict(true);
        let student = s.for_students();
        let short = student.to_short_query();
        assert_eq!(short, "lang=zh&scale=0&stage=softmax&predict=1", "students answer the questions too");
        let (back, ignored) = parse(&short, Lang::En);
        assert!(ignored.is_empty());
        assert_eq!(back, student);
        assert!(!back.classroom().present() && back.classroom().theme() == Theme::Auto);
        assert!(short.len() * 4 < s.to_query().len(), "{} vs {}", short.len(), s.to_query().len());
    }

    #[test]
    fn language_picks_the_default_sentence() {
        assert!(parse("lang=zh", Lang::En).0.lesson().text().starts_with("小猫"));
    }
}
