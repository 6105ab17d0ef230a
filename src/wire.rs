//! The one codec of the messages that cross between the page and its workers: a message is a
//! byte string (a two-byte mark, a version, the variant's tag, then its fields in order) and,
//! for an encoding's numbers, two lists beside it that move rather than copy. Pure and tested
//! natively; a message that is cut short, comes from something else or from a later version
//! is refused with a reason ([`Refused`]), never a panic.
//!
//! Fields: whole numbers as `u32` (little-endian), `f32` and `f64` by their bits, a flag as a
//! byte, a text as its length and its UTF-8, something optional as a flag and then the thing.

use crate::core::model::wire::Numbers;
use js_sys::{Array, Float32Array, Uint32Array, Uint8Array};
use std::fmt;
use wasm_bindgen::{JsCast, JsValue};

/// The mark every message starts with.
pub const MARK: [u8; 2] = *b"AL";
/// The version of the messages this build writes and reads.
pub const VERSION: u8 = 1;

/// Why a message was not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    /// It ends before its last field.
    Truncated,
    /// It does not start with [`MARK`]: not one of ours.
    Foreign,
    /// Written by another version of the site (a page and a worker of two deployments).
    Version(u8),
    /// A variant this build does not know.
    Unknown(u8),
    /// A field that does not hold what it must (its name).
    Invalid(&'static str),
    /// Bytes after the last field.
    Trailing,
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refused::Truncated => write!(f, "the message is cut short"),
            Refused::Foreign => write!(f, "the message is not one of this site's"),
            Refused::Version(v) => {
                write!(f, "the message is of version {v}, this page reads {VERSION} (reload the page)")
            }
            Refused::Unknown(tag) => write!(f, "the message is of a kind this page does not know ({tag})"),
            Refused::Invalid(field) => write!(f, "the message's {field} is not valid"),
            Refused::Trailing => write!(f, "the message is longer than its fields"),
        }
    }
}

/// A message as it crosses: its bytes, and an encoding's numbers beside them (empty but for
/// the messages that carry an encoding).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Packet {
    pub bytes: Vec<u8>,
    pub numbers: Numbers,
}

/// A message of one of the site's protocols (the forward worker's, `compute::message`; the
/// page's and its modules', `protocol`): written to a [`Packet`] and read back, and carried as
/// a JS value (an array of the bytes and the numbers' two lists, all moved).
pub trait Message: Sized {
    fn encode(&self) -> Packet;
    fn decode(packet: Packet) -> Result<Self, Refused>;

    /// The message to post, and the buffers to move with it.
    fn to_js(&self) -> (JsValue, Array) {
        packet_to_js(self.encode())
    }

    /// Read a posted message.
    fn from_js(value: &JsValue) -> Result<Self, Refused> {
        Self::decode(packet_from_js(value)?)
    }
}

/// A packet as a JS value (an array of its bytes and its numbers' two lists), and the buffers
/// to move with it. Not generic, so that each protocol's messages share it.
fn packet_to_js(Packet { bytes, numbers }: Packet) -> (JsValue, Array) {
    let (bytes, data, sizes) =
        (Uint8Array::from(&bytes[..]), Float32Array::from(&numbers.data[..]), Uint32Array::from(&numbers.sizes[..]));
    let moved = Array::of3(&bytes.buffer(), &data.buffer(), &sizes.buffer());
    (Array::of3(&bytes, &data, &sizes).into(), moved)
}

/// The packet [`packet_to_js`] made, or `Foreign` for any other value.
fn packet_from_js(value: &JsValue) -> Result<Packet, Refused> {
    let parts = value.dyn_ref::<Array>().filter(|a| a.length() == 3).ok_or(Refused::Foreign)?;
    let bytes = parts.get(0).dyn_into::<Uint8Array>().map_err(|_| Refused::Foreign)?.to_vec();
    let data = parts.get(1).dyn_into::<Float32Array>().map_err(|_| Refused::Foreign)?.to_vec();
    let sizes = parts.get(2).dyn_into::<Uint32Array>().map_err(|_| Refused::Foreign)?.to_vec();
    Ok(Packet { bytes, numbers: Numbers { data, sizes } })
}

/// Writes one message's fields, after its mark, version and `tag`.
pub struct Writer(Vec<u8>);

impl Writer {
    pub fn new(tag: u8) -> Self {
        let mut bytes = Vec::with_capacity(64);
        bytes.extend_from_slice(&MARK);
        bytes.push(VERSION);
        bytes.push(tag);
        Writer(bytes)
    }
    pub fn flag(&mut self, b: bool) -> &mut Self {
        self.0.push(u8::from(b));
        self
    }
    pub fn byte(&mut self, b: u8) -> &mut Self {
        self.0.push(b);
        self
    }
    pub fn u32(&mut self, n: u32) -> &mut Self {
        self.0.extend_from_slice(&n.to_le_bytes());
        self
    }
    /// A count or an index, which this site's sizes keep far below `u32::MAX` (saturates).
    pub fn usize(&mut self, n: usize) -> &mut Self {
        self.u32(u32::try_from(n).unwrap_or(u32::MAX))
    }
    pub fn f32(&mut self, x: f32) -> &mut Self {
        self.0.extend_from_slice(&x.to_le_bytes());
        self
    }
    pub fn f64(&mut self, x: f64) -> &mut Self {
        self.0.extend_from_slice(&x.to_le_bytes());
        self
    }
    /// Bytes as they are (another message, read later), after their length.
    pub fn bytes(&mut self, b: &[u8]) -> &mut Self {
        self.usize(b.len());
        self.0.extend_from_slice(b);
        self
    }
    pub fn text(&mut self, s: &str) -> &mut Self {
        self.usize(s.len());
        self.0.extend_from_slice(s.as_bytes());
        self
    }
    pub fn maybe_text(&mut self, s: Option<&str>) -> &mut Self {
        self.flag(s.is_some());
        if let Some(s) = s {
            self.text(s);
        }
        self
    }
    pub fn finish(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.0)
    }
}

