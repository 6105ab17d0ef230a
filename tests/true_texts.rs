//! True in every state: every stage's formula, explanation, notice and plain reading, the
//! weights note, the sentence hint, the code panel, the saturation lab's and the linear panel's
//! texts, rendered over a grid of reachable states (1, 2 and 64 tokens; 1 and 16 heads; d_k = 1
//! and 64; scaling on and off; T = 0.05, 1 and 20; no mask, causal, cross-attention with a
//! 1-token second sentence; positions on and off; random, pretrained and your weights; Chinese
//! and other [UNK]s) in both languages, each checked against what it claims. A sentence that is
//! false in some state fails here when it comes back.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use attention_lab::core::bert::{Asset, Bert, MINILM};
use attention_lab::core::linear::linear_head;
use attention_lab::core::model::{InputRule, Origin, Outcome};
use attention_lab::core::saturation::sweep;
use attention_lab::core::study::case_study;
use attention_lab::core::train::session::{Session, Setup};
use attention_lab::core::train::yours::YourModel;
use attention_lab::core::Mask;
use attention_lab::i18n::{Formula, Lang, Msg};
use attention_lab::models::{Arrival, Catalog, ModelId, Models};
use attention_lab::reading::stage_reading;
use attention_lab::settings::{Settings, Stage};
use attention_lab::stage_code::{stage_code, CodeShapes};
use attention_lab::stage_texts::{
    linear_texts, notice_variant, saturation_texts, sentence_hint, stage_texts, weights_note, StageTexts,
};
use attention_lab::study_texts::{case_study_findings, pieces_notes, steady_findings, Check, WRONG_ANTECEDENT};
use common::outcome_of;
use std::sync::{Arc, OnceLock};

fn models() -> &'static Models {
    static MODELS: OnceLock<Models> = OnceLock::new();
    MODELS.get_or_init(|| {
        let bytes = common::model_file("minilm-l6.bin");
        let bert = Bert::from_asset(Asset::decode(&bytes).expect("a model file"), &MINILM).expect("a whole model");
        let mut session = Session::new(Setup { n_layers: 2, ..Setup::default() }).expect("a setup");
        for _ in 0..3 {
            let _ = session.step();
        }
        let yours = YourModel::of(&session, &session.example()).expect("a model");
        let mut models = Models::default();
        models.arrive(ModelId::Minilm, Arrival::Ready(Arc::new(bert)));
        models.arrive(ModelId::Yours, Arrival::Ready(Arc::new(yours)));
        models
    })
}

/// One reachable state: its settings, what the page computes from them, and a name for messages.
struct State {
    name: String,
    settings: Settings,
    o: Outcome,
}

/// The lesson after `change`, which must be accepted (a control would allow it).
fn state(name: &str, change: impl FnOnce(&mut Settings, &Models) -> bool) -> State {
    let models = models();
    let mut settings = Settings::new(Lang::En);
    assert!(change(&mut settings, models), "{name}: refused");
    let o = outcome_of(&settings, models).unwrap_or_else(|e| panic!("{name}: {e:?}"));
    State { name: name.into(), settings, o }
}

fn random_sizes(s: &mut Settings, m: &Models, d_model: usize, heads: usize) -> bool {
    s.change_choice(m, |c| c.set_d_model(d_model)) && s.change_choice(m, |c| c.set_n_heads(heads))
}

