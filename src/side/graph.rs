//! Attention as a graph: tokens as nodes on a circle, the chosen query's weights as edges
//! (thickness = weight), the weights as the adjacency matrix beside it, and A·V as the node
//! gathering its neighbours' values.

use crate::core::attention::Mask;
use crate::core::order::largest_first;
use crate::i18n::{fill, ViewMsg};
use crate::number::{show, Room};
use crate::side::handover::{pick_query, use_handed};
use crate::ui::charts::PageMap;
use crate::ui::specs::weights;
use crate::ui::use_lesson_state;
use crate::ui::HeadPicker;
use leptos::prelude::*;

/// The SVG's coordinate box and the circle the nodes sit on.
const SIZE: f64 = 600.0;
const RADIUS: f64 = 230.0;

/// Node i of n on the circle, starting at the top, clockwise.
fn node_xy(i: usize, n: usize, r: f64) -> (f64, f64) {
    let angle = std::f64::consts::TAU * i as f64 / n.max(1) as f64 - std::f64::consts::FRAC_PI_2;
    (SIZE / 2.0 + r * angle.cos(), SIZE / 2.0 + r * angle.sin())
}

/// What the picture is drawn from: one head of the shared trace.
#[derive(Debug, Clone, PartialEq)]
struct Graph {
    tokens: Vec<String>,
    kv_tokens: Vec<String>,
    /// (n_q, n_kv).
    weights: ndarray::Array2<f32>,
    blocked: ndarray::Array2<bool>,
    /// Keys and values from a second sentence: they get an inner circle of their own.
    cross: bool,
    /// What kind of graph the trace makes: complete, a DAG under the causal mask, bipartite.
    shape: ViewMsg,
}

/// The sentence that names the graph's kind, from what produced the trace.
fn graph_shape(cross: bool, mask: Mask) -> ViewMsg {
    match (cross, mask) {
        (true, _) => ViewMsg::GraphBipartite,
        (false, Mask::Causal) => ViewMsg::GraphCausal,
        (false, Mask::None) => ViewMsg::GraphComplete,
    }
}

