//! End-to-end tests: the built site (`dist/`) served on 127.0.0.1 and driven over WebDriver,
//! as a user would use it, in the engine `E2E_BROWSER` names (`engine.rs`: Chromium, Firefox,
//! WebKit). Elements are found by `data-testid`.
//!
//! Its own harness (libtest-mimic, so the output and the flags are `cargo test`'s): every test
//! says where it applies ([`Runs`]), and one that does not apply in the chosen engine is
//! reported as **ignored**, by name, engine and why ("skipped in WebKit: …"), never as passed.
//! Without `E2E_BROWSER` nothing runs (they need the built site and a browser): the README's
//! test command (scripts/test.sh) builds `dist/` and runs this once per engine. Each async test
//! has a time limit ([`LIMIT`]): a hang at an await fails that test, by name, instead of the
//! whole run (the few plain tests read files; each engine's run has its own limit besides).
// Nothing for wasm32 (`cargo clippy --target wasm32-unknown-unknown --all-targets` builds it).
#![cfg_attr(target_arch = "wasm32", no_main)]
#![cfg(not(target_arch = "wasm32"))]

mod a11y;
mod browser;
mod budget;
mod chinese_model;
mod classroom;
mod engine;
mod engines;
mod learn;
mod lesson;
mod lessons;
mod limits;
mod model;
mod places;
mod predict;
mod publishing;
mod robustness;
mod screens;
mod server;
mod views;
mod walk;

use engine::Engine;
use libtest_mimic::{Arguments, Failed, Trial};
use std::future::Future;
use std::pin::Pin;
use std::time::{Duration, Instant};

/// The longest one test may take before it fails as hung (the random walk's own length is
/// set below this).
const LIMIT: Duration = Duration::from_secs(420);

/// Where a test applies, and why not elsewhere.
#[derive(Clone, Copy)]
enum Runs {
    /// In every engine: what an engine can do differently (its console, workers, storage,
    /// service worker, layout, focus, modules loaded at run time, memory).
    Everywhere,
    /// In Chromium only: the page's own logic (numbers, texts, links, settings), which the
    /// engines run alike; the other engines' runs report it as skipped, with this reason.
    Neutral,
    /// Not in these engines, for the reason given.
    NotIn(&'static [Engine], &'static str),
    /// In these engines only, for the reason given.
    OnlyIn(&'static [Engine], &'static str),
    /// Checks of the build itself, not of a browser: once, with Chromium's run.
    Build,
    /// In these engines only (for the reason given), where the machine allows what the test
    /// needs: the check says why not, and the test is skipped with that.
    Needs(&'static [Engine], &'static str, fn() -> Result<(), String>),
}

impl Runs {
    /// Why the test is skipped in `engine`, or `None` when it runs there.
    fn skipped_in(self, engine: Engine) -> Option<String> {
        match self {
            Runs::Everywhere => None,
            Runs::Neutral | Runs::Build if engine == Engine::Chromium => None,
            Runs::Neutral => Some("engine-neutral (the page's own logic): Chromium's run checks it".into()),
            Runs::Build => Some("checks the build, not the browser: Chromium's run checks it".into()),
            Runs::NotIn(engines, why) => engines.contains(&engine).then(|| why.to_string()),
            Runs::OnlyIn(engines, why) => (!engines.contains(&engine)).then(|| why.to_string()),
            Runs::Needs(engines, why, _) if !engines.contains(&engine) => Some(why.to_string()),
            Runs::Needs(_, _, check) => check().err().map(|why| format!("this machine cannot hold it: {why}")),
        }
    }
}

type Run = Box<dyn FnOnce() -> Pin<Box<dyn Future<Output = ()>>> + Send>;

/// One test: its name (`module::function`), where it applies, and what it runs.
struct Case {
    name: &'static str,
    runs: Runs,
    run: Run,
}

/// `case!(runs, module::test)` for an async test, `case!(runs, sync module::test)` for a plain one.
macro_rules! case {
    ($runs:expr, sync $module:ident :: $test:ident) => {
        Case {
            name: concat!(stringify!($module), "::", stringify!($test)),
            runs: $runs,
            run: Box::new(|| Box::pin(async { $module::$test() })),
        }
    };
    ($runs:expr, $module:ident :: $test:ident) => {
        Case {
            name: concat!(stringify!($module), "::", stringify!($test)),
            runs: $runs,
            run: Box::new(|| Box::pin($module::$test())),
        }
    };
}

