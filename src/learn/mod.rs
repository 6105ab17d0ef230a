//! The training view's own module: a small Transformer trained live in the page
//! (`core::train::session`), its loss, accuracy and heads redrawn as it learns. Built into its
//! own .wasm (the `learn` binary) and started by the page only when the view opens
//! (`app::views::hosted`), so the lesson's .wasm carries none of it.
//!
//! The run lives here, outside the components, so it survives the view being closed and
//! opened again and a change of language or theme (the page then asks for a new mount).
//! It trains in a pool of Web Workers (`crate::trainer`), one per core by default: the page
//! only sends the learner's commands and draws what the pool reports.

mod charts;
mod generate;
mod knockout;
mod knockout_view;
pub mod query;
mod setup;
mod view;

use crate::bridge::{lesson_query, Hosted, YOURS_KEY};
use crate::core::model::Model;
use crate::core::train::replica::{Command, Job};
use crate::core::train::session::{example, Experiment, Progress, Settled, Setup, SetupError};
use crate::core::train::yours::YourModel;
use crate::core::train::Params;
use crate::hosted::{host_after, open_link, shown};
use crate::trainer::pool::{default_workers, Heard, Pool};
use leptos::prelude::*;
use ndarray::Array2;
use std::cell::RefCell;

/// A run training on a pool of workers, as the page last heard of it.
struct Trained {
    progress: Progress,
    /// The model as the leader last sent it (once the run came to rest), and the step it is of.
    params: Params,
    params_step: usize,
    /// The example and every head's attention on it as the leader last sent them,
    /// `[layer][head]`.
    attention: (Vec<usize>, Vec<Vec<Array2<f32>>>),
    /// `None` when the pool could not start.
    pool: Option<Pool>,
    /// Training: as last asked, until the leader has read every command sent, then as it
    /// reports.
    running: bool,
}

impl Trained {
    /// A pool of `workers` starting on `setup`: the fresh model until the first report.
    fn start(setup: Setup, job: Job, workers: usize, target: Target) -> (Self, Option<String>) {
        let config = setup.config();
        let params = Params::init(&config, setup.seed);
        let progress = Progress { setup, steps: 0, accuracy: 0.0, history: vec![], diverged: None, gradients: vec![] };
        let pool = Pool::start(setup, job, workers, move |heard| hear(target, heard));
        let (pool, failed) = match pool {
            Ok(p) => (Some(p), None),
            Err(e) => (None, Some(e)),
        };
        (Self { progress, params, params_step: 0, attention: (vec![], vec![]), pool, running: false }, failed)
    }

    fn command(&mut self, command: Command) {
        self.running = command == Command::Run;
        if let Some(pool) = &self.pool {
            pool.command(command);
        }
    }

    /// Its model, with `example` as the sentence: the model as it is now, once the run is at
    /// rest (`None` before its model has come).
    fn model(&self, example: &[usize]) -> Option<YourModel> {
        if self.params_step != self.progress.steps {
            return None;
        }
        YourModel::trained(&self.progress.setup, &self.params, self.params_step, example).ok()
    }
}

/// Which run a pool trains.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    Main,
    /// The scaling experiment's run: 0 with ÷√d_k, 1 without.
    Experiment(usize),
}

/// The run: the model training, whether it is running, its speed, the example shown.
struct Run {
    main: Trained,
    /// The learner's wish: training (what the button shows).
    running: bool,
    /// Steps per second over the last second of training.
    speed: f64,
    /// (time, steps) when the speed was last measured.
    speed_mark: (f64, usize),
    /// The example whose attention is drawn (the learner may type one).
    example: Vec<usize>,
    /// The scaling experiment, when the learner started it: the button trains it instead of
    /// the run until Reset.
    experiment: Option<[Trained; 2]>,
    /// Workers per pool, as the learner chose.
    workers: usize,
    /// Why training stopped, when a worker failed.
    failed: Option<String>,
    /// "Open in the lesson" waits for the run to come to rest with its model.
    opening: bool,
    /// The browser would not keep the model "Open in the lesson" asked for.
    open_failed: bool,
    /// Where the page paused the run because its held-out accuracy had settled
    /// (`Progress::settled`): once a run, so that *Train* goes on past it.
    settled: Option<Settled>,
    /// The view says why it paused, until the learner trains on.
    settled_note: bool,
}

impl Run {
    /// Steps taken by what trains: the experiment's runs, else the run.
    fn steps(&self) -> usize {
        self.experiment.as_ref().map_or(self.main.progress.steps, |e| e[0].progress.steps)
    }

    /// The pools the button drives: the experiment's, else the run's.
    fn driven(&self) -> Vec<&Trained> {
        match &self.experiment {
            Some(e) => e.iter().collect(),
            None => vec![&self.main],
        }
    }

