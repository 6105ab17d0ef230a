//! Outputs as convex combinations: project a head's value vectors onto their two principal
//! directions, find the convex hull of the projected points, and place the output of a
//! weight row among them. Projection is linear and the weights sum to 1, so the projected
//! output is the same weighted average of the projected values, and it lies in their hull.

use ndarray::{Array2, ArrayView1};

/// A point of the picture.
pub type Point = (f64, f64);

/// The plane through the mean of some vectors spanned by their first two principal
/// directions (power iteration from a fixed start, so the picture is stable). Plain `f64`
/// loops: ndarray's `f64` arithmetic would be a second copy of its code in the .wasm.
#[derive(Debug, Clone, PartialEq)]
pub struct Plane {
    mean: Vec<f64>,
    first: Vec<f64>,
    second: Vec<f64>,
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

impl Plane {
    /// The plane of the rows of `v` (n, d); `None` without rows or columns.
    pub fn fit(v: &Array2<f32>) -> Option<Self> {
        let (n, d) = v.dim();
        if n == 0 || d == 0 {
            return None;
        }
        let mut mean = vec![0.0; d];
        for row in v.rows() {
            mean.iter_mut().zip(row).for_each(|(m, x)| *m += f64::from(*x) / n as f64);
        }
        // The covariance Σ (x − mean)(x − mean)ᵀ, d × d, row-major.
        let mut cov = vec![0.0; d * d];
        for row in v.rows() {
            let c: Vec<f64> = row.iter().zip(&mean).map(|(x, m)| f64::from(*x) - m).collect();
            for (a, ca) in c.iter().enumerate() {
                cov[a * d..(a + 1) * d].iter_mut().zip(&c).for_each(|(s, cb)| *s += ca * cb);
            }
        }
        let first = top_direction(&cov, d, None);
        let second = if d > 1 { top_direction(&cov, d, Some(&first)) } else { vec![0.0; d] };
        Some(Self { mean, first, second })
    }

    /// Where `x` (d) lands in the plane.
    pub fn project(&self, x: ArrayView1<f32>) -> Point {
        let c: Vec<f64> = x.iter().zip(&self.mean).map(|(x, m)| f64::from(*x) - m).collect();
        (dot(&c, &self.first), dot(&c, &self.second))
    }