const FIREFOX_PHONE: Runs = Runs::NotIn(
    &[Engine::Firefox],
    "a phone: Firefox's windows are at least 500 px wide and its WebDriver has no phone emulation",
);

fn every_case() -> Vec<Case> {
    use Runs::*;
    vec![
        // The build.
        case!(Build, sync budget::each_wasm_stays_within_its_400_kb_gzip_budget),
        case!(Build, sync browser::the_broken_number_check_knows_the_sites_sentences_about_nan),
        case!(Build, sync budget::the_side_lessons_are_in_their_module_not_in_the_page),
        case!(Build, sync budget::the_pages_integrity_digests_are_its_files),
        case!(Build, sync budget::the_published_wasm_carries_no_benchmark_code),
        case!(Build, sync engines::the_pages_errors_are_told_from_the_browsers_own),
        // What an engine does its own way.
        case!(Everywhere, engines::the_tests_see_the_pages_console_errors_in_this_engine),
        case!(Everywhere, engines::the_help_says_the_site_is_kept_for_use_without_the_network_and_which_kernels_run),
        case!(
            OnlyIn(&[Engine::Firefox], "only Firefox can open a window without service workers"),
            engines::without_service_workers_the_page_works_and_says_it_needs_the_server
        ),
        case!(Everywhere, robustness::a_random_walk_through_every_control_leaves_the_page_alive),
        case!(
            Everywhere,
            publishing::the_published_archive_shows_every_view_and_stage_without_a_console_error_online_and_offline
        ),
        case!(Everywhere, publishing::a_new_publication_is_offered_to_an_open_tab_and_reloads_into_it),
        case!(Everywhere, publishing::a_first_visit_is_never_offered_a_version_that_was_not_published),
        case!(Everywhere, classroom::presentation_mode_is_driven_from_the_keyboard),
        case!(Everywhere, classroom::after_quick_stepping_past_the_browsers_limit_the_link_still_follows),
        case!(Everywhere, classroom::the_site_keeps_working_with_the_server_gone),
        case!(Everywhere, classroom::the_release_build_works_from_a_sub_path_and_stays_on_its_own_origin),
        case!(Everywhere, screens::presentation_mode_fits_each_stage_on_one_screen),
        case!(FIREFOX_PHONE, screens::on_phones_nothing_scrolls_the_page_sideways),
        case!(Everywhere, screens::no_box_scrolls_vertically_on_a_desktop_or_a_projector),
        case!(FIREFOX_PHONE, screens::on_a_phone_cells_are_readable_targets_are_large_and_a_tap_explains_a_cell),
        case!(Everywhere, a11y::every_stage_and_view_passes_the_audit_in_both_languages),
        case!(Everywhere, a11y::the_themes_and_presentation_mode_pass_the_audit),
        case!(FIREFOX_PHONE, a11y::a_phone_passes_the_audit),
        case!(Everywhere, a11y::the_keyboard_reaches_every_control_and_its_focus_is_visible_in_every_theme),
        case!(Everywhere, a11y::a_heatmap_is_described_by_its_table_of_values),
        case!(Everywhere, views::a_side_lesson_that_cannot_load_says_so_in_each_of_its_views),
        case!(Everywhere, views::a_module_that_does_not_arrive_is_tried_again_and_the_page_keeps_its_state),
        case!(Everywhere, views::a_page_that_cannot_start_says_so),
        case!(Everywhere, views::a_start_that_traps_or_panics_once_is_loaded_again_and_one_that_always_does_says_so),
        case!(Everywhere, views::a_module_whose_start_traps_loads_the_page_once_more_and_then_says_so),
        case!(
            Everywhere,
            model::trained_weights_load_with_progress_and_layer_one_head_three_looks_at_the_previous_token
        ),
        case!(Everywhere, model::a_broken_model_file_is_reported_with_a_retry_and_the_rest_keeps_working),
        case!(Everywhere, model::once_loaded_the_model_works_offline_and_chinese_unknowns_are_named),
        case!(Everywhere, model::the_page_answers_while_the_pretrained_model_computes_in_its_worker),
        case!(Everywhere, model::the_model_view_shows_every_head_and_opens_one_in_the_lesson),
        case!(Everywhere, model::the_model_views_compute_in_a_worker_of_their_own_that_ends_when_they_close),
        case!(
            Needs(&[Engine::WebKit], "the memory limit is the iPad's engine's test", limits::available),
            limits::the_walk_through_every_view_runs_in_webkit_within_a_memory_limit
        ),
        case!(Everywhere, limits::a_page_the_system_ended_comes_back_where_it_was_and_says_so_once),
        case!(Everywhere, learn::a_student_trains_reverse_to_99_percent_and_every_head_is_drawn),
        case!(Everywhere, learn::the_page_answers_while_the_largest_model_trains_on_every_core),
        case!(FIREFOX_PHONE, lesson::on_a_phone_the_first_screen_says_what_this_is_and_starts_the_student),
        case!(Everywhere, lesson::stepping_through_every_stage_shows_drawn_heatmaps_with_their_shapes),
        // The page's own logic, the same in every engine.
        case!(Neutral, chinese_model::a_chinese_sentence_through_the_multilingual_model_layer_by_layer),
        case!(Neutral, chinese_model::the_chinese_class_sees_all_144_heads_and_the_case_study_in_chinese),
        case!(Neutral, chinese_model::on_a_device_with_little_memory_e5_warns_before_it_downloads),
        case!(Neutral, classroom::a_link_reopens_the_exact_state_and_the_url_follows_changes),
        case!(Neutral, classroom::garbage_in_the_url_is_named_and_replaced_by_defaults),
        case!(Neutral, classroom::every_export_makes_a_file_of_the_right_kind),
        case!(Neutral, classroom::the_link_for_students_is_short_has_its_qr_code_and_opens_the_normal_layout),
        case!(Neutral, learn::a_bad_setting_is_named_beside_its_control_and_a_good_one_is_kept_in_the_link),
        case!(Neutral, learn::the_scaling_experiment_trains_both_runs_side_by_side),
        case!(Neutral, learn::a_trained_model_opens_in_the_lesson_with_the_pattern_it_learned),
        case!(Neutral, learn::switching_off_the_previous_token_head_of_an_induction_model_collapses_its_accuracy),
        case!(Neutral, learn::a_reverse_model_writes_the_digits_backwards_with_the_cache_growing),
        case!(Neutral, learn::a_multi_query_model_with_rotary_positions_trains_and_opens_in_the_lesson),
        case!(Neutral, learn::the_model_opened_in_the_lesson_generates_in_the_training_view),
        case!(Neutral, lesson::typing_a_sentence_changes_the_tokens_and_every_shape),
        case!(Neutral, lesson::hovering_a_score_shows_the_dot_product_behind_it),
        case!(Neutral, lesson::unscaled_softmax_saturates_at_large_dk_and_scaling_keeps_it_soft),
        case!(Neutral, lesson::stage_4_reads_correctly_with_scaling_on_and_off_in_both_languages),
        case!(Neutral, lesson::every_stage_reads_its_numbers_in_words),
        case!(Neutral, lesson::the_language_switch_changes_the_texts_and_survives_a_reload),
        case!(Neutral, lesson::a_language_switch_keeps_what_the_teacher_set_up),
        case!(Neutral, lesson::bad_input_shows_a_message_and_keeps_the_last_good_picture),
        case!(Neutral, lesson::a_reload_keeps_every_setting),
        case!(Neutral, lesson::the_last_stage_says_where_next_and_each_view_opens_at_its_top),
        case!(Neutral, lesson::after_a_fast_drag_the_link_has_the_last_value),
        case!(Neutral, lesson::next_at_the_bottom_of_a_stage_lands_on_the_next_heading),
        case!(Neutral, lesson::settings_explain_themselves_and_chinese_tokens_are_explained),
        case!(Neutral, lessons::scaling_choices_show_too_sharp_right_and_too_flat),
        case!(Neutral, lessons::the_output_stays_in_the_hull_at_every_temperature),
        case!(Neutral, lessons::position_rotation_rnn_cnn_and_the_block_are_one_click_away),
        case!(Neutral, lessons::every_stage_shows_its_pytorch_with_the_live_shapes),
        case!(Neutral, lessons::cross_attention_switches_the_causal_mask_off_and_says_why),
        case!(Neutral, lessons::the_formula_the_reshape_and_the_padding_mask_are_shown_on_the_live_numbers),
        case!(Neutral, model::the_case_study_measures_it_to_animal_and_street_in_every_layer_and_head),
        case!(Neutral, model::the_model_view_measures_depth_and_one_word_in_two_meanings_and_names_other_settings),
        case!(Neutral, model::a_link_spotlighting_a_piece_the_model_has_reopens_it_after_the_model_arrives),
        case!(Neutral, model::switching_off_layer_1_head_3_changes_the_later_layers_and_the_link_and_export_keep_it),
        case!(Neutral, model::the_model_view_follows_the_sentence_and_the_mask_set_beside_it),
        case!(Neutral, model::the_sweep_reads_a_weight_or_a_similarity_and_the_maps_show_their_change),
        case!(Neutral, predict::the_weights_wait_for_the_answer_and_the_answer_is_judged_against_the_trace),
        case!(Neutral, predict::the_spread_after_scaling_is_typed_and_judged_in_chinese_on_a_phone),
        case!(Neutral, predict::identical_rows_are_clicked_and_the_class_is_asked_with_the_keyboard),
        case!(Neutral, predict::check_yourself_accepts_the_softmax_worked_out_from_the_printed_scores),
        case!(Neutral, predict::an_answer_followed_at_once_by_a_new_setting_leaves_the_page_alive),
        case!(Neutral, views::variance_view_measures_var_qk_near_dk),
        case!(Neutral, views::the_side_lessons_module_and_the_page_share_one_set_of_settings),
        case!(Neutral, views::variants_view_shows_self_causal_and_cross_side_by_side),
        case!(Neutral, views::patterns_view_builds_every_head_and_shows_its_weights),
        case!(Neutral, views::graph_view_draws_weighted_edges_and_follows_the_chosen_node),
        case!(Neutral, views::every_view_of_the_lesson_s_numbers_follows_the_mask_the_sentence_and_the_model),
        case!(Neutral, views::every_view_of_the_lesson_s_numbers_follows_from_the_learner_s_model),
        case!(Neutral, views::settings_that_do_not_compute_keep_the_last_good_variants),
        case!(Neutral, views::a_pretrained_model_shows_self_and_causal_variants_and_says_why_there_is_no_cross),
        case!(Neutral, views::complexity_view_counts_pairs_and_flash_matches_the_full_computation),
    ]
}

