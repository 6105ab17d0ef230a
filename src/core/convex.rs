//! Outputs as convex combinations: project a head's value vectors onto their two principal
//! directions, find the convex hull of the projected points, and place the output of a
//! weight row among them. Projection is linear and the weights sum to 1, so the projected
//! output is the same weighted average of the projected values, and it lies in their hull.

use ndarray::{Array1, Array2, ArrayView1, Axis};

/// A point of the picture.
pub type Point = (f64, f64);

/// The plane through the mean of some vectors spanned by their first two principal
/// directions (power iteration from a fixed start, so the picture is stable).
#[derive(Debug, Clone, PartialEq)]
pub struct Plane {
    mean: Array1<f64>,
    first: Array1<f64>,
    second: Array1<f64>,
}

impl Plane {
    /// The plane of the rows of `v` (n, d); `None` without rows or columns.
    pub fn fit(v: &Array2<f32>) -> Option<Self> {
        let v = v.mapv(f64::from);
        let d = v.ncols();
        let mean = v.mean_axis(Axis(0)).filter(|_| d > 0)?;
        let centred = &v - &mean;
        let cov = centred.t().dot(&centred);
        let first = top_direction(&cov, None);
        let second = if d > 1 { top_direction(&cov, Some(&first)) } else { Array1::zeros(d) };
        Some(Self { mean, first, second })
    }

    /// Where `x` (d) lands in the plane.
    pub fn project(&self, x: ArrayView1<f32>) -> Point {
        let c = x.mapv(f64::from) - &self.mean;
        (c.dot(&self.first), c.dot(&self.second))
    }

    /// Every row of `v` projected.
    pub fn project_rows(&self, v: &Array2<f32>) -> Vec<Point> {
        v.rows().into_iter().map(|r| self.project(r)).collect()
    }
}

/// The leading eigenvector of the symmetric `m`, orthogonal to `away` if given.
fn top_direction(m: &Array2<f64>, away: Option<&Array1<f64>>) -> Array1<f64> {
    let d = m.nrows();
    // A start that is not orthogonal to any particular axis.
    let mut x = Array1::from_shape_fn(d, |i| 1.0 + (i as f64 * 0.618_033_988_7).fract());
    for _ in 0..200 {
        if let Some(a) = away {
            x = &x - &(a * x.dot(a));
        }
        let y = m.dot(&x);
        let norm = y.dot(&y).sqrt();
        if norm < 1e-12 {
            break;
        }
        x = y / norm;
    }
    if let Some(a) = away {
        x = &x - &(a * x.dot(a));
    }
    let norm = x.dot(&x).sqrt();
    if norm > 0.0 {
        x / norm
    } else {
        x
    }
}

/// Indices of the convex hull of `points`, counter-clockwise (Andrew's monotone chain).
pub fn hull(points: &[Point]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..points.len()).collect();
    order.sort_by(|&a, &b| points[a].partial_cmp(&points[b]).unwrap_or(std::cmp::Ordering::Equal));
    order.dedup_by(|a, b| points[*a] == points[*b]);
    if order.len() < 3 {
        return order;
    }
    let cross = |o: Point, a: Point, b: Point| (a.0 - o.0) * (b.1 - o.1) - (a.1 - o.1) * (b.0 - o.0);
    let mut chain: Vec<usize> = Vec::with_capacity(2 * order.len());
    for pass in [order.clone(), order.iter().rev().copied().collect()] {
        let start = chain.len();
        for i in pass {
            while chain.len() >= start + 2
                && cross(points[chain[chain.len() - 2]], points[chain[chain.len() - 1]], points[i]) <= 0.0
            {
                chain.pop();
            }
            chain.push(i);
        }
        chain.pop();
    }
    chain
}

/// Σ_j w_j · p_j: where a weight row puts the output among the points.
pub fn combine(weights: ArrayView1<f32>, points: &[Point]) -> Point {
    weights.iter().zip(points).fold((0.0, 0.0), |(x, y), (w, p)| (x + f64::from(*w) * p.0, y + f64::from(*w) * p.1))
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
        let pts = [(0.0, 0.0), (1.0, 0.0), (0.5, 0.5), (1.0, 1.0), (0.0, 1.0)];
        let mut h = hull(&pts);
        h.sort_unstable();
        assert_eq!(h, [0, 1, 3, 4]);
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