    /// Every row of `v` projected.
    pub fn project_rows(&self, v: &Array2<f32>) -> Vec<Point> {
        v.rows().into_iter().map(|r| self.project(r)).collect()
    }
}

/// The leading eigenvector of the symmetric d × d `m` (row-major), orthogonal to `away` if
/// given, of unit length. If `m` is zero in every allowed direction (all values equal), any
/// unit vector orthogonal to `away` will do, and the start vector is returned; zero only if
/// nothing orthogonal to `away` is left.
fn top_direction(m: &[f64], d: usize, away: Option<&[f64]>) -> Vec<f64> {
    let remove_away = |x: &mut Vec<f64>| {
        if let Some(a) = away {
            let k = dot(x, a);
            x.iter_mut().zip(a).for_each(|(xi, ai)| *xi -= k * ai);
        }
    };
    let normalise = |x: &mut Vec<f64>| {
        let norm = dot(x, x).sqrt();
        if norm > 1e-12 {
            x.iter_mut().for_each(|xi| *xi /= norm);
        }
        norm > 1e-12
    };
    // A start that is not orthogonal to any particular axis.
    let mut x: Vec<f64> = (0..d).map(|i| 1.0 + (i as f64 * 0.618_033_988_7).fract()).collect();
    for _ in 0..200 {
        remove_away(&mut x);
        let mut y: Vec<f64> = m.chunks_exact(d).map(|row| dot(row, &x)).collect();
        if !normalise(&mut y) {
            break;
        }
        x = y;
    }
    remove_away(&mut x);
    if !normalise(&mut x) {
        x.iter_mut().for_each(|xi| *xi = 0.0);
    }
    x
}

/// Indices of the convex hull of `points`, counter-clockwise from the lowest-leftmost point
/// (gift wrapping: a few dozen points need no sort). Points on an edge are left out.
pub fn hull(points: &[Point]) -> Vec<usize> {
    let n = points.len();
    let Some(start) = (0..n).min_by(|&a, &b| {
        let (p, q) = (points[a], points[b]);
        p.0.total_cmp(&q.0).then(p.1.total_cmp(&q.1))
    }) else {
        return vec![];
    };
    let cross = |o: Point, a: Point, b: Point| (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0);
    let dist2 = |a: Point, b: Point| (a.0 - b.0).powi(2) + (a.1 - b.1).powi(2);
    let mut hull = vec![start];
    let mut current = start;
    // At most n steps; each picks the point with every other point to its left.
    for _ in 0..n {
        let o = points[current];
        let mut next = if current == 0 { 1 % n } else { 0 };
        for candidate in 0..n {
            if candidate == current || points[candidate] == o {
                continue;
            }
            let turn = cross(o, points[next], points[candidate]);
            // Clockwise of `next`, or on its line and farther: a better next corner.
            if points[next] == o || turn < 0.0 || (turn == 0.0 && dist2(o, points[candidate]) > dist2(o, points[next]))
            {
                next = candidate;
            }
        }
        if next == start || points[next] == o {
            break;
        }
        hull.push(next);
        current = next;
    }
    hull
}

/// Σ_j w_j · p_j / Σ_j w_j: where a weight row puts the output among the points (dividing by
/// the sum, 1 up to rounding, keeps an output on an edge exactly on it). A row of zeros (every
/// key masked) stays at the origin, the values' mean.
pub fn combine(weights: ArrayView1<f32>, points: &[Point]) -> Point {
    let total: f64 = weights.iter().map(|w| f64::from(*w)).sum();
    let (x, y) = weights
        .iter()
        .zip(points)
        .fold((0.0, 0.0), |(x, y), (w, p)| (x + f64::from(*w) * p.0, y + f64::from(*w) * p.1));
    if total > 0.0 {
        (x / total, y / total)
    } else {
        (0.0, 0.0)
    }
}

/// Whether `p` lies in the convex polygon `polygon` (counter-clockwise), allowing `tol`.
pub fn inside(polygon: &[Point], p: Point, tol: f64) -> bool {
    if polygon.len() < 3 {
        return true;
    }
    polygon
        .iter()
        .zip(polygon.iter().cycle().skip(1))
        .all(|(a, b)| (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0) >= -tol)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::normal_matrix;
    use crate::softmax::softmax_rows;
    use ndarray::arr2;

    #[test]
    fn the_hull_of_a_square_with_a_middle_point_is_its_corners() {
        let pts = [(0.0, 0.0), (1.0, 0.0), (0.5, 0.5), (1.0, 1.0), (0.0, 1.0), (0.5, 0.0), (1.0, 1.0)];
        assert_eq!(hull(&pts), [0, 1, 3, 4], "counter-clockwise; the edge point and the duplicate left out");
        assert_eq!(hull(&[(2.0, 3.0)]), [0]);
        assert!(hull(&[]).is_empty());
    }

    #[test]
    fn the_first_direction_is_the_widest() {
        let v = arr2(&[[10.0f32, 0.0, 0.1], [-10.0, 0.0, -0.1], [0.0, 1.0, 0.0], [0.0, -1.0, 0.0]]);
        let p = Plane::fit(&v).unwrap().project_rows(&v);
        assert!((p[0].0.abs() - 10.0).abs() < 0.01 && p[2].0.abs() < 0.01, "{p:?}");
        assert!((p[2].1.abs() - 1.0).abs() < 0.01, "{p:?}");
    }

    /// The weighted average of the projected values is the projection of A·V, and it sits
    /// in their hull, for every row and temperature.
    #[test]
    fn outputs_project_into_the_hull_of_the_values() {
        let v = normal_matrix(9, 16, 3, 1);
        let plane = Plane::fit(&v).unwrap();
        let pts = plane.project_rows(&v);
        let polygon: Vec<Point> = hull(&pts).into_iter().map(|i| pts[i]).collect();
        let scores = normal_matrix(9, 9, 3, 2);
        for t in [0.1, 1.0, 10.0] {
            let a = softmax_rows(&scores, &Array2::from_elem((9, 9), false), t);
            let out = a.dot(&v);
            for i in 0..9 {
                let p = combine(a.row(i), &pts);
                let q = plane.project(out.row(i));
                assert!((p.0 - q.0).abs() < 1e-4 && (p.1 - q.1).abs() < 1e-4, "row {i}, T {t}: {p:?} vs {q:?}");
                assert!(inside(&polygon, p, 1e-6), "row {i}, T {t}");
            }
        }
    }
}
