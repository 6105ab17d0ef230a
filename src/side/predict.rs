//! "Predict first" in the side lessons' module: the stage's questions, asked from the numbers
//! the page handed over (`protocol::ToModule::Shown`), judged against them, the page told when
//! every one is answered (`protocol::ToPage::Revealed`) so it shows the figure; the tally kept in the
//! browser's storage; for the teacher, "Ask the class" and the reveal (button or R); under it,
//! "Check yourself".

use crate::i18n::{fill, PredictMsg as P};
use crate::predict::exercise::{exercise, task};
use crate::predict::questions::{count, questions, show, Given, Kind};
use crate::predict::shown::{from_outcome, Shown};
use crate::predict::tally::{Tally, TALLY_KEY};
use crate::protocol::ToPage;
use crate::settings::Stage;
use crate::ui::in_form_control;
use crate::ui::use_lesson_state;
use leptos::{ev, html, prelude::*};

fn storage() -> Option<web_sys::Storage> {
    window().local_storage().ok().flatten()
}

fn load_tally() -> Tally {
    storage().and_then(|s| s.get_item(TALLY_KEY).ok().flatten()).map_or_else(Tally::default, |t| Tally::from_text(&t))
}

fn save_tally(tally: &Tally) {
    if let Some(s) = storage() {
        let _ = s.set_item(TALLY_KEY, &tally.to_text());
    }
}

/// Tell the page to show the stage's figure.
fn reveal_figure() {
    crate::hosted::tell(&ToPage::Revealed);
}

/// The questions of `stage`, all asked before anything is revealed (the figure shows once every
/// one is answered, or the teacher reveals them), and, under them, the exercise; asked afresh
/// whenever the page hands over new numbers.
#[component]
pub fn PredictPanel(stage: Stage) -> impl IntoView {
    let page = use_lesson_state();
    // New numbers from the page: asked afresh (only a change notifies).
    let handed = super::handover::use_handed();
    let shown = Memo::new(move |_| {
        let outcome = handed.outcome.get()?;
        from_outcome(&outcome.0, handed.layer.get(), handed.head.get(), handed.query.get())
    });
    let (tally, ask) = (RwSignal::new(load_tally()), RwSignal::new(false));
    let progress = move || {
        let t = tally.get();
        let (answers, right) = t.totals();
        let values = [
            ("stages", t.stages_answered().to_string()),
            ("answers", answers.to_string()),
            ("right", right.to_string()),
        ];
        let values: Vec<(&str, &str)> = values.iter().map(|(k, v)| (*k, v.as_str())).collect();
        fill(page.t(P::Progress), &values)
    };
    view! {
        // New numbers: new cards, with nothing answered.
        {move || {
            shown.track();
            let n = if shown.with_untracked(Option::is_some) { count(stage) } else { 0 };
            let dones: Vec<RwSignal<bool>> = (0..n).map(|_| RwSignal::new(false)).collect();
            let teacher = RwSignal::new(false);
            let all = dones.clone();
            Effect::new(move |revealed: Option<bool>| {
                let now = !all.is_empty() && all.iter().all(|d| d.get());
                if now && revealed != Some(true) {
                    reveal_figure();
                }
                now
            });
            dones.into_iter().enumerate().map(|(i, done)| view! {
                <QuestionCard stage=stage index=i shown=shown tally=tally ask=ask done=done teacher=teacher />
            }).collect_view()
        }}
        <p class="predict__progress" data-testid="predict-progress">
            {progress} " "
            <button type="button" class="button button--link" data-testid="predict-reset"
                on:click=move |_| { tally.set(Tally::default()); save_tally(&Tally::default()); }>{page.text(P::Reset)}</button>
        </p>
        <CheckYourself stage=stage shown=shown />
    }
}