fn grid() -> Vec<State> {
    let long: Vec<String> = (0..64).map(|i| format!("w{}", i % 40)).collect();
    let long = long.join(" ");
    let pretrained = |s: &mut Settings, m: &Models| s.set_model(ModelId::Minilm, m);
    // Opened as the training view opens it: with the causal mask it was trained with.
    let yours = |s: &mut Settings, m: &Models| {
        s.lesson_mut().set_mask(Mask::Causal);
        s.set_model(ModelId::Yours, m)
    };
    vec![
        state("default", |_, _| true),
        state("1 token", |s, m| s.set_text("cat", m).is_ok()),
        state("2 tokens", |s, m| s.set_text("cat sat", m).is_ok()),
        state("64 tokens", |s, m| s.set_text(&long, m).is_ok()),
        state("no repeat, positions off", |s, m| {
            s.set_text("a cat sat", m).is_ok() && s.change_choice(m, |c| c.set_positional(false))
        }),
        state("repeat, positions off", |s, m| s.change_choice(m, |c| c.set_positional(false))),
        state("1 head", |s, m| random_sizes(s, m, 64, 1)),
        state("16 heads", |s, m| random_sizes(s, m, 64, 16)),
        state("d_k 1", |s, m| random_sizes(s, m, 8, 8)),
        state("d_k 1, unscaled", |s, m| {
            s.lesson_mut().set_scaled(false);
            random_sizes(s, m, 8, 8)
        }),
        state("d_k 64", |s, m| random_sizes(s, m, 128, 2)),
        state("d_k 64, unscaled", |s, m| {
            s.lesson_mut().set_scaled(false);
            random_sizes(s, m, 128, 2)
        }),
        state("T 0.05, unscaled", |s, _| {
            s.lesson_mut().set_scaled(false);
            s.lesson_mut().set_temperature(0.05)
        }),
        state("T 20", |s, _| s.lesson_mut().set_temperature(20.0)),
        state("causal", |s, _| {
            s.lesson_mut().set_mask(Mask::Causal);
            true
        }),
        state("causal, 1 token", |s, m| {
            s.lesson_mut().set_mask(Mask::Causal);
            s.set_text("cat", m).is_ok()
        }),
        state("cross, 1-token keys", |s, m| {
            s.lesson_mut().set_cross(true);
            s.set_kv_text("dog", m).is_ok()
        }),
        state("pretrained", pretrained),
        state("pretrained, layer 4 head 3", |s, m| pretrained(s, m) && s.set_layer(3, m) && s.set_head(2, m)),
        state("pretrained, unscaled", |s, m| {
            s.lesson_mut().set_scaled(false);
            pretrained(s, m)
        }),
        state("pretrained, T 20", |s, m| pretrained(s, m) && s.lesson_mut().set_temperature(20.0)),
        state("pretrained, causal", |s, m| {
            let ok = pretrained(s, m);
            s.lesson_mut().set_mask(Mask::Causal);
            ok
        }),
        state("pretrained, Chinese", |s, m| {
            pretrained(s, m) && s.set_text("小猫没有过马路，因为它太累了。", m).is_ok()
        }),
        state("pretrained, [UNK] not Chinese", |s, m| pretrained(s, m) && s.set_text("the 🦀 sat", m).is_ok()),
        state("yours", yours),
        state("yours, layer 2", |s, m| yours(s, m) && s.set_layer(1, m)),
        state("yours, no mask", |s, m| {
            let ok = yours(s, m);
            s.lesson_mut().set_mask(Mask::None);
            ok
        }),
    ]
}

/// Everything the lesson shows as text in one state and language.
struct Page {
    stages: Vec<(Stage, StageTexts, String)>,
    note: String,
    hint: &'static str,
}

fn page(st: &State, lang: Lang) -> Page {
    let (head, query) = (st.settings.lesson().head(), st.settings.lesson().query());
    let stages = Stage::ALL
        .iter()
        .map(|&stage| {
            let reading = stage_reading(&st.o, stage, head, query, lang).unwrap_or_default();
            (stage, stage_texts(&st.o, stage, lang), reading)
        })
        .collect();
    let note = weights_note(&st.o, lang, head, st.settings.lesson().text()).join(" ");
    let hint = attention_lab::i18n::t(lang, sentence_hint(&st.o.shape().origin));
    Page { stages, note, hint }
}

impl Page {
    fn stage(&self, stage: Stage) -> &(Stage, StageTexts, String) {
        &self.stages[stage.index()]
    }

    fn everything(&self) -> String {
        let mut all: Vec<&str> = vec![&self.note, self.hint];
        for (_, t, r) in &self.stages {
            all.extend([t.explain.as_str(), &t.notice, r]);
        }
        all.join("\n")
    }
}

#[test]
fn every_text_is_filled_and_in_its_language_in_every_state() {
    for st in grid() {
        for lang in [Lang::En, Lang::Zh] {
            let all = page(&st, lang).everything();
            assert!(!all.contains('{') && !all.contains('}'), "{}: a placeholder left in {all}", st.name);
            if lang == Lang::Zh {
                assert!(!all.contains(" the ") && !all.contains("Row "), "{}: English in Chinese: {all}", st.name);
            }
            if lang == Lang::En {
                for plural in ["1 tokens", "1 more terms"] {
                    // "1 …" on its own, not the end of "61 …"
                    let alone =
                        all.match_indices(plural).any(|(i, _)| !all[..i].ends_with(|c: char| c.is_ascii_digit()));
                    assert!(!alone, "{}: {plural:?} in {all}", st.name);
                }
                assert!(!all.contains("1 of these") || !all.contains("tokens are [UNK]"), "{}: {all}", st.name);
            }
        }
    }
}