/// Reads one message's fields in the order they were written.
pub struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    /// The message's tag, and a reader of its fields; refused when it is not a message of
    /// this version.
    pub fn open(bytes: &'a [u8]) -> Result<(u8, Reader<'a>), Refused> {
        match bytes {
            [a, b, ..] if [*a, *b] != MARK => Err(Refused::Foreign),
            [_, _, v, ..] if *v != VERSION => Err(Refused::Version(*v)),
            [_, _, _, tag, ..] => Ok((*tag, Reader { bytes, at: 4 })),
            [a] if *a != MARK[0] => Err(Refused::Foreign),
            _ => Err(Refused::Truncated),
        }
    }
    fn take<const N: usize>(&mut self) -> Result<[u8; N], Refused> {
        let end = self.at.checked_add(N).ok_or(Refused::Truncated)?;
        let bytes: [u8; N] = self.bytes.get(self.at..end).and_then(|b| b.try_into().ok()).ok_or(Refused::Truncated)?;
        self.at = end;
        Ok(bytes)
    }
    pub fn flag(&mut self) -> Result<bool, Refused> {
        match self.take::<1>()? {
            [0] => Ok(false),
            [1] => Ok(true),
            _ => Err(Refused::Invalid("flag")),
        }
    }
    pub fn byte(&mut self) -> Result<u8, Refused> {
        Ok(self.take::<1>()?[0])
    }
    pub fn u32(&mut self) -> Result<u32, Refused> {
        Ok(u32::from_le_bytes(self.take()?))
    }
    pub fn usize(&mut self) -> Result<usize, Refused> {
        Ok(self.u32()? as usize)
    }
    pub fn f32(&mut self) -> Result<f32, Refused> {
        Ok(f32::from_le_bytes(self.take()?))
    }
    pub fn f64(&mut self) -> Result<f64, Refused> {
        Ok(f64::from_le_bytes(self.take()?))
    }
    pub fn bytes(&mut self) -> Result<&'a [u8], Refused> {
        let len = self.usize()?;
        let end = self.at.checked_add(len).ok_or(Refused::Truncated)?;
        let bytes = self.bytes.get(self.at..end).ok_or(Refused::Truncated)?;
        self.at = end;
        Ok(bytes)
    }
    pub fn text(&mut self) -> Result<String, Refused> {
        String::from_utf8(self.bytes()?.to_vec()).map_err(|_| Refused::Invalid("text"))
    }
    pub fn maybe_text(&mut self) -> Result<Option<String>, Refused> {
        if self.flag()? {
            self.text().map(Some)
        } else {
            Ok(None)
        }
    }
    /// The end of the message: refused if bytes are left.
    pub fn done(self) -> Result<(), Refused> {
        if self.at == self.bytes.len() {
            Ok(())
        } else {
            Err(Refused::Trailing)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_come_back_in_order() {
        let bytes =
            Writer::new(7).flag(true).byte(9).u32(70_000).f32(-1.5).f64(1e-300).text("注意").maybe_text(None).finish();
        let (tag, mut r) = Reader::open(&bytes).unwrap();
        assert_eq!(tag, 7);
        assert!(r.flag().unwrap());
        assert_eq!(r.byte().unwrap(), 9);
        assert_eq!(r.u32().unwrap(), 70_000);
        assert_eq!(r.f32().unwrap(), -1.5);
        assert_eq!(r.f64().unwrap(), 1e-300);
        assert_eq!(r.text().unwrap(), "注意");
        assert_eq!(r.maybe_text().unwrap(), None);
        r.done().unwrap();
    }

    #[test]
    fn a_message_not_ours_or_of_another_version_is_refused() {
        assert_eq!(Reader::open(b"").err(), Some(Refused::Truncated));
        assert_eq!(Reader::open(b"A").err(), Some(Refused::Truncated));
        assert_eq!(Reader::open(b"{").err(), Some(Refused::Foreign));
        assert_eq!(Reader::open(b"{\"number\":1}").err(), Some(Refused::Foreign));
        assert_eq!(Reader::open(&[b'A', b'L', VERSION + 1, 0]).err(), Some(Refused::Version(VERSION + 1)));
        let mut long = Writer::new(0).u32(1).finish();
        long.push(0);
        let (_, mut r) = Reader::open(&long).unwrap();
        r.u32().unwrap();
        assert_eq!(r.done(), Err(Refused::Trailing));
    }

    #[test]
    fn a_text_longer_than_the_message_or_not_utf8_is_refused() {
        let mut bytes = Writer::new(0).u32(u32::MAX).finish();
        bytes.extend_from_slice(b"abc");
        assert_eq!(Reader::open(&bytes).unwrap().1.text(), Err(Refused::Truncated));
        let bytes = [&Writer::new(0).u32(2).finish()[..], &[0xff, 0xfe]].concat();
        assert_eq!(Reader::open(&bytes).unwrap().1.text(), Err(Refused::Invalid("text")));
        assert_eq!(Reader::open(&Writer::new(0).byte(2).finish()).unwrap().1.flag(), Err(Refused::Invalid("flag")));
    }
}
