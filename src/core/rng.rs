//! A tiny seeded random source of our own (SplitMix64 + Box–Muller), and the random matrices
//! the experiments draw from it.
//!
//! Why not `rand::StdRng`: its stream is not promised to stay the same across versions, and a
//! teacher's shared link must show the same weights next year. SplitMix64 is fixed forever,
//! needs no OS entropy (so nothing special on wasm32) and is plenty for teaching pictures.

use ndarray::Array2;

/// Deterministic generator: the same seed always gives the same stream.
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator whose whole stream is fixed by `seed`.
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1), with 53 bits of precision.
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform in [-a, a).
    pub fn symmetric(&mut self, a: f32) -> f32 {
        ((2.0 * self.uniform() - 1.0) * a as f64) as f32
    }

    /// Standard normal N(0, 1) by Box–Muller (one of the pair is used; simplicity over speed).
    pub fn normal(&mut self) -> f32 {
        // 1 - u lies in (0, 1], so the logarithm is finite.
        let u1 = 1.0 - self.uniform();
        let u2 = self.uniform();
        ((-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()) as f32
    }
}

impl SplitMix64 {
    /// Two independent N(0, 1) samples from one Box–Muller draw: twice as fast as two calls
    /// to [`SplitMix64::normal`], for bulk sampling (a separate method, so the streams that
    /// fix embeddings and weights never change).
    pub fn normal_pair(&mut self) -> (f32, f32) {
        let u1 = 1.0 - self.uniform();
        let u2 = self.uniform();
        let r = (-2.0 * u1.ln()).sqrt();
        let (s, c) = (std::f64::consts::TAU * u2).sin_cos();
        ((r * c) as f32, (r * s) as f32)
    }
}

/// Random queries, keys or values: (n, d_k), entries ~ N(0, 1).
///
/// Row i has its own stream (fixed by `seed`, `i` and `salt`), and d_k only decides how much of
/// it is read: growing d_k adds dimensions to the same vectors, so the picture changes smoothly.
pub fn normal_matrix(n: usize, d_k: usize, seed: u64, salt: u64) -> Array2<f32> {
    let mut out = Array2::zeros((n, d_k));
    for (i, mut row) in out.rows_mut().into_iter().enumerate() {
        let mut rng =
            SplitMix64::new(seed ^ salt.wrapping_mul(0x9E37_79B9) ^ (i as u64).wrapping_mul(0xD1B5_4A32_D192_ED03));
        row.iter_mut().for_each(|v| *v = rng.normal());
    }
    out
}

/// FNV-1a: a stable 64-bit hash of a string, mixed with a seed, so that one token string
/// always maps to the same embedding for a given seed (and `HashMap`'s random hasher is avoided).
pub fn hash_str(s: &str, seed: u64) -> u64 {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325 ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    for b in s.as_bytes() {
        h ^= *b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream_and_different_seed_differs() {
        let a: Vec<u64> = (0..4)
            .map({
                let mut r = SplitMix64::new(7);
                move |_| r.next_u64()
            })
            .collect();
        let b: Vec<u64> = (0..4)
            .map({
                let mut r = SplitMix64::new(7);
                move |_| r.next_u64()
            })
            .collect();
        let c: Vec<u64> = (0..4)
            .map({
                let mut r = SplitMix64::new(8);
                move |_| r.next_u64()
            })
            .collect();
        assert_eq!(a, b);
        assert_ne!(a, c);
    }

    #[test]
    fn normal_has_unit_variance() {
        let mut r = SplitMix64::new(1);
        let xs: Vec<f64> = (0..200_000).map(|_| r.normal() as f64).collect();
        let mean = xs.iter().sum::<f64>() / xs.len() as f64;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / xs.len() as f64;
        // 200k samples: the standard error of the variance is about 0.003.
        assert!(mean.abs() < 0.01, "mean {mean}");
        assert!((var - 1.0).abs() < 0.02, "variance {var}");
    }

    #[test]
    fn hash_depends_on_string_and_seed() {
        assert_eq!(hash_str("cat", 1), hash_str("cat", 1));
        assert_ne!(hash_str("cat", 1), hash_str("cat", 2));
        assert_ne!(hash_str("cat", 1), hash_str("cab", 1));
    }
}