#[test]
fn the_input_stage_shows_the_formula_and_notes_of_the_model_shown() {
    for st in grid() {
        let p = page(&st, Lang::En);
        let (_, input, _) = p.stage(Stage::Input);
        let (_, scaling, _) = p.stage(Stage::Scaling);
        let rule = st.o.shape().input;
        let sinusoids = matches!(rule, InputRule::Sinusoidal { on: true });
        assert_eq!(input.formula == Formula::Input, sinusoids && st.o.layer == 0, "{}", st.name);
        assert_eq!(input.formula == Formula::InputLater, st.o.layer > 0, "{}", st.name);
        assert_eq!(
            input.explain.contains("sines and cosines"),
            matches!(rule, InputRule::Sinusoidal { .. }),
            "{}",
            st.name
        );
        assert_eq!(
            input.notice.starts_with("Switch the positional encoding off"),
            sinusoids && repeats(&st.o),
            "{}",
            st.name
        );
        assert_eq!(scaling.explain.contains("nearer 1.5"), sinusoids, "{}: {}", st.name, scaling.explain);
        if let Some(tok) =
            input.notice.strip_prefix("Switch the positional encoding off: “").and_then(|r| r.split('”').next())
        {
            assert!(st.o.tokens.iter().filter(|t| *t == tok).count() > 1, "{}: “{tok}” does not repeat", st.name);
        }
        let hint_wordpiece = p.hint.contains("WordPiece");
        assert_eq!(hint_wordpiece, matches!(st.o.shape().origin, Origin::Pretrained { .. }), "{}", st.name);
        assert_eq!(p.hint.contains("each word and punctuation mark"), st.o.shape().settable_sizes(), "{}", st.name);
    }
}

fn repeats(o: &Outcome) -> bool {
    o.tokens.iter().any(|t| o.tokens.iter().filter(|u| *u == t).count() > 1)
}

#[test]
fn a_trained_model_run_off_its_training_settings_says_so_and_only_then() {
    for st in grid() {
        let note = page(&st, Lang::En).note;
        let t = st.o.trace();
        let off =
            st.o.shape()
                .trained_options()
                .is_some_and(|trained| trained.scaled != t.scaled || trained.mask != t.mask || t.temperature != 1.0);
        assert_eq!(note.contains("not what it learned to look at"), off, "{}: {note}", st.name);
        if off {
            assert_eq!(note.contains("scaling off"), !t.scaled, "{}: {note}", st.name);
            assert_eq!(note.contains("T = 20"), t.temperature == 20.0, "{}: {note}", st.name);
        }
        let cjk = st.settings.lesson().text().chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
        assert!(!note.contains("Chinese characters") || cjk, "{}: {note}", st.name);
        let unk = st.o.tokens.iter().filter(|t| *t == "[UNK]").count();
        assert_eq!(note.contains("[UNK]"), unk > 0, "{}: {note}", st.name);
    }
}