/// Run `case` on a runtime of its own, within [`LIMIT`]; its time on stderr.
fn run(case: Case) -> Result<(), Failed> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failed::from(format!("no runtime: {e}")))?;
    let started = Instant::now();
    let outcome = runtime.block_on(async { tokio::time::timeout(LIMIT, (case.run)()).await });
    eprintln!("time: {} {:.0} s", case.name, started.elapsed().as_secs_f64());
    outcome.map_err(|_| Failed::from(format!("{} did not finish in {} s: it hung", case.name, LIMIT.as_secs())))
}

fn main() -> std::process::ExitCode {
    let args = Arguments::from_args();
    // No engine chosen (a plain `cargo test`): nothing to run here; scripts/test.sh runs these
    // once per engine.
    let Some(engine) = std::env::var_os("E2E_BROWSER").map(|_| Engine::chosen()) else {
        eprintln!("end-to-end tests: set E2E_BROWSER=chromium|firefox|webkit (scripts/test.sh runs each, after building dist/)");
        return libtest_mimic::run(&args, Vec::new()).exit_code();
    };
    let trials = every_case()
        .into_iter()
        .map(|case| match case.runs.skipped_in(engine) {
            // Ignored, and failing if run anyway (`--ignored`): never a pass it did not earn.
            Some(why) => {
                // Said once here, each test by name with why (scripts/test.sh gathers these
                // lines); the trial itself is marked "skipped".
                let said = format!("skipped in {}: {why}", engine.name());
                eprintln!("{said}: {}", case.name);
                let failed = Failed::from(format!("does not apply here ({said})"));
                Trial::test(case.name, move || Err(failed)).with_ignored_flag(true).with_kind("skipped")
            }
            None => Trial::test(case.name, move || run(case)),
        })
        .collect();
    libtest_mimic::run(&args, trials).exit_code()
}