/// One question: the stage's own (`index` 0, the one the teacher asks the class, and whose
/// Reveal shows every answer) or a follow-up.
#[component]
fn QuestionCard(
    stage: Stage,
    index: usize,
    shown: Memo<Option<Shown>>,
    tally: RwSignal<Tally>,
    /// "Ask the class": the first question over the whole screen.
    ask: RwSignal<bool>,
    /// Set once answered (or revealed).
    done: RwSignal<bool>,
    /// Set when the teacher reveals the answers (every card shows its own).
    teacher: RwSignal<bool>,
) -> impl IntoView {
    let page = use_lesson_state();
    let first = index == 0;
    // What the student gave, or the teacher's reveal (`Err(())`).
    let given = RwSignal::new(None::<Result<Given, ()>>);
    let (error, picked, typed) =
        (RwSignal::new(None::<String>), RwSignal::new(Vec::<usize>::new()), RwSignal::new(String::new()));
    let asked = Memo::new(move |_| {
        let lang = page.lang.get();
        shown.with(|s| s.as_ref().and_then(|s| questions(s, stage, lang).into_iter().nth(index)))
    });
    let feedback = NodeRef::<html::P>::new();
    let answered = move || {
        done.set(true);
        // Once the feedback is written (the view updates after this handler); by then new
        // numbers or a new mount may have replaced the card, and its node with it.
        request_animation_frame(move || {
            if let Some(p) = feedback.try_get_untracked().flatten() {
                let _ = p.focus();
            }
        });
    };
    let submit = move |answer: Given| {
        let lang = page.lang.get_untracked();
        let Some(judged) = asked.with_untracked(|q| q.as_ref().map(|q| q.judge(&answer, lang))) else { return };
        match judged {
            Ok(verdict) => {
                error.set(None);
                given.set(Some(Ok(answer)));
                tally.update(|t| t.record(stage, verdict.correct));
                save_tally(&tally.get_untracked());
                answered();
            }
            Err(why) => error.set(Some(why)),
        }
    };
    // The teacher revealed: this card shows its answer (an answer given stays as judged).
    Effect::new(move |_| {
        if teacher.get() && given.with_untracked(Option::is_none) {
            given.set(Some(Err(())));
            done.set(true);
        }
    });
    let teacher_reveal = move || teacher.set(true);
    if first {
        let keys = window_event_listener(ev::keydown, move |e| {
            if !in_form_control(&e)
                && !e.ctrl_key()
                && !e.meta_key()
                && !e.alt_key()
                && matches!(e.key().as_str(), "r" | "R")
            {
                teacher_reveal();
            }
        });
        on_cleanup(move || keys.remove());
    }
    let verdict = move || {
        let lang = page.lang.get();
        let q = asked.get()?;
        given.with(|g| match g.as_ref()? {
            Ok(answer) => q.judge(answer, lang).ok().map(|v| (Some(v.correct), v.feedback)),
            Err(()) => Some((None, format!("{} {}", page.t(P::AnswerIs), q.answer(lang)))),
        })
    };
    let is_done = move || given.with(Option::is_some);
    let kind = move || asked.with(|q| q.as_ref().map(|q| q.kind));
    let choices = move || asked.with(|q| q.as_ref().map(|q| q.choices.clone()).unwrap_or_default());
    let choice_buttons = move |many: bool| {
        choices()
            .into_iter()
            .enumerate()
            .map(|(i, token)| {
                let pressed = move || picked.with(|p| p.contains(&i)).to_string();
                let click = move |_| {
                    if many {
                        picked.update(|p| {
                            if let Some(at) = p.iter().position(|x| *x == i) {
                                p.remove(at);
                            } else {
                                p.push(i)
                            }
                        });
                    } else {
                        picked.set(vec![i]);
                        submit(Given::Key(i));
                    }
                };
                view! {
                    <button type="button" class="predict__choice" data-testid="predict-choice" data-index=i
                        aria-pressed=pressed disabled=is_done on:click=click>{token}</button>
                }
            })
            .collect_view()
    };
    let check = move |_| match kind() {
        Some(Kind::ClickRow) => submit(Given::Rows(picked.get_untracked())),
        Some(_) => submit(Given::Text(typed.get_untracked())),
        None => {}
    };
    let (title, input) = (format!("predict-title-{index}"), format!("predict-input-{index}"));
    let check_button = move || {
        view! {
            <button type="button" class="button button--primary" data-testid="predict-check" disabled=is_done on:click=check>{page.text(P::Check)}</button>
        }
    };
    let class = move || if first && ask.get() { "predict__card predict__card--ask" } else { "predict__card" };
    let group = title.clone();
    view! {
        <section class=class data-testid="predict-question" data-kind=move || kind().map(Kind::slug) aria-labelledby=title.clone()>
            <h3 class="view__subtitle" id=title.clone()>{page.text(P::Title)}</h3>
            <p class="predict__prompt">{move || asked.with(|q| q.as_ref().map(|q| q.prompt.clone()))}</p>
            {move || (kind() == Some(Kind::ClickKey) && !is_done()).then(|| view! { <p class="predict__progress">{page.text(P::OneTry)}</p> })}
            {move || match kind() {
                Some(Kind::ClickKey) => view! {
                    <div class="predict__choices" role="group" data-testid="predict-answer" aria-labelledby=group.clone()>{choice_buttons(false)}</div>
                }.into_any(),
                Some(Kind::ClickRow) => view! {
                    <div class="predict__choices" role="group" data-testid="predict-answer" aria-labelledby=group.clone()>{choice_buttons(true)}</div>
                    {check_button()}
                }.into_any(),
                // No answer until the slider is moved: Check waits for it (a slider that starts
                // at some value would answer for the student).
                Some(Kind::Slider) => view! {
                    <div class="predict__answer">
                        <label class="field__label" for=input.clone()>{page.text(P::YourAnswer)}</label>
                        <input id=input.clone() type="range" min="0" max="1" step="0.01" data-testid="predict-answer"
                            disabled=is_done on:input=move |e| typed.set(event_target_value(&e)) />
                        <output for=input.clone() class="predict__value">{move || {
                            let t = typed.get();
                            if t.is_empty() { page.t(P::MoveSlider).to_string() } else { t }
                        }}</output>
                        <button type="button" class="button button--primary" data-testid="predict-check"
                            disabled=move || is_done() || typed.with(String::is_empty) on:click=check>{page.text(P::Check)}</button>
                    </div>
                }.into_any(),
                _ => view! {
                    <div class="predict__answer">
                        <label class="field__label" for=input.clone()>{page.text(P::YourAnswer)}</label>
                        <input id=input.clone() class="field__text" data-testid="predict-answer" inputmode="decimal" autocomplete="off"
                            prop:value=move || typed.get() disabled=is_done
                            on:input=move |e| typed.set(event_target_value(&e))
                            on:keydown=move |e: web_sys::KeyboardEvent| if e.key() == "Enter" { submit(Given::Text(typed.get_untracked())) } />
                        {check_button()}
                    </div>
                }.into_any(),
            }}
            <p class="field__error" role="alert" data-testid="predict-error">{move || error.get()}</p>
            {move || (first && !is_done()).then(|| view! { <p class="predict__progress">{page.text(P::Hidden)}</p> })}
            {move || (!first && !is_done()).then(|| view! { <p class="predict__progress">{page.text(P::BothFirst)}</p> })}
            <p class="predict__feedback" node_ref=feedback tabindex="-1" role="status" data-testid="predict-feedback"
                data-correct=move || verdict().and_then(|(c, _)| c).map(|c| if c { "1" } else { "0" })>
                {move || verdict().map(|(_, text)| text)}
            </p>
            <Show when=move || first && page.present.get()>
                <div class="predict__teacher">
                    <button type="button" class="button" data-testid="ask-class" aria-pressed=move || ask.get().to_string()
                        on:click=move |_| ask.update(|a| *a = !*a)>{page.text(P::AskClass)}</button>
                    <button type="button" class="button button--primary" data-testid="reveal" disabled=move || teacher.get()
                        on:click=move |_| teacher_reveal()>{page.text(P::Reveal)}</button>
                </div>
            </Show>
        </section>
    }
}

