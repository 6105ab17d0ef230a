//! The training view's model in the benchmark (reverse, n = 8, d_model 32, 2 heads, batch
//! 32): our step beside TensorFlow.js's (`cpu` and `wasm` backends) on the same model, batch,
//! loss and optimiser in the same page, each timed as the median of the second half of
//! [`STEPS`] steps with the first and last loss printed (both learn); then our steps and
//! compute to 99 % held-out accuracy, and the largest model a learner can set: one whole step.
//! Each model also trains as the training view trains it, off the page's thread, on one
//! worker and on the pool (one per core): `train workers=k … steps_per_s=…`.

use super::{now, peer, sleep};
use crate::core::train::replica::{Command, Job};
use crate::core::train::session::{digits_of, Session, Setup};
use crate::core::train::Task;
use crate::trainer::pool::{default_workers, Heard, Pool};
use std::cell::RefCell;
use std::rc::Rc;

/// Seconds each pool is timed for, after training this long untimed.
const POOL_SECONDS: f64 = 4.0;
const WARM_UP_SECONDS: f64 = 3.0;

/// What a pool said last: when its last report arrived and the steps it gave, or why it failed.
type LastReport = Result<Option<(f64, usize)>, String>;

/// Steps per second of `setup` training on a pool of `workers` (as the training view runs it:
/// off the page's thread), after `warm_up` steps and [`WARM_UP_SECONDS`], over [`POOL_SECONDS`] or at least `min_steps`
/// steps: (the pool's workers, steps per second), or why not.
async fn pool_speed(setup: Setup, workers: usize, warm_up: usize, min_steps: usize) -> Result<(usize, f64), String> {
    // The last report's steps and when it arrived: the rate is taken between two arrivals.
    let last: Rc<RefCell<LastReport>> = Rc::new(RefCell::new(Ok(None)));
    let heard = Rc::clone(&last);
    let pool = Pool::start(setup, Job::default(), workers, move |h| match h {
        Heard::Report(r) => *heard.borrow_mut() = Ok(Some((now(), r.progress.steps))),
        Heard::Failed(e) => *heard.borrow_mut() = Err(e),
    })?;
    let wait_for = |at_least: usize| {
        let last = Rc::clone(&last);
        async move {
            let t0 = now();
            loop {
                let seen = last.borrow().clone()?;
                match seen {
                    Some((at, s)) if s >= at_least => return Ok::<_, String>((at, s)),
                    _ if now() - t0 > 600_000.0 => return Err("no report in 10 minutes".to_string()),
                    _ => sleep(5.0).await,
                }
            }
        }
    };
    wait_for(0).await?;
    pool.command(Command::Run);
    // The engine compiles hot code again, optimised, while it runs: time it after that.
    let (_, warm) = wait_for(warm_up).await?;
    sleep(WARM_UP_SECONDS * 1000.0).await;
    let (t0, s0) = wait_for(warm + 1).await?;
    sleep(POOL_SECONDS * 1000.0).await;
    let (_, now_at) = wait_for(s0).await?;
    let (t1, s1) = wait_for(now_at.max(s0 + min_steps) + 1).await?;
    pool.command(Command::Pause);
    Ok((pool.workers(), (s1 - s0) as f64 * 1000.0 / (t1 - t0)))
}

/// The `train workers=…` lines: `setup` on one worker and on the pool.
async fn pool_lines(print: &impl Fn(String), setup: Setup, label: &str, warm_up: usize, min_steps: usize) {
    let mut counts = vec![1, default_workers()];
    counts.dedup();
    for workers in counts {
        print(match pool_speed(setup, workers, warm_up, min_steps).await {
            Ok((k, per_s)) => format!("train workers={k} {label} steps_per_s={per_s:.2}"),
            Err(e) => format!("train workers={workers} {label} unavailable: {e}"),
        });
    }
}

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
    pool_lines(print, setup, &label, 20, 20).await;
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
    let label = format!("task=induction n=8 d_model={d_model} heads={heads} layers={layers} batch={batch} mlp=1");
    if let Ok(mut session) = Session::new(largest) {
        let steps: Vec<f64> = (0..3)
            .map(|_| {
                let t0 = now();
                let _ = session.step();
                now() - t0
            })
            .collect();
        print(format!("train largest {label} step_ms={:.1}", super::median_p95(steps).0));
    }
    pool_lines(print, largest, &label, 1, 3).await;
}