    /// Tell every pool the button drives.
    fn command(&mut self, command: Command) {
        match &mut self.experiment {
            Some(e) => e.iter_mut().for_each(|t| t.command(command)),
            None => self.main.command(command),
        }
        self.running = command == Command::Run;
    }

    /// The model "Open in the lesson" keeps: the scaled run's during the experiment, else the
    /// run's, once at rest.
    fn driven_model(&self, example: &[usize]) -> Option<YourModel> {
        self.experiment.as_ref().map_or(&self.main, |e| &e[0]).model(example)
    }

    /// The workers the run's pool has.
    fn pool_workers(&self) -> usize {
        self.main.pool.as_ref().map_or(0, Pool::workers)
    }
}

thread_local! {
    static RUN: RefCell<Option<Run>> = const { RefCell::new(None) };
    /// Bumped whenever the run changes: the mounted view redraws from it.
    static CHANGED: RefCell<Option<RwSignal<u64>>> = const { RefCell::new(None) };
    /// The link's setup was out of range (the default one runs instead): said once, beside
    /// the setting, when the view first mounts.
    static LINK_ERROR: RefCell<Option<SetupError>> = const { RefCell::new(None) };
}

/// Start the module: once the page's link has arrived, the run from its setup, the view
/// mounted, and mounted again whenever the page asks.
pub fn start() {
    crate::report_memory("learn");
    host_after(Hosted::Learn, start_run, || {
        let changed = RwSignal::new(0_u64);
        CHANGED.with(|c| *c.borrow_mut() = Some(changed));
        view::LearnApp(view::LearnAppProps { changed }).into_any()
    });
}

/// The run of the setup the page's link names (the default, with the error kept for the view
/// to say, if that setup cannot run).
fn start_run() {
    let asked = query::read();
    let setup = match asked.check() {
        Ok(()) => asked,
        Err(e) => {
            LINK_ERROR.with(|l| *l.borrow_mut() = Some(e));
            let fallback = Setup::default();
            query::write(&fallback);
            fallback
        }
    };
    reset_on(setup, default_workers());
}

/// The link's setup error, once.
fn take_link_error() -> Option<SetupError> {
    LINK_ERROR.with(|l| l.borrow_mut().take())
}

/// Tell the mounted view the run changed.
fn changed() {
    let signal = CHANGED.with(|c| *c.borrow());
    if let Some(s) = signal {
        s.try_update(|n| *n += 1);
    }
}

/// Read the run (`None` before `start`).
fn with_run<T>(f: impl FnOnce(&Run) -> T) -> Option<T> {
    RUN.with(|r| r.borrow().as_ref().map(f))
}

/// Change the run.
fn update_run<T>(f: impl FnOnce(&mut Run) -> T) -> Option<T> {
    let out = RUN.with(|r| r.borrow_mut().as_mut().map(f));
    changed();
    out
}

/// Replace the run with a fresh one of `setup` (checked), on as many workers as before.
fn reset(setup: Setup) {
    let workers = with_run(|run| run.workers).unwrap_or_else(default_workers);
    reset_on(setup, workers);
}

/// A fresh run of the run's setup on `workers` workers per pool.
fn set_workers(workers: usize) {
    if let Some(setup) = with_run(|run| run.main.progress.setup) {
        reset_on(setup, workers);
    }
}

/// Replace the run with a fresh one of `setup` (checked) on a pool of `workers` (stopped; its
/// own example). The old run's workers end at once.
fn reset_on(setup: Setup, workers: usize) {
    RUN.with(|r| drop(r.borrow_mut().take()));
    knockout::reset();
    let (main, failed) = Trained::start(setup, Job::default(), workers, Target::Main);
    let run = Run {
        main,
        running: false,
        speed: 0.0,
        speed_mark: (0.0, 0),
        example: example(&setup),
        experiment: None,
        workers,
        failed,
        opening: false,
        open_failed: false,
        settled: None,
        settled_note: false,
    };
    RUN.with(|r| *r.borrow_mut() = Some(run));
    changed();
}

