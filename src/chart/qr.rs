//! A QR code of a link, drawn by the page itself (no network): the dark modules of the code as
//! one SVG path, with the quiet zone of 4 modules the standard asks for.

use qrcodegen::{QrCode, QrCodeEcc};

/// Modules of white border on every side.
const QUIET: usize = 4;

/// A QR code ready to draw: `side` modules square (border included) and the path of its dark
/// modules in module units.
#[derive(Debug, Clone, PartialEq)]
pub struct Qr {
    pub side: usize,
    pub path: String,
}

/// The QR code of `text` with medium error correction (a projected code survives some glare),
/// or `None` when `text` is too long for the largest code.
pub fn qr(text: &str) -> Option<Qr> {
    let code = QrCode::encode_text(text, QrCodeEcc::Medium).ok()?;
    let n = code.size();
    let mut path = String::new();
    for y in 0..n {
        let mut x = 0;
        while x < n {
            if !code.get_module(x, y) {
                x += 1;
                continue;
            }
            // One rectangle per run of dark modules along the row.
            let start = x;
            while x < n && code.get_module(x, y) {
                x += 1;
            }
            let (px, py) = (start as usize + QUIET, y as usize + QUIET);
            path.push_str(&format!("M{px} {py}h{}v1h-{}z", x - start, x - start));
        }
    }
    Some(Qr { side: n as usize + 2 * QUIET, path })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Which modules the path paints, row by row (`side` × `side`).
    fn dark(q: &Qr) -> Vec<bool> {
        let mut dark = vec![false; q.side * q.side];
        for rect in q.path.split('M').filter(|r| !r.is_empty()) {
            let nums: Vec<usize> = rect.split(|c: char| !c.is_ascii_digit()).filter_map(|s| s.parse().ok()).collect();
            if let [x, y, w, ..] = nums[..] {
                for cell in dark.iter_mut().skip(y * q.side + x).take(w) {
                    *cell = true;
                }
            }
        }
        dark
    }

    /// An independent decoder (rqrr) reads the drawn code back as the same link.
    #[test]
    fn the_drawn_code_decodes_to_the_link() {
        let link = "http://192.168.1.20:8080/attention-lab/?lang=zh&stage=softmax&scale=0";
        let q = qr(link).expect("a short link fits");
        let dark = dark(&q);
        let px = 4;
        let side = q.side * px;
        let mut img = rqrr::PreparedImage::prepare_from_greyscale(side, side, |x, y| {
            if dark[(y / px) * q.side + x / px] {
                0
            } else {
                255
            }
        });
        let grids = img.detect_grids();
        assert_eq!(grids.len(), 1, "one code in the picture");
        let (_, content) = grids[0].decode().expect("the code decodes");
        assert_eq!(content, link);
    }

    #[test]
    fn a_text_too_long_for_any_code_gives_none() {
        assert!(qr(&"x".repeat(5000)).is_none());
        assert_eq!(qr("a").map(|q| q.side), Some(21 + 2 * QUIET));
    }
}
