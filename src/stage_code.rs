//! The PyTorch lines that do what each stage shows, with the shapes, switches and tokens of the
//! outcome on screen written into them: for a pretrained model, its own modules on its own
//! token ids, so the script reproduces the maps. A pure function of the trace's own
//! description, so it cannot disagree with the heatmaps.

use crate::core::attention::Mask;
use crate::core::model::{InputRule, Origin, Outcome, Quantised};
use crate::i18n::{fill, Code};
use crate::settings::{format_temperature, Stage};

/// How the code adds positions to the embeddings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Positions {
    None,
    /// The sinusoidal encoding.
    Sinusoids,
    /// A learned embedding, one vector for each of `max` positions.
    Learned {
        max: usize,
    },
    /// Nothing added: Q and K turned by position (RoPE).
    Rotary,
}

/// The sizes, switches and tokens the code needs, read from an outcome's trace.
#[derive(Debug, Clone, PartialEq)]
pub struct CodeShapes {
    pub n: usize,
    pub n_kv: usize,
    pub d_model: usize,
    pub n_heads: usize,
    /// The heads of K and V (fewer than `n_heads`: grouped-query or multi-query attention).
    pub kv_heads: usize,
    pub d_k: usize,
    pub cross: bool,
    pub causal: bool,
    pub scaled: bool,
    pub temperature: f32,
    /// The projections have biases.
    pub biases: bool,
    /// A pretrained model's id on the hub (X is a hidden state of that model, computed by its
    /// own modules from `ids`), and how the page's copy of it differs from the hub's.
    pub pretrained: Option<(&'static str, Quantised)>,
    /// The layer shown (0-based).
    pub layer: usize,
    pub positions: Positions,
    /// The query sentence's tokens and their ids in the model's vocabulary.
    pub tokens: Vec<String>,
    pub ids: Vec<u32>,
    /// The second sentence's tokens (cross-attention).
    pub kv_tokens: Vec<String>,
}

impl CodeShapes {
    /// What `o`'s trace was computed with.
    pub fn of(o: &Outcome) -> Self {
        let t = o.trace();
        let (n, n_kv) = t.n();
        let pretrained = match o.shape().origin {
            Origin::Pretrained { hub, quantised, .. } => Some((hub, quantised)),
            _ => None,
        };
        let positions = match o.shape().input {
            InputRule::Sinusoidal { on: true } | InputRule::SinusoidalTrained => Positions::Sinusoids,
            InputRule::Sinusoidal { on: false } => Positions::None,
            InputRule::Rotary => Positions::Rotary,
            InputRule::Learned | InputRule::LearnedNormed => Positions::Learned { max: o.shape().max_tokens },
        };
        Self {
            n,
            n_kv,
            d_model: t.d_model(),
            n_heads: t.n_heads(),
            kv_heads: o.shape().kv_heads.clamp(1, t.n_heads()),
            d_k: t.d_k,
            cross: t.is_cross(),
            causal: t.mask == Mask::Causal,
            scaled: t.scaled,
            temperature: t.temperature,
            biases: o.shape().biases,
            pretrained,
            layer: o.layer,
            positions,
            tokens: o.tokens.clone(),
            ids: o.encoding.tokens.iter().map(|t| t.id).collect(),
            kv_tokens: o.kv_tokens.clone(),
        }
    }
}

/// The PyTorch lines of `stage` for `s` (batch size 1; shapes in the comments), from the
/// templates of `i18n::Code`. Every name it uses is defined by the stages before it, from the
/// input on: run in order, the stages make one script.
pub fn stage_code(stage: Stage, s: &CodeShapes) -> String {
    let number = |v: usize| v.to_string();
    let positions = |rows: usize| match s.positions {
        Positions::None | Positions::Rotary => String::new(),
        _ => fill(Code::Positions.template(), &[("rows", &number(rows))]),
    };
    let define_positions = match s.positions {
        Positions::None => String::new(),
        Positions::Sinusoids => fill(Code::Sinusoids.template(), &[("d", &number(s.d_model))]),
        Positions::Learned { max } => {
            fill(Code::LearnedPositions.template(), &[("d", &number(s.d_model)), ("max", &number(max))])
        }
        Positions::Rotary => fill(Code::Rotary.template(), &[("d_k", &number(s.d_k)), ("m", &number(s.d_k / 2))]),
    };
    let scale = if s.scaled { fill(Code::SqrtDk.template(), &[("d_k", &number(s.d_k))]) } else { "1.0".into() };
    let ids: Vec<String> = s.ids.iter().map(|i| i.to_string()).collect();
    let vars = [
        ("n", number(s.n)),
        ("n_kv", number(s.n_kv)),
        ("d", number(s.d_model)),
        ("h", number(s.n_heads)),
        ("d_k", number(s.d_k)),
        ("layer", number(s.layer)),
        ("layer_1", number(s.layer + 1)),
        ("bias", (if s.biases { "True" } else { "False" }).into()),
        ("hub", s.pretrained.map_or("", |(hub, _)| hub).into()),
        ("copy", s.pretrained.map_or(String::new(), |(_, q)| q.described())),
        ("kv_heads", number(s.kv_heads)),
        ("per", number(s.n_heads / s.kv_heads.max(1))),
        ("kv", (if s.cross { "x_kv" } else { "x" }).into()),
        ("pe", positions(s.n)),
        ("pe_kv", positions(s.n_kv)),
        ("positions", define_positions),
        ("tokens", python_list(&s.tokens)),
        ("kv_tokens", python_list(&s.kv_tokens)),
        ("kv_vocab", (if s.cross { " + kv_tokens" } else { "" }).into()),
        ("ids", ids.join(", ")),
        ("scale", scale),
        ("t", temperature(s.temperature)),
    ];
    let vars: Vec<(&str, &str)> = vars.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let pretrained = s.pretrained.is_some();
    let templates: &[Code] = match stage {
        Stage::Input if pretrained => &[Code::PretrainedInput],
        Stage::Input if s.cross => &[Code::Input, Code::InputKv],
        Stage::Input => &[Code::Input],
        Stage::Projection if pretrained => &[Code::PretrainedProjection],
        Stage::Projection if s.positions == Positions::Rotary && s.kv_heads < s.n_heads => {
            &[Code::ProjectionGrouped, Code::RotateQk]
        }
        Stage::Projection if s.positions == Positions::Rotary => &[Code::Projection, Code::RotateQk],
        Stage::Projection if s.kv_heads < s.n_heads => &[Code::ProjectionGrouped],
        Stage::Projection => &[Code::Projection],
        Stage::Scores => &[Code::Scores],
        Stage::Scaling => &[Code::Scaling],
        Stage::Softmax if s.causal => &[Code::Mask, Code::Softmax],
        Stage::Softmax => &[Code::Softmax],
        Stage::Output => &[Code::Output],
        Stage::MultiHead if pretrained => &[Code::PretrainedMultiHead],
        Stage::MultiHead => &[Code::MultiHead],
    };
    templates.iter().map(|c| fill(c.template(), &vars)).collect::<Vec<_>>().join("\n")
}

/// `tokens` as the items of a Python list of strings (backslashes and quotes escaped).
fn python_list(tokens: &[String]) -> String {
    let quoted = tokens.iter().map(|t| {
        let escaped: String = t
            .chars()
            .flat_map(|c| match c {
                '\\' | '"' => vec!['\\', c],
                c if c.is_control() => format!("\\u{:04x}", c as u32).chars().collect(),
                c => vec![c],
            })
            .collect();
        format!("\"{escaped}\"")
    });
    quoted.collect::<Vec<_>>().join(", ")
}

/// T as the settings show it, written as a Python float (always with a decimal point).
fn temperature(t: f32) -> String {
    let s = format_temperature(t);
    if s.contains('.') {
        s
    } else {
        format!("{s}.0")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shapes() -> CodeShapes {
        CodeShapes {
            n: 11,
            n_kv: 11,
            d_model: 64,
            n_heads: 4,
            d_k: 16,
            cross: false,
            causal: false,
            scaled: true,
            temperature: 1.0,
            biases: false,
            pretrained: None,
            kv_heads: 4,
            layer: 0,
            positions: Positions::Sinusoids,
            tokens: ["the", "say \"hi\"", "the"].map(String::from).to_vec(),
            ids: vec![],
            kv_tokens: vec![],
        }
    }

    #[test]
    fn the_heads_are_split_with_the_live_shapes() {
        let code = stage_code(Stage::Projection, &shapes());
        assert!(code.contains("q = w_q(x).view(1, 11, 4, 16).transpose(1, 2)  # (1, 4, 11, 16)"), "{code}");
        assert!(code.contains("bias=False"));
    }

    #[test]
    fn scaling_and_the_mask_follow_the_switches() {
        let s = CodeShapes { scaled: false, causal: true, temperature: 2.0, ..shapes() };
        assert!(stage_code(Stage::Scaling, &s).starts_with("scale = 1.0"));
        assert!(stage_code(Stage::Scaling, &shapes()).starts_with("scale = math.sqrt(16)"));
        let softmax = stage_code(Stage::Softmax, &s);
        assert!(softmax.contains("masked_fill(mask == 0, -1e9)") && softmax.contains("scores / 2.0"), "{softmax}");
        assert!(!stage_code(Stage::Softmax, &shapes()).contains("mask"));
    }

    #[test]
    fn cross_attention_reads_keys_and_values_from_the_second_input() {
        let s = CodeShapes { cross: true, n_kv: 5, ..shapes() };
        let code = stage_code(Stage::Projection, &s);
        assert!(code.contains("k = w_k(x_kv).view(1, 5, 4, 16)"), "{code}");
        assert!(stage_code(Stage::Scores, &s).ends_with("# (1, 4, 11, 5)"));
    }

    #[test]
    fn pretrained_weights_run_through_the_models_own_modules_on_its_own_token_ids() {
        let hub = Some(("sentence-transformers/all-MiniLM-L6-v2", Quantised::Int8));
        let ids = vec![101, 1996, 102];
        let s =
            CodeShapes { biases: true, pretrained: hub, d_model: 384, n_heads: 12, d_k: 32, layer: 2, ids, ..shapes() };
        let input = stage_code(Stage::Input, &s);
        assert!(
            input.contains("x = hidden[2]  # the input of layer 3: (1, 11, 384)")
                && input.contains("(\"sentence-transformers/all-MiniLM-L6-v2\")")
                && input.contains("torch.tensor([[101, 1996, 102]])")
                && input.contains("(int8 weights, one scale per row)")
                && input.contains("close to the page's, not equal"),
            "{input}"
        );
        let projection = stage_code(Stage::Projection, &s);
        assert!(projection.contains("attn = model.encoder.layer[2].attention") && !projection.contains("nn.Linear"));
        assert!(stage_code(Stage::MultiHead, &s).contains("w_o = attn.output.dense"));
    }

    #[test]
    fn a_grouped_query_model_projects_fewer_keys_and_values_and_repeats_them_per_group() {
        let s = CodeShapes { kv_heads: 2, ..shapes() };
        let code = stage_code(Stage::Projection, &s);
        assert!(code.contains("nn.Linear(64, 2 * 16, bias=False)") && code.contains(".view(1, 11, 2, 16)"), "{code}");
        assert!(code.contains("k.repeat_interleave(2, dim=1), v.repeat_interleave(2, dim=1)"), "{code}");
        assert!(
            !stage_code(Stage::Projection, &shapes()).contains("repeat_interleave"),
            "multi-head attention repeats nothing"
        );
    }

    #[test]
    fn the_random_script_defines_every_name_it_uses_before_using_it() {
        let script: String = Stage::ALL.iter().map(|&st| stage_code(st, &shapes()) + "\n").collect();
        let at = |name: &str| script.find(name).unwrap_or_else(|| panic!("{name} in {script}"));
        for (defined, used) in
            [("def positions", "positions(11)"), ("vocab = ", "len(vocab)"), ("tokens = [", "set(tokens")]
        {
            assert!(at(defined) < at(used), "{defined} before {used}:\n{script}");
        }
        assert!(script.contains(r#"tokens = ["the", "say \"hi\"", "the"]"#), "{script}");
        let cross = CodeShapes { cross: true, n_kv: 2, kv_tokens: vec!["a".into(), "b".into()], ..shapes() };
        let input = stage_code(Stage::Input, &cross);
        assert!(
            input.contains("set(tokens + kv_tokens)") && input.contains("x_kv = embed(kv_ids) + positions(2)"),
            "{input}"
        );
        let learned = CodeShapes { positions: Positions::Learned { max: 32 }, ..shapes() };
        assert!(stage_code(Stage::Input, &learned).contains("pos_embed = nn.Embedding(32, 64)"));
        let off = CodeShapes { positions: Positions::None, ..shapes() };
        assert!(stage_code(Stage::Input, &off).contains("x = embed(token_ids)  # (1, 11, 64)"));
    }
}
