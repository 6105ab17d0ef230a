//! What attention costs as the sequence grows: the n × n score matrix's memory and the
//! floating-point operations of softmax attention against linear attention.

/// Costs for one sequence length, per layer, all heads together.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cost {
    pub n: u64,
    /// Query–key pairs: n².
    pub pairs: u64,
    /// Bytes to hold every head's n × n scores in fp16 and in fp32.
    pub score_bytes_fp16: u64,
    pub score_bytes_fp32: u64,
    /// FLOPs of QKᵀ and A·V (2 per multiply-add): 4 · n² · d_model.
    pub softmax_flops: u64,
    /// FLOPs of linear attention: φ(K)ᵀV and φ(Q)·(that) per head, 4 · n · d_k · d_model.
    pub linear_flops: u64,
}

/// The cost of attention over `n` tokens with `n_heads` heads of total width `d_model`.
/// Saturates instead of overflowing (n up to 128K stays far below u64's range anyway).
pub fn cost(n: u64, d_model: u64, n_heads: u64) -> Cost {
    let heads = n_heads.max(1);
    let d_k = d_model / heads;
    let pairs = n.saturating_mul(n);
    let all = pairs.saturating_mul(heads);
    Cost {
        n,
        pairs,
        score_bytes_fp16: all.saturating_mul(2),
        score_bytes_fp32: all.saturating_mul(4),
        softmax_flops: pairs.saturating_mul(4).saturating_mul(d_model),
        linear_flops: n.saturating_mul(4).saturating_mul(d_k).saturating_mul(d_model),
    }
}

/// "1.5 GiB", "512 B": binary units for memory.
pub fn format_bytes(b: u64) -> String {
    const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut v = b as f64;
    let mut unit = 0;
    while v >= 1024.0 && unit < UNITS.len() - 1 {
        v /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{b} B")
    } else {
        format!("{v:.1} {}", UNITS[unit])
    }
}

/// "3.4 GFLOP": decimal units for operation counts.
pub fn format_flops(f: u64) -> String {
    const UNITS: [&str; 6] = ["", "K", "M", "G", "T", "P"];
    let mut v = f as f64;
    let mut unit = 0;
    while v >= 1000.0 && unit < UNITS.len() - 1 {
        v /= 1000.0;
        unit += 1;
    }
    format!("{v:.1} {}FLOP", UNITS[unit])
}

/// The three ways to let tokens exchange information that the Transformer paper compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mixer {
    /// Self-attention: every pair meets in one layer.
    Attention,
    /// A recurrent network: one token after another.
    Recurrent,
    /// Convolutions of kernel width k, stacked.
    Convolution { k: u64 },
}

impl Mixer {
    /// The longest path, in steps, a signal takes between two of `n` tokens: 1 for
    /// attention, n − 1 for a recurrence, and for convolutions the layers needed before the
    /// first token reaches the last, ⌈(n − 1)/(k − 1)⌉ (each layer widens the view by k − 1).
    pub fn path_length(self, n: u64) -> u64 {
        let n = n.max(1);
        match self {
            Self::Attention => u64::from(n > 1),
            Self::Recurrent => n - 1,
            Self::Convolution { k } => (n - 1).div_ceil(k.max(2) - 1),
        }
    }

    /// Steps that must run one after another in one layer: 1 for attention and convolution,
    /// n for a recurrence.
    pub fn sequential_steps(self, n: u64) -> u64 {
        match self {
            Self::Recurrent => n.max(1),
            Self::Attention | Self::Convolution { .. } => 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_thousand_tokens_are_a_million_pairs() {
        let c = cost(1000, 512, 8);
        assert_eq!(c.pairs, 1_000_000);
        // 8 heads × 10⁶ scores × 2 bytes
        assert_eq!(c.score_bytes_fp16, 16_000_000);
        assert_eq!(c.score_bytes_fp32, 32_000_000);
        assert_eq!(c.softmax_flops, 4 * 1_000_000 * 512);
        assert_eq!(c.linear_flops, 4 * 1000 * 64 * 512);
    }

    #[test]
    fn doubling_n_quadruples_softmax_but_doubles_linear() {
        let (a, b) = (cost(4096, 512, 8), cost(8192, 512, 8));
        assert_eq!(b.softmax_flops, 4 * a.softmax_flops);
        assert_eq!(b.linear_flops, 2 * a.linear_flops);
    }

    #[test]
    fn units_read_well() {
        assert_eq!(format_bytes(512), "512 B");
        assert_eq!(format_bytes(128 * 1024 * 128 * 1024 * 2), "32.0 GiB");
        assert_eq!(format_flops(3_400_000_000), "3.4 GFLOP");
    }

    #[test]
    fn attention_joins_any_two_tokens_in_one_step() {
        assert_eq!([1, 2, 1024].map(|n| Mixer::Attention.path_length(n)), [0, 1, 1]);
        assert_eq!(Mixer::Recurrent.path_length(1024), 1023);
        assert_eq!(Mixer::Recurrent.sequential_steps(1024), 1024);
        // Kernel 3: each layer reaches 2 tokens further; 1023 tokens away takes 512 layers.
        assert_eq!(Mixer::Convolution { k: 3 }.path_length(1024), 512);
        assert_eq!(Mixer::Convolution { k: 3 }.sequential_steps(1024), 1);
    }
}