/// "Check yourself": a small exercise cut from the numbers on screen, checked to its stated
/// tolerance, with the worked solution, and new numbers on request.
#[component]
fn CheckYourself(stage: Stage, shown: Memo<Option<Shown>>) -> impl IntoView {
    let page = use_lesson_state();
    let (seed, typed, result) =
        (RwSignal::new(1u64), RwSignal::new(String::new()), RwSignal::new(None::<Result<bool, ()>>));
    let problem = Memo::new(move |_| {
        let (lang, seed) = (page.lang.get(), seed.get());
        shown.with(|s| s.as_ref().and_then(|s| exercise(s, task(stage), seed, lang)))
    });
    // New numbers on screen, or new ones drawn: a fresh problem.
    Effect::new(move |_| {
        shown.track();
        seed.track();
        typed.set(String::new());
        result.set(None);
    });
    let check = move || {
        let verdict = problem.with_untracked(|p| p.as_ref().and_then(|p| p.accepts(&typed.get_untracked())));
        result.set(Some(verdict.ok_or(())));
    };
    view! {
        <section class="predict__card" data-testid="exercise" aria-labelledby="exercise-title">
            <h3 class="view__subtitle" id="exercise-title">{page.text(P::ExTitle)}</h3>
            {move || match problem.get() {
                None => view! { <p class="view__text">{page.text(P::ExNone)}</p> }.into_any(),
                Some(p) => {
                    let tolerance = if p.tolerance == 0.0 {
                        page.t(P::ExExact).to_string()
                    } else {
                        fill(page.t(P::ExTolerance), &[("tol", &show(p.tolerance as f32))])
                    };
                    let redraws = p.redraws;
                    view! {
                        <p class="predict__prompt" translate="no">{p.prompt.clone()} " " {tolerance}</p>
                        <div class="predict__answer">
                            <label class="field__label" for="exercise-input">{page.text(P::YourAnswer)}</label>
                            <input id="exercise-input" class="field__text" data-testid="exercise-input" inputmode="decimal" autocomplete="off"
                                prop:value=move || typed.get() on:input=move |e| typed.set(event_target_value(&e))
                                on:keydown=move |e: web_sys::KeyboardEvent| if e.key() == "Enter" { check() } />
                            <button type="button" class="button button--primary" data-testid="exercise-check" on:click=move |_| check()>{page.text(P::ExCheck)}</button>
                            {redraws.then(|| view! {
                                <button type="button" class="button" data-testid="exercise-new" on:click=move |_| seed.update(|s| *s += 1)>{page.text(P::ExNew)}</button>
                            })}
                        </div>
                        <p class="predict__feedback" role="status" data-testid="exercise-feedback"
                            data-correct=move || result.get().and_then(Result::ok).map(|c| if c { "1" } else { "0" })>
                            {move || result.get().map(|r| match r {
                                Err(()) => page.t(P::TypeNumber).to_string(),
                                Ok(c) => format!("{} {}", fill(page.t(if c { P::ExRight } else { P::ExWrong }), &[("x", &p.answer_text)]), p.solution),
                            })}
                        </p>
                    }.into_any()
                }
            }}
        </section>
    }
}
