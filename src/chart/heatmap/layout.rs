//! Where a heatmap's parts go, in CSS pixels: pure arithmetic, so it is tested natively and
//! the pointer → cell mapping for hover uses exactly the geometry that was drawn.

use crate::chart::label::max_label_em;

/// Largest and smallest cell width, CSS px: big enough to hit on a phone, small enough to fit.
const MAX_CELL: f64 = 40.0;
const MIN_CELL: f64 = 2.0;
/// Rows are at least this tall so each token label gets a line (cells may be taller than wide).
const MIN_ROW: f64 = 18.0;
/// Up to this many rows (columns), every row (column) label is drawn: the cells are at least
/// [`Sizing::labelled_cell`] px and the font shrinks to fit them, down to `MIN_FONT`. A wider
/// grid than the space scrolls sideways in its box rather than dropping a token's name.
const ALL_LABELS: usize = 32;
const MIN_FONT: f64 = 8.0;
/// The largest label font, CSS px, when cells may be larger than on a desk (a projector).
pub const PROJECTOR_FONT: f64 = 22.0;
/// Colour bar width and the room for its tick labels.
const LEGEND_BAR: f64 = 12.0;
const LEGEND_GAP: f64 = 14.0;
const PAD: f64 = 6.0;

/// How large cells may be, and the room the legend's numbers need.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sizing {
    /// The widest a cell may be, CSS px (larger on a projector).
    pub max_cell: f64,
    /// The narrowest cell of a grid whose every label is drawn: 12 px where a finger taps it,
    /// less on a projector, which shows a whole stage at once.
    pub labelled_cell: f64,
    /// A projector: rows of a wide matrix grow to `max_cell` (the screen height's share per
    /// row), and labels are as large as their cells allow, up to [`PROJECTOR_FONT`], to be
    /// read from the back of a room. Elsewhere rows are as tall as a label needs.
    pub projector: bool,
    /// The longest legend number, in characters ("-0.25", "1.2e-3"); 0: no legend.
    pub legend_chars: usize,
    /// The legend may be left out when the grid would not fit its width with it (maps side
    /// by side on one colour scale, where a neighbour's legend reads the same).
    pub spare_legend: bool,
}

impl Sizing {
    /// On a desk or a phone.
    pub const DESK: Self =
        Self { max_cell: MAX_CELL, labelled_cell: 12.0, legend_chars: 6, spare_legend: false, projector: false };
}

/// What a layout is asked to fit.
#[derive(Clone, Copy)]
struct Ask<'a> {
    avail_width: f64,
    sizing: Sizing,
    rows: usize,
    cols: usize,
    row_labels: &'a [String],
    col_labels: &'a [String],
}

/// Geometry of one drawn heatmap.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Layout {
    /// Whole canvas, CSS px.
    pub width: f64,
    pub height: f64,
    /// Top-left corner of the cell grid.
    pub grid_x: f64,
    pub grid_y: f64,
    /// Width and height of one cell (taller than wide when a wide matrix needs row labels).
    pub cell_w: f64,
    pub cell_h: f64,
    pub rows: usize,
    pub cols: usize,
    /// Label font size.
    pub font_px: f64,
    /// Draw every k-th row label and column label (1 = all) so labels never overlap.
    pub row_label_every: usize,
    pub col_label_every: usize,
    /// Column labels are short enough (one CJK character, two Latin ones) to stand upright.
    pub upright_cols: bool,
    /// Left edge of the colour bar.
    pub legend_x: f64,
    pub legend_bar: f64,
}

impl Layout {
    /// Fit a rows × cols grid with its labels and legend into `avail_width`.
    /// `row_labels`/`col_labels` are the label texts (their widths set the margins).
    pub fn fit(avail_width: f64, rows: usize, cols: usize, row_labels: &[String], col_labels: &[String]) -> Self {
        Self::fit_with(avail_width, Sizing::DESK, rows, cols, row_labels, col_labels)
    }

    /// [`Layout::fit`] with cells and legend sized by `sizing`.
    pub fn fit_with(
        avail_width: f64,
        sizing: Sizing,
        rows: usize,
        cols: usize,
        row_labels: &[String],
        col_labels: &[String],
    ) -> Self {
        let ask = Ask { avail_width, sizing, rows, cols, row_labels, col_labels };
        let largest_font = if sizing.max_cell > MAX_CELL || sizing.projector { PROJECTOR_FONT } else { 14.0 };
        let first = Self::fit_font(&ask, largest_font);
        if first.font_px >= largest_font {
            return first;
        }
        // The margins were sized for the largest font: sized again for the font chosen, the
        // cells get the room those margins did not need.
        let second = Self::fit_font(&ask, first.font_px);
        let mut best = if second.width <= first.width.max(avail_width) { second } else { first };
        // Still too wide: smaller labels leave the cells more room.
        while best.width > avail_width && best.font_px > MIN_FONT {
            let smaller = Self::fit_font(&ask, best.font_px - 1.0);
            if smaller.width >= best.width {
                break;
            }
            best = smaller;
        }
        if best.width > avail_width && sizing.spare_legend && sizing.legend_chars > 0 {
            let bare = Sizing { legend_chars: 0, ..sizing };
            return Self::fit_with(avail_width, bare, rows, cols, row_labels, col_labels);
        }
        best
    }