#[test]
fn scaling_and_softmax_claims_hold_for_this_d_k_and_these_keys() {
    for st in grid() {
        let p = page(&st, Lang::En);
        let t = st.o.trace();
        let (_, scaling, scaling_reading) = p.stage(Stage::Scaling);
        let (_, softmax, _) = p.stage(Stage::Softmax);
        let (_, scores, _) = p.stage(Stage::Scores);
        let wide = t.d_k > 1;
        // Each notice's claim, measured on the numbers (not on its English, nor on the rule that
        // picks it): the scaled map is paler (NoticeScaling) where its largest score is smaller;
        // the rows sharpen with scaling switched off (NoticeSoftmax), or are sharper than with it
        // (NoticeSoftmaxUnscaled): the row's largest weight, recomputed the other way, says
        // which; one key gets a weight of 1 (NoticeSoftmaxOneKey); a score is a sum of several
        // terms (NoticeScores) only with several columns.
        let variant = |stage| notice_variant(&st.o, stage);
        let (scaling_v, softmax_v, scores_v) =
            (variant(Stage::Scaling), variant(Stage::Softmax), variant(Stage::Scores));
        let h = &t.head_traces[st.settings.lesson().head()];
        let largest = |m: &ndarray::Array2<f32>| m.iter().fold(0.0f32, |a, v| a.max(v.abs()));
        let top_weight = |scores: &ndarray::Array2<f32>| {
            let w = attention_lab::core::softmax::softmax_rows(scores, &t.blocked, t.temperature);
            w.row(st.settings.lesson().query()).iter().fold(0.0f32, |a, v| a.max(*v))
        };
        let now = top_weight(&h.scaled_scores);
        let sqrt = (t.d_k as f32).sqrt();
        match scaling_v {
            Some(Msg::NoticeScaling) => {
                assert!(largest(&h.scaled_scores) < largest(&h.scores), "{}: not paler", st.name)
            }
            Some(Msg::NoticeScalingOff) => assert_eq!(h.scaled_scores, h.scores, "{}: divided after all", st.name),
            other => assert!(other == Some(Msg::NoticeScalingDk1) && !wide, "{}: {other:?}", st.name),
        }
        match softmax_v {
            Some(Msg::NoticeSoftmax) => {
                assert!(top_weight(&h.scores) >= now, "{}: switching scaling off would not sharpen", st.name)
            }
            Some(Msg::NoticeSoftmaxUnscaled) => {
                assert!(top_weight(&h.scores.mapv(|s| s / sqrt)) <= now, "{}: not sharper than scaled", st.name)
            }
            Some(Msg::NoticeSoftmaxOneKey) => assert!((now - 1.0).abs() < 1e-6, "{}: {now}", st.name),
            other => assert!(other == Some(Msg::NoticeSoftmaxDk1) && !wide, "{}: {other:?}", st.name),
        }
        assert!(scores_v != Some(Msg::NoticeScores) || wide, "{}", st.name);
        // And the page shows the variant chosen, filled in.
        assert_eq!(scaling.notice, attention_lab::i18n::t(Lang::En, scaling_v.expect("a notice")), "{}", st.name);
        assert_eq!(softmax.notice, attention_lab::i18n::t(Lang::En, softmax_v.expect("a notice")), "{}", st.name);
        assert_eq!(scores.notice, attention_lab::i18n::t(Lang::En, scores_v.expect("a notice")), "{}", st.name);
        // One definition of S̃: ÷√d_k appears in the scaling formula only when it divides.
        assert_eq!(scaling.formula.mathml().contains("msqrt"), t.scaled, "{}", st.name);
        assert!(!softmax.formula.mathml().contains("msqrt"), "{}: S̃ defined twice", st.name);
        assert!(!softmax.explain.contains("every other weight is above 0."), "{}", st.name);
        assert_eq!(scaling_reading.starts_with("Scaling is OFF"), !t.scaled, "{}", st.name);
    }
}

#[test]
fn readings_name_the_mask_only_when_a_key_is_blocked_and_compare_heads_only_when_they_differ() {
    for st in grid() {
        let p = page(&st, Lang::En);
        let t = st.o.trace();
        let (head, query) = (st.settings.lesson().head(), st.settings.lesson().query());
        let (_, _, scores) = p.stage(Stage::Scores);
        let row_blocked = t.blocked.row(query).iter().any(|b| *b);
        assert!(!scores.contains("mask hides") || row_blocked, "{}: {scores}", st.name);
        let (_, multi, reading) = p.stage(Stage::MultiHead);
        let tops: Vec<usize> = t
            .head_traces
            .iter()
            .map(|h| {
                let row = h.weights.row(query);
                (0..row.len())
                    .filter(|&j| !t.blocked[(query, j)])
                    .max_by(|&a, &b| row[a].total_cmp(&row[b]))
                    .unwrap_or(0)
            })
            .collect();
        let differ = tops.iter().any(|&k| k != tops[0]);
        assert_eq!(reading.contains("read the sentence differently"), differ, "{}: {reading}", st.name);
        assert!(
            !multi.notice.contains("Even with random weights") || (t.n_heads() > 1 && st.o.shape().settable_sizes()),
            "{}",
            st.name
        );
        assert!(!multi.notice.contains("specialise"), "{}: training does not make every head specialise", st.name);
        let _ = head;
    }
}

#[test]
fn the_code_panel_reproduces_the_weights_on_screen() {
    for st in grid() {
        let code: String = Stage::ALL.iter().map(|&s| stage_code(s, &CodeShapes::of(&st.o)) + "\n").collect();
        let pretrained = matches!(st.o.shape().origin, Origin::Pretrained { .. });
        assert_eq!(code.contains("model.encoder.layer["), pretrained, "{}", st.name);
        assert_eq!(code.contains("nn.Linear"), !pretrained, "{}: fresh layers for a pretrained model", st.name);
        if pretrained {
            let ids: Vec<String> = st.o.encoding.tokens.iter().map(|t| t.id.to_string()).collect();
            assert!(code.contains(&format!("[[{}]]", ids.join(", "))), "{}: not its token ids", st.name);
        }
        for name in [" + pe[", "vocab_size"] {
            assert!(!code.contains(name), "{}: {name} is never defined", st.name);
        }
    }
}

