//! How far attention reaches in each layer of the pretrained models, on the case study's
//! sentence: the mean distance and the shares on the diagonal, the neighbours and the two ends
//! (`core::depth::layer_patterns`, what the model view's depth table shows). Figures, not
//! checks: `cargo run --release --example depth_patterns` (after `bash scripts/model.sh`).

use attention_lab::core::bert::{Asset, Bert, E5, MINILM};
use attention_lab::core::depth::layer_patterns;
use attention_lab::core::model::{Input, Model, RunOptions};

fn main() {
    for (file, spec, text) in [
        ("minilm-l6.bin", &MINILM, "the animal didn't cross the street because it was too tired"),
        ("e5-small.bin", &E5, "the animal didn't cross the street because it was too tired"),
    ] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/model").join(file);
        let Ok(bytes) = std::fs::read(&path) else {
            eprintln!("{}: missing; run `bash scripts/model.sh`", path.display());
            continue;
        };
        let model = match Asset::decode(&bytes)
            .map_err(|e| format!("{e:?}"))
            .and_then(|a| Bert::from_asset(a, spec).map_err(|e| format!("{e:?}")))
        {
            Ok(m) => m,
            Err(e) => {
                eprintln!("{file}: {e}");
                continue;
            }
        };
        let encoding = match model.forward(&Input { text: text.into(), kv_text: None }, &RunOptions::default()) {
            Ok(e) => e,
            Err(e) => {
                eprintln!("{file}: {e:?}");
                continue;
            }
        };
        println!("{file}: {text}");
        for (l, p) in layer_patterns(&encoding).iter().enumerate() {
            println!(
                "L{}: distance {:.2} without the ends {:.2} diagonal {:.2} neighbours {:.2} ends {:.2} entropy {:.2} punctuation {:.2}",
                l + 1,
                p.distance,
                p.reach,
                p.diagonal,
                p.neighbours,
                p.ends,
                p.entropy,
                p.punctuation
            );
        }
    }
}