    /// One fit with labels no larger than `largest_font` (the margins are sized for it, so
    /// nothing is clipped).
    fn fit_font(ask: &Ask, largest_font: f64) -> Self {
        let Ask { avail_width, sizing, rows, cols, row_labels, col_labels } = *ask;
        let Sizing { max_cell, labelled_cell, legend_chars, .. } = sizing;
        let (rows, cols) = (rows.max(1), cols.max(1));
        let guess_font = largest_font;
        let left = max_label_em(row_labels) * guess_font + PAD * 2.0;
        let legend_text = legend_chars as f64 * 0.6;
        let legend_bar = if legend_chars > 0 { LEGEND_BAR } else { 0.0 };
        let legend_room =
            if legend_chars > 0 { LEGEND_GAP + LEGEND_BAR + 6.0 + legend_text * guess_font + PAD } else { 0.0 };
        let upright_cols = max_label_em(col_labels) <= 1.25;
        // An upright column label is as wide as its text, a rotated one as tall as a line.
        let col_label_w = if upright_cols { max_label_em(col_labels) + 0.2 } else { 1.15 };
        // Room for every column label at the smallest font, when every one is drawn.
        let min_w = if cols <= ALL_LABELS { labelled_cell.max((MIN_FONT * col_label_w).ceil()) } else { MIN_CELL };
        let cell_w = ((avail_width - left - legend_room - PAD) / cols as f64).clamp(min_w, max_cell.max(min_w)).floor();
        // A row is tall enough for its label, unless a projector's layout asks for less.
        let row = if sizing.projector { max_cell } else { MIN_ROW.min(max_cell) };
        let cell_h = if cols > rows && rows <= 64 { cell_w.max(row) } else { cell_w };
        let cell_h = if rows <= ALL_LABELS { cell_h.max(labelled_cell) } else { cell_h };
        let fill = if sizing.projector { 0.8 } else { 0.6 };
        let mut font_px = (cell_h * fill).clamp(10.0_f64.min(largest_font), largest_font).round();
        if rows <= ALL_LABELS {
            font_px = font_px.min(cell_h / 1.15);
        }
        if cols <= ALL_LABELS {
            font_px = font_px.min(cell_w / col_label_w);
        }
        let font_px = font_px.max(MIN_FONT).floor();
        let every = |side: f64, em: f64| ((font_px * em) / side).ceil().max(1.0) as usize;
        let left = max_label_em(row_labels) * font_px + PAD * 2.0;
        let bottom = if upright_cols { font_px * 1.4 } else { max_label_em(col_labels) * font_px } + PAD * 2.0;
        let grid_w = cell_w * cols as f64;
        let grid_h = cell_h * rows as f64;
        let legend_x = left + grid_w + LEGEND_GAP;
        let width = if legend_chars > 0 {
            legend_x + LEGEND_BAR + 6.0 + legend_text * font_px + PAD
        } else {
            left + grid_w + PAD
        };
        // The colour bar needs some height even for a single row.
        // Room above the grid for half a legend label (the top tick is centred on the edge).
        let top = PAD.max(font_px * 0.7);
        let height = top + grid_h.max(80.0) + bottom;
        Self {
            width: width.ceil(),
            height: height.ceil(),
            grid_x: left,
            grid_y: top,
            cell_w,
            cell_h,
            rows,
            cols,
            font_px,
            row_label_every: every(cell_h, 1.15),
            col_label_every: every(cell_w, col_label_w),
            upright_cols,
            legend_x,
            legend_bar,
        }
    }

    /// The (row, col) under CSS-pixel point (x, y) of the canvas, if any.
    pub fn cell_at(&self, x: f64, y: f64) -> Option<(usize, usize)> {
        let (cx, cy) = ((x - self.grid_x) / self.cell_w, (y - self.grid_y) / self.cell_h);
        if cx < 0.0 || cy < 0.0 {
            return None;
        }
        let (r, c) = (cy as usize, cx as usize);
        (r < self.rows && c < self.cols).then_some((r, c))
    }

    /// Height of the cell grid (the colour bar is drawn at least 80 px tall).
    pub fn legend_height(&self) -> f64 {
        (self.cell_h * self.rows as f64).max(80.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("tok{i}")).collect()
    }

    #[test]
    fn fits_the_width_and_maps_points_back_to_cells() {
        let l = Layout::fit(600.0, 11, 11, &labels(11), &labels(11));
        assert!(l.width <= 600.0, "width {}", l.width);
        assert!(l.cell_w >= 20.0 && l.cell_h == l.cell_w, "a square matrix gets square cells");
        let centre =
            |r: usize, c: usize| (l.grid_x + (c as f64 + 0.5) * l.cell_w, l.grid_y + (r as f64 + 0.5) * l.cell_h);
        let (x, y) = centre(3, 7);
        assert_eq!(l.cell_at(x, y), Some((3, 7)));
        assert_eq!(l.cell_at(l.grid_x - 1.0, y), None);
        assert_eq!(l.cell_at(x, l.grid_y + l.cell_h * 11.0 + 1.0), None);
    }