#[test]
fn the_lab_and_the_linear_panel_say_what_their_numbers_show() {
    for n in [1, 2, 11, 40] {
        let points = sweep(n, 2017).expect("a sweep");
        let text = saturation_texts(n, &points, Lang::En).join(" ");
        assert_eq!(text.contains("every curve below is flat"), n == 1, "n {n}: {text}");
        let bump = points.iter().any(|p| p.unscaled.median_jacobian_norm > p.scaled.median_jacobian_norm);
        assert_eq!(text.contains("does something unexpected"), bump && n > 1, "n {n}: {text}");
        if n > 1 {
            let lo = points.iter().map(|p| p.scaled.median_max_weight).fold(f32::INFINITY, f32::min);
            assert!(text.contains(&format!("between {lo:.2} and")), "n {n}: {text}");
            assert!(text.contains("Frobenius norm"), "n {n}: the norm is named");
        }
    }
    for st in grid() {
        let t = st.o.trace();
        let h = &t.head_traces[0];
        let lin = linear_head(h, t.mask);
        let [text, price] = linear_texts(t, h, &lin.weights, Lang::En);
        assert_eq!(text.contains("√d_k"), t.scaled, "{}: {text}", st.name);
        let flatter = price.contains("linear weights come out flatter");
        let entropy = |m: &ndarray::Array2<f32>| -> f32 {
            m.outer_iter().map(|r| r.iter().filter(|p| **p > 0.0).map(|p| -p * p.ln()).sum::<f32>()).sum::<f32>()
        };
        if t.mask == Mask::None {
            assert_eq!(flatter, entropy(&lin.weights) >= entropy(&h.weights) - 1e-4, "{}: {price}", st.name);
        }
    }
}

#[test]
fn the_case_studys_conclusions_name_the_words_typed_and_the_numbers_computed() {
    let model = models().model(&{
        let mut s = Settings::new(Lang::En);
        assert!(s.set_model(ModelId::Minilm, models()));
        *s.choice()
    });
    for (sentences, words) in [
        (
            [
                "the animal didn't cross the street because it was too tired",
                "the animal didn't cross the street because it was too wide",
            ],
            ["it", "animal", "street"],
        ),
        (
            [
                "the dog didn't cross the road because it was too tired",
                "the dog didn't cross the road because it was too wide",
            ],
            ["it", "dog", "road"],
        ),
        (["my cat sat on the mat", "my cat sat on the rug"], ["sat", "cat", "my"]),
    ] {
        let study = case_study(&*model, sentences, words, 5).expect("a study");
        let typed = words.map(String::from);
        for lang in [Lang::En, Lang::Zh] {
            let lines = case_study_findings(&study, &typed, lang).join("\n");
            assert!(!lines.contains('{'), "{words:?}: {lines}");
            for weights in [None, Some((0.5, 0.1)), Some((0.1, 0.5)), Some((0.3, 0.3)), Some((0.05, 0.02))] {
                let (text, words) = WRONG_ANTECEDENT[0];
                let check = weights.map(|(on_subject, on_meant)| Check { text, words, on_subject, on_meant });
                let more = [pieces_notes(&study, &typed, lang), steady_findings(&study, &typed, check.as_ref(), lang)]
                    .concat();
                assert!(more.iter().all(|l| !l.contains('{')), "{words:?}: {more:?}");
            }
            for default in ["animal", "street"] {
                assert!(!lines.contains(default) || words.contains(&default), "{words:?} names {default}: {lines}");
            }
            assert!(lines.contains(&format!("“{}”", words[1])), "{words:?}: {lines}");
        }
        let en = case_study_findings(&study, &typed, Lang::En).join("\n");
        let preferring = study.weights.iter().filter(|w| w.first.0 > w.first.1).count();
        match preferring {
            0 => assert!(en.contains("none of the"), "{en}"),
            1 => assert!(en.contains("only one of the"), "{en}"),
            n => assert!(en.contains(&format!("{n} of the {} heads", study.weights.len())), "{en}"),
        }
    }
}
