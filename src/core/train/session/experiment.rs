//! The scaling experiment: two runs side by side, with and without ÷√d_k.

use super::{Session, Setup, SetupError, MEASURE_EVERY};

/// The scaling experiment: the same model trained twice from the same seed and batches, with
/// and without ÷√d_k, at a head width where it matters (one head of d_k = 128), side by side.
pub struct Experiment {
    /// With ÷√d_k, then without.
    pub runs: [Session; 2],
    /// Each run's softmax gradient ([`Session::softmax_gradient`]) every few steps.
    pub gradients: [Vec<(usize, f64)>; 2],
}

impl Experiment {
    /// The head width the experiment trains at: one head of all of d_model.
    pub const D_K: usize = 128;
    /// Steps each run takes.
    pub const STEPS: usize = 600;

    /// The setups of the two runs for `setup`'s task, learning rate, batch and seed: with
    /// ÷√d_k, then without.
    pub fn setups(setup: Setup) -> [Setup; 2] {
        [true, false].map(|scaled| Setup { d_model: Self::D_K, n_heads: 1, scaled, ..setup })
    }

    /// The two runs for `setup`'s task, learning rate, batch and seed.
    pub fn new(setup: Setup) -> Result<Self, SetupError> {
        let [with, without] = Self::setups(setup);
        let runs = [Session::new(with)?, Session::new(without)?];
        let gradients = [vec![(0, runs[0].softmax_gradient())], vec![(0, runs[1].softmax_gradient())]];
        Ok(Self { runs, gradients })
    }

    /// Whether the softmax gradient is recorded after `steps` steps.
    pub fn records_gradient(steps: usize) -> bool {
        steps.is_multiple_of(MEASURE_EVERY)
    }

    /// One step of each run that is still going; `false` once both are done (all their steps
    /// taken, or stopped by a loss that is not a number).
    pub fn step(&mut self) -> bool {
        let mut going = false;
        for (run, gradients) in self.runs.iter_mut().zip(&mut self.gradients) {
            if run.steps >= Self::STEPS || run.diverged.is_some() {
                continue;
            }
            if run.step().is_ok() {
                going = true;
                if Self::records_gradient(run.steps) {
                    gradients.push((run.steps, run.softmax_gradient()));
                }
            }
        }
        going
    }
}