    #[test]
    fn wide_matrices_keep_a_line_per_row_label() {
        let l = Layout::fit(700.0, 11, 64, &labels(11), &labels(64));
        assert!(l.cell_h >= 18.0 && l.cell_w < l.cell_h, "cell {} × {}", l.cell_w, l.cell_h);
        assert_eq!(l.row_label_every, 1);
        assert!(l.col_label_every > 1);
    }

    #[test]
    fn dense_grids_thin_out_their_labels() {
        let l = Layout::fit(390.0, 64, 64, &labels(64), &labels(64));
        assert!(l.cell_w >= MIN_CELL && l.col_label_every > 1, "cell {} every {}", l.cell_w, l.col_label_every);
        assert_eq!((l.cell_w, l.row_label_every), (l.cell_h, l.col_label_every), "square grids keep square cells");
    }

    #[test]
    fn projector_layouts_fit_their_width_with_the_larger_font() {
        let l = Layout::fit_with(560.0, Sizing { max_cell: 64.0, ..Sizing::DESK }, 11, 11, &labels(11), &labels(11));
        assert!(l.width <= 560.0, "width {} for 560 available", l.width);
        assert!(l.grid_y >= l.font_px / 2.0, "the top legend label needs room");
    }

    /// Up to 32 tokens every label is drawn, at a legible size, even on a phone; numbered
    /// columns (d_model wide) thin out with room between them ("10 15 20", never "101520").
    #[test]
    fn every_token_label_up_to_32_is_drawn_and_numbers_never_touch() {
        for n in [11, 20, 32] {
            for width in [300.0, 390.0, 600.0] {
                let l = Layout::fit(width, n, n, &labels(n), &labels(n));
                assert_eq!((l.row_label_every, l.col_label_every), (1, 1), "{n} tokens at {width} px");
                assert!(l.font_px >= MIN_FONT && l.cell_h >= l.font_px * 1.15, "{n} at {width}: {l:?}");
            }
        }
        let numbers: Vec<String> = (1..=16).map(|i| i.to_string()).collect();
        for width in [300.0, 390.0] {
            let l = Layout::fit(width, 16, 16, &numbers, &numbers);
            assert_eq!((l.row_label_every, l.col_label_every), (1, 1), "numbered labels at {width} px: {l:?}");
        }
        let zh: Vec<String> = "小猫没有过马路因为它太累了它想睡觉小猫没有过马路".chars().map(String::from).collect();
        let l = Layout::fit(360.0, zh.len(), zh.len(), &zh, &zh);
        assert_eq!((l.row_label_every, l.col_label_every), (1, 1));
        let numbers: Vec<String> = (1..=64).map(|i| i.to_string()).collect();
        let l = Layout::fit(420.0, 11, 64, &labels(11), &numbers);
        let gap = l.col_label_every as f64 * l.cell_w;
        assert!(gap >= 2.3 * 0.6 * l.font_px, "two-digit labels {gap} px apart at font {}", l.font_px);
    }

    #[test]
    fn on_a_projector_the_rows_of_a_wide_matrix_take_the_height_they_are_given() {
        let projector = Sizing { max_cell: 45.0, projector: true, ..Sizing::DESK };
        let l = Layout::fit_with(600.0, projector, 11, 64, &labels(11), &labels(64));
        assert_eq!(l.cell_h, 45.0);
        assert!(l.cell_w < 10.0 && l.width <= 600.0, "{l:?}");
        assert_eq!(l.font_px, PROJECTOR_FONT, "row labels readable from the back of a room");
        let desk = Layout::fit_with(600.0, Sizing::DESK, 11, 64, &labels(11), &labels(64));
        assert!(desk.cell_h <= MIN_ROW, "{desk:?}");
    }

    #[test]
    fn a_spare_legend_is_left_out_only_when_the_grid_would_not_fit_with_it() {
        let sizing = Sizing { labelled_cell: 8.0, spare_legend: true, ..Sizing::DESK };
        let wide = Layout::fit_with(400.0, sizing, 20, 20, &labels(20), &labels(20));
        assert!(wide.legend_bar > 0.0 && wide.width <= 400.0);
        let narrow = Layout::fit_with(250.0, sizing, 20, 20, &labels(20), &labels(20));
        assert_eq!(narrow.legend_bar, 0.0);
        assert!(narrow.width <= 250.0, "{narrow:?}");
        let kept = Layout::fit_with(250.0, Sizing { spare_legend: false, ..sizing }, 20, 20, &labels(20), &labels(20));
        assert!(kept.legend_bar > 0.0 && kept.width > 250.0);
    }

    #[test]
    fn single_characters_stand_upright() {
        let zh: Vec<String> = "小猫累了".chars().map(String::from).collect();
        assert!(Layout::fit(600.0, 4, 4, &zh, &zh).upright_cols);
        assert!(!Layout::fit(600.0, 4, 4, &labels(4), &labels(4)).upright_cols);
    }
}
