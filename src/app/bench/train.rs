//! The training view's model in the benchmark (reverse, n = 8, d_model 32, 2 heads, batch
//! 32): our step beside TensorFlow.js's (`cpu` and `wasm` backends) on the same model, batch,
//! loss and optimiser in the same page, each timed as the median of the second half of
//! [`STEPS`] steps with the first and last loss printed (both learn); then our steps and
//! compute to 99 % held-out accuracy (the page adds its frames: it trains 6 ms a frame), and
//! the largest model a learner can set: one whole step, and one sequence of it (the most a
//! frame holds, since the page spreads a step over frames a sequence at a time).

use super::{now, peer};
use crate::core::train::session::{digits_of, Session, Setup};
use crate::core::train::Task;

/// Steps per run; the second half is timed.
const STEPS: usize = 100;

/// Print every training line.
pub async fn run(print: &impl Fn(String)) {
    let setup = Setup::default();
    let (n, digits) = digits_of(Task::Reverse);
    let label = format!("task=reverse n={n} d_model={} heads={} batch={}", setup.d_model, setup.n_heads, setup.batch);
    let line = |who: &str, step_ms: f64, first: f64, last: f64| {
        format!(
            "{who} {label} step_ms={step_ms:.2} steps_per_s={:.0} loss_first={first:.3} loss_last={last:.3} steps={STEPS}",
            1000.0 / step_ms.max(1e-3)
        )
    };
    if let Ok(mut session) = Session::new(setup) {
        let mut times = Vec::with_capacity(STEPS);
        let mut losses = Vec::with_capacity(STEPS);
        for _ in 0..STEPS {
            let t0 = now();
            let Ok(loss) = session.step() else { break };
            times.push(now() - t0);
            losses.push(loss);
        }
        let tail = super::median_p95(times.split_off(times.len() / 2)).0;
        let (first, last) = (losses.first().copied(), losses.last().copied());
        print(line("train", tail, first.unwrap_or(f64::NAN), last.unwrap_or(f64::NAN)));
    }
    match peer::load_trainer().await {
        Ok(()) => {
            for backend in ["cpu", "wasm"] {
                let sizes = [n, digits, setup.d_model, setup.n_heads, setup.batch];
                print(match peer::train(backend, sizes, setup.learning_rate, STEPS).await {
                    Ok(p) => line(&format!("peer tfjs-{backend}"), p.step_ms, p.first_loss, p.last_loss),
                    Err(e) => format!("peer tfjs-{backend} {label} unavailable: {e}"),
                });
            }
        }
        Err(e) => print(format!("peer tfjs unavailable: {e}")),
    }
    if let Ok(mut session) = Session::new(setup) {
        let t0 = now();
        while session.accuracy() < 0.99 && session.steps < 3000 && session.step().is_ok() {}
        print(format!(
            "train {label} steps_to_99={} compute_ms_to_99={:.0} accuracy={:.3}",
            session.steps,
            now() - t0,
            session.accuracy()
        ));
    }
    let (d_model, heads, layers, batch) = (Setup::D_MODEL.1, Setup::HEADS.1, Setup::LAYERS.1, Setup::BATCH.1);
    let largest = Setup { task: Task::Induction, d_model, n_heads: heads, n_layers: layers, batch, mlp: true, ..setup };
    if let Ok(mut session) = Session::new(largest) {
        let mut timed = |f: &mut dyn FnMut(&mut Session)| {
            let t0 = now();
            f(&mut session);
            now() - t0
        };
        let steps: Vec<f64> = (0..3)
            .map(|_| {
                timed(&mut |s| {
                    let _ = s.step();
                })
            })
            .collect();
        let sequences: Vec<f64> = (0..40)
            .map(|_| {
                timed(&mut |s| {
                    let _ = s.advance(1);
                })
            })
            .collect();
        let (sequence, sequence_p95) = super::median_p95(sequences);
        print(format!(
            "train largest task=induction n=8 d_model={d_model} heads={heads} layers={layers} batch={batch} mlp=1 step_ms={:.1} sequence_ms={sequence:.2} sequence_p95_ms={sequence_p95:.2}",
            super::median_p95(steps).0
        ));
    }
}