/// What a pool said.
fn hear(target: Target, heard: Heard) {
    // The run's model at rest changed: the step it is of.
    let mut rested = None;
    let open = update_run(|run| {
        let trained = match target {
            Target::Main => &mut run.main,
            Target::Experiment(k) => match &mut run.experiment {
                Some(e) => &mut e[k],
                None => return false,
            },
        };
        match heard {
            Heard::Report(report) => {
                let report = *report;
                if let Some(flat) = &report.params {
                    if trained.params.set_flat(flat) {
                        trained.params_step = report.progress.steps;
                        rested = (target == Target::Main).then_some(trained.params_step);
                    }
                }
                if let Some((tokens, attention)) = report.attention {
                    let f32s = |l: Vec<Array2<f64>>| l.into_iter().map(|a| a.mapv(|v| v as f32)).collect();
                    trained.attention = (tokens, attention.into_iter().map(f32s).collect());
                }
                trained.progress = report.progress;
                // A report the leader sent before it read the latest command says nothing of it.
                if trained.pool.as_ref().is_none_or(|p| report.heard >= p.sent()) {
                    trained.running = report.running;
                }
                run.running = run.driven().iter().any(|t| t.running);
                // Nobody is watching (the view was closed): pause.
                if run.running && !shown(Hosted::Learn) {
                    run.command(Command::Pause);
                }
                // Learned, and nothing more to watch: pause there once, and say why.
                let mut settled_now = false;
                if run.running && target == Target::Main && run.experiment.is_none() && run.settled.is_none() {
                    if let Some(settled) = run.main.progress.settled() {
                        run.settled = Some(settled);
                        run.settled_note = true;
                        run.command(Command::Pause);
                        settled_now = true;
                    }
                }
                // The speed over the last second, or over what ran before the page paused it
                // (reverse settles in under a second: its speed would never be shown).
                let (t0, s0) = run.speed_mark;
                let (t, steps) = (now(), run.steps());
                if t - t0 >= 1000.0 || (settled_now && t > t0) {
                    if run.running || settled_now {
                        run.speed = steps.saturating_sub(s0) as f64 * 1000.0 / (t - t0);
                    }
                    run.speed_mark = (t, steps);
                }
            }
            Heard::Failed(why) => {
                run.failed = Some(why);
                run.running = false;
                trained.running = false;
                run.opening = false;
            }
        }
        // "Open in the lesson" was waiting for this model.
        run.opening && run.driven_model(&run.example).is_some()
    });
    if let Some(step) = rested {
        knockout::model_changed(step);
    }
    if open == Some(true) {
        open_in_lesson();
    }
}

/// Start the scaling experiment from the run's task, learning rate, batch and seed, each of its
/// two runs on half the workers.
fn start_experiment() {
    update_run(|run| {
        run.main.command(Command::Pause);
        let workers = (run.workers / 2).max(1);
        let setups = Experiment::setups(run.main.progress.setup);
        let mut failed = None;
        let runs = [0, 1].map(|k| {
            let (mut trained, why) = Trained::start(setups[k], Job::EXPERIMENT, workers, Target::Experiment(k));
            failed = failed.take().or(why);
            trained.command(Command::Run);
            trained
        });
        run.experiment = Some(runs);
        run.failed = failed;
        run.running = run.failed.is_none();
        run.speed_mark = (now(), 0);
    });
}

/// One step, from the button.
fn single_step() {
    update_run(|run| {
        run.settled_note = false;
        run.command(Command::Pause);
        run.command(Command::Step);
    });
}

/// Keep the run's model (the scaled run's, during the experiment) where the lesson reads it,
/// and open the lesson on it with the example as the sentence, as `bridge` says: at once when
/// the run is at rest, else once the pool, paused now, has sent its model (the view says when
/// the browser would not keep it).
fn open_in_lesson() {
    let kept = update_run(|run| {
        run.command(Command::Pause);
        let Some(model) = run.driven_model(&run.example) else {
            run.opening = run.failed.is_none();
            return None;
        };
        run.opening = false;
        let storage = window().local_storage().ok().flatten();
        let stored = storage.is_some_and(|s| s.set_item(YOURS_KEY, &model.to_text()).is_ok());
        run.open_failed = !stored;
        stored.then(|| (model.example().unwrap_or_default(), model.scaled(), model.where_it_shows()))
    });
    let Some(Some((sentence, scaled, shown))) = kept else { return };
    // The model the registry reads from where this one was kept.
    let Some(model) = crate::models::stored_under(YOURS_KEY) else {
        update_run(|run| run.open_failed = true);
        return;
    };
    let search = crate::hosted::address();
    open_link(&lesson_query(&search, model.slug(), &sentence, scaled, shown));
}

/// Show `tokens` as the example (their attention comes with the pool's next report).
fn set_example(tokens: Vec<usize>) {
    update_run(|run| {
        if let Some(pool) = &run.main.pool {
            pool.example(&tokens);
        }
        run.example = tokens;
    });
}

/// Start or pause training.
fn toggle() {
    update_run(|run| {
        let can = run.failed.is_none() && run.driven().iter().any(|t| t.progress.diverged.is_none());
        run.command(if !run.running && can { Command::Run } else { Command::Pause });
        run.speed_mark = (now(), run.steps());
        run.settled_note = false;
    });
}

pub(crate) fn now() -> f64 {
    window().performance().map_or(0.0, |p| p.now())
}