/// The graph, the adjacency matrix and the messages of the chosen node.
#[component]
pub fn GraphView() -> impl IntoView {
    let page = use_lesson_state();
    let handed = use_handed();
    let head = handed.head;
    // The chosen head of the current trace, and what it was computed as.
    let data = Memo::new(move |_| {
        page.outcome.with(|o| {
            let o = &o.as_ref()?.0;
            let weights = o.trace().head(head.get())?.weights.clone();
            Some(Graph {
                tokens: o.tokens.clone(),
                kv_tokens: o.kv_tokens.clone(),
                weights,
                blocked: o.trace().blocked.clone(),
                cross: o.trace().is_cross(),
                shape: graph_shape(o.trace().is_cross(), o.trace().mask),
            })
        })
    });
    // The page's query, within the handed-over trace.
    let query = Memo::new(move |_| {
        let n = data.with(|d| d.as_ref().map_or(0, |d| d.tokens.len()));
        handed.query.get().min(n.saturating_sub(1))
    });
    let select = move |i: usize| pick_query(i);

    let adjacency = Memo::new(move |_| {
        data.with(|d| d.as_ref().map(|g| weights(g.weights.clone(), &g.tokens, &g.kv_tokens, &g.blocked)))
    });
    let pick = Callback::new(move |(r, _): (usize, usize)| select(r));
    // The chosen node's incoming messages, largest weight first.
    let messages = Memo::new(move |_| {
        data.with(|d| {
            let Some(g) = d else { return vec![] };
            let row = g.weights.row(query.get()).to_vec();
            largest_first(&row)
                .into_iter()
                .take(5)
                .filter_map(|j| Some((g.kv_tokens.get(j)?.clone(), row[j])))
                .collect()
        })
    });

    view! {
        // The page's place for the view gives it its section and title (`HostedView`).
        <div class="view__hosted">
            <p class="view__text">{page.text(ViewMsg::GraphIntro)} " "
                <span data-testid="graph-shape">{move || data.with(|d| d.as_ref().map(|g| page.t(g.shape)))}</span>
            </p>
            <HeadPicker />
            <p class="stage__note">{page.text(ViewMsg::GraphEdges)}</p>
            <div class="stage__grid">
                <svg class="graph" viewBox=format!("0 0 {SIZE} {SIZE}") role="group" data-testid="graph-svg"
                    aria-label=page.text(ViewMsg::GraphPicture)>
                    {move || data.with(|d| {
                        let Some(Graph { tokens, kv_tokens, weights: a, cross, .. }) = d else { return ().into_any() };
                        let (q, cross) = (query.get(), *cross);
                        let (nq, nk) = (tokens.len(), kv_tokens.len());
                        // In cross-attention the keys sit on an inner circle of their own.
                        let key_xy = move |j: usize| if cross { node_xy(j, nk, RADIUS * 0.55) } else { node_xy(j, nq, RADIUS) };
                        let (qx, qy) = node_xy(q, nq, RADIUS);
                        let dot = (16.0 - nq.max(nk) as f64 / 6.0).max(5.0);
                        let edges = (0..nk).map(|j| {
                            let w = a[[q, j]] as f64;
                            let (kx, ky) = key_xy(j);
                            view! {
                                <line class="graph__edge" x1=kx y1=ky x2=qx y2=qy
                                    stroke-width=format!("{:.2}", 0.5 + 14.0 * w) stroke-opacity=format!("{:.2}", 0.15 + 0.85 * w)
                                    data-weight=format!("{w:.4}") />
                            }
                        }).collect_view();
                        let key_nodes = cross.then(|| kv_tokens.iter().enumerate().map(|(j, t)| {
                            let (x, y) = key_xy(j);
                            view! {
                                <circle class="graph__node graph__node--key" cx=x cy=y r=dot />
                                <text class="graph__label" x=x y=y - dot - 4.0 text-anchor="middle">{t.clone()}</text>
                            }
                        }).collect_view());
                        let query_nodes = tokens.iter().enumerate().map(|(i, t)| {
                            let (x, y) = node_xy(i, nq, RADIUS);
                            let (lx, ly) = node_xy(i, nq, RADIUS + dot + 22.0);
                            view! {
                                <g class="graph__hit" tabindex="0" role="button" data-testid=format!("graph-node-{}", i + 1)
                                    aria-pressed=(i == q).to_string()
                                    on:click=move |_| select(i)
                                    on:keydown=move |ev: web_sys::KeyboardEvent| { if ev.key() == "Enter" || ev.key() == " " { ev.prevent_default(); select(i) } }>
                                    <circle class="graph__node" class:graph__node--chosen=i == q cx=x cy=y r=dot />
                                    <text class="graph__label" x=lx y=ly + 6.0 text-anchor="middle">{t.clone()}</text>
                                </g>
                            }
                        }).collect_view();
                        // The weight a token gives itself: a ring around it (self-attention only).
                        let own = (!cross).then(|| {
                            let w = a[[q, q]] as f64;
                            view! { <circle class="graph__self" cx=qx cy=qy r=dot + 6.0 stroke-width=format!("{:.2}", 0.5 + 14.0 * w) data-weight=format!("{w:.4}") /> }
                        });
                        view! { {edges} {own} {key_nodes} {query_nodes} }.into_any()
                    })}
                </svg>
                <div>
                    <PageMap spec=adjacency name=page.label(ViewMsg::GraphAdjacency) testid="heatmap-adjacency" on_pick=pick />
                    <p class="graph__gathers">
                        {move || data.with(|d| d.as_ref().and_then(|g| g.tokens.get(query.get())).map(|t| fill(page.t(ViewMsg::GraphGathers), &[("tok", t)])))}
                    </p>
                    <ol class="graph__messages" data-testid="graph-messages">
                        {move || messages.get().into_iter().map(|(t, w)| view! {
                            <li>{format!("{} × v[{t}]", show(w, Room::Reading))}</li>
                        }).collect_view()}
                    </ol>
                </div>
            </div>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_go_round_the_circle_from_the_top() {
        let (x, y) = node_xy(0, 4, 100.0);
        assert!((x - 300.0).abs() < 1e-9 && (y - 200.0).abs() < 1e-9);
        let (x, y) = node_xy(1, 4, 100.0);
        assert!((x - 400.0).abs() < 1e-9 && (y - 300.0).abs() < 1e-9);
    }

    #[test]
    fn the_graph_is_complete_only_for_unmasked_self_attention() {
        assert_eq!(graph_shape(false, Mask::None), ViewMsg::GraphComplete);
        assert_eq!(graph_shape(false, Mask::Causal), ViewMsg::GraphCausal);
        assert_eq!(graph_shape(true, Mask::None), ViewMsg::GraphBipartite);
    }
}
