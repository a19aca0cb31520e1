//! Four lines that make a check: two pairs of opposite sides facing each other (light between
//! them), the pairs near perpendicular, scored by how much of each side really is paper against
//! something darker, by right angles and by a check's proportions.

use super::edges::{Edges, Line};
use super::Point;

/// A quadrilateral of four lines in turn (0 and 2 opposite, 1 and 3 opposite), its corners
/// (`corners[i]` where line `i` meets line `i + 1`) and its score.
#[derive(Debug, Clone, Copy)]
pub struct Quad {
    pub lines: [Line; 4],
    pub corners: [Point; 4],
    pub score: f32,
    /// Share of each side's samples that show paper inside, darker outside.
    pub support: [f32; 4],
    /// Median contrast across the sides (gray levels).
    pub contrast: f32,
}

/// The picture's four sides as lines facing inwards (for a check it cuts off).
pub fn borders(w: usize, h: usize) -> [Line; 4] {
    let l = |nx: f32, ny: f32, c: f32| Line { nx, ny, c, votes: 0.0, border: true };
    [l(1.0, 0.0, 0.0), l(0.0, 1.0, 0.0), l(-1.0, 0.0, -(w as f32)), l(0.0, -1.0, -(h as f32))]
}

/// Opposite sides: normals within 35° of anti-parallel (a tilt shortening one side by 15 %
/// turns them about 8°), facing each other at least `min_gap` apart.
fn opposite(a: &Line, b: &Line, min_gap: f32, centre: Point) -> bool {
    if a.nx * b.nx + a.ny * b.ny > -0.82 {
        return false;
    }
    // Each line's point nearest the picture's centre must be on the other's light side.
    let foot = |l: &Line| {
        let d = l.dist(centre[0], centre[1]);
        [centre[0] - l.nx * d, centre[1] - l.ny * d]
    };
    let (pa, pb) = (foot(a), foot(b));
    a.dist(pb[0], pb[1]) > min_gap && b.dist(pa[0], pa[1]) > min_gap
}

fn len(a: Point, b: Point) -> f32 {
    ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)).sqrt()
}

/// How a side looks: share of samples along it (the middle 84 %) with paper 3 or 6 px inside
/// lighter than the table 3, 6 and 12 px outside by at least 12 levels (a printed rule 1 or 2 px
/// wide has paper on both sides at those distances and does not count; a printed frame just
/// inside the edge darkens only one of the inner samples), and the median difference.
fn side_support(e: &Edges, l: &Line, a: Point, b: Point) -> (f32, f32) {
    let n = ((len(a, b) / 3.0) as usize).clamp(8, 80);
    let at = |x: f32, y: f32| -> Option<f32> {
        let (xi, yi) = (x.floor(), y.floor());
        if xi < 0.0 || yi < 0.0 || xi >= e.w as f32 || yi >= e.h as f32 {
            return None;
        }
        Some(e.smooth[yi as usize * e.w + xi as usize])
    };
    let mut diffs = Vec::with_capacity(n);
    let mut good = 0usize;
    for i in 0..n {
        let t = 0.08 + 0.84 * (i as f32 + 0.5) / n as f32;
        let (x, y) = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t);
        let inside = [3.0, 6.0].map(|d| at(x + l.nx * d, y + l.ny * d));
        let outside = [3.0, 6.0].map(|d| at(x - l.nx * d, y - l.ny * d));
        // Further out, where the picture still is: paper again means a printed frame or band
        // inside a scanned check, not the check's edge.
        let far = at(x - l.nx * 12.0, y - l.ny * 12.0).unwrap_or(0.0);
        let d = match (inside, outside) {
            ([Some(i1), Some(i2)], [Some(o1), Some(o2)]) => i1.max(i2) - o1.max(o2).max(far),
            _ => -255.0,
        };
        good += usize::from(d >= 12.0);
        diffs.push(d);
    }
    diffs.sort_by(f32::total_cmp);
    (good as f32 / n as f32, diffs[n / 2])
}

/// 1 for a check's proportions (2.0 to 3.0 long over short, perspective included), falling
/// off outside.
fn aspect_prior(r: f32) -> f32 {
    let off = if r < 2.0 {
        2.0 - r
    } else if r > 3.0 {
        r - 3.0
    } else {
        0.0
    };
    (-(off / 0.4).powi(2)).exp()
}

/// 1 while every corner is within 12° of square (a hand-held tilt gives up to about 8°).
fn angle_prior(c: &[Point; 4]) -> f32 {
    let mut p = 1.0;
    for i in 0..4 {
        let (a, o, b) = (c[(i + 3) % 4], c[i], c[(i + 1) % 4]);
        let (u, v) = ([a[0] - o[0], a[1] - o[1]], [b[0] - o[0], b[1] - o[1]]);
        let cos = (u[0] * v[0] + u[1] * v[1]) / (len(a, o) * len(b, o)).max(1e-6);
        let off = (cos.abs().min(1.0).asin().to_degrees() - 12.0).max(0.0);
        p *= (-(off / 10.0).powi(2)).exp();
    }
    p
}

/// The best quadrilateral among `lines` (plus the picture's borders, at most one of them), if
/// any; `min_side` is the shortest side allowed.
pub fn best(e: &Edges, lines: &[Line], min_side: f32) -> Option<Quad> {
    best_few(e, lines, min_side, 1).into_iter().next()
}

/// The `n` best quadrilaterals among `lines` (as [`best`]), best first, none sharing all four
/// lines' directions with a better one twice (the same quad a pixel off is not a second
/// candidate).
pub fn best_few(e: &Edges, lines: &[Line], min_side: f32, n: usize) -> Vec<Quad> {
    let mut all: Vec<Line> = lines.to_vec();
    all.extend(borders(e.w, e.h));
    let centre = [e.w as f32 / 2.0, e.h as f32 / 2.0];
    let pairs: Vec<(usize, usize)> = (0..all.len())
        .flat_map(|i| (i + 1..all.len()).map(move |j| (i, j)))
        .filter(|&(i, j)| !(all[i].border && all[j].border) && opposite(&all[i], &all[j], min_side, centre))
        .collect();
    let slack = 0.02 * e.w.max(e.h) as f32;
    let mut best: Vec<Quad> = Vec::new();
    for (pi, &(a, b)) in pairs.iter().enumerate() {
        for &(c, d) in &pairs[pi + 1..] {
            if [c, d].contains(&a) || [c, d].contains(&b) {
                continue;
            }
            if usize::from(all[a].border)
                + usize::from(all[b].border)
                + usize::from(all[c].border)
                + usize::from(all[d].border)
                > 1
            {
                continue;
            }
            let (la, lc) = (&all[a], &all[c]);
            if (la.nx * lc.nx + la.ny * lc.ny).abs() > 0.57 {
                continue; // not within 35° of perpendicular
            }
            if let Some(q) = evaluate(e, [all[a], all[c], all[b], all[d]], min_side, slack) {
                keep(&mut best, q, n, slack);
            }
        }
    }
    best
}

/// Keeps `q` among the `n` best of `kept` (best first); a quad whose corners are all within
/// `near` of a kept one's is the same check: only the better of the two stays.
fn keep(kept: &mut Vec<Quad>, q: Quad, n: usize, near: f32) {
    let same = |a: &Quad| a.corners.iter().zip(&q.corners).all(|(p, r)| len(*p, *r) <= near);
    if let Some(i) = kept.iter().position(same) {
        if kept[i].score >= q.score {
            return;
        }
        kept.remove(i);
    }
    let at = kept.partition_point(|k| k.score >= q.score);
    if at < n {
        kept.insert(at, q);
        kept.truncate(n);
    }
}

/// Scores four lines in turn as a check, `None` when they do not close a plausible quad.
pub fn evaluate(e: &Edges, lines: [Line; 4], min_side: f32, slack: f32) -> Option<Quad> {
    let mut corners = [[0f32; 2]; 4];
    for i in 0..4 {
        corners[i] = lines[i].cross(&lines[(i + 1) % 4])?;
        let [x, y] = corners[i];
        if x < -slack || y < -slack || x > e.w as f32 + slack || y > e.h as f32 + slack {
            return None;
        }
    }
    // Every corner on the light side of the lines it is not on: convex, facing inwards.
    for (i, l) in lines.iter().enumerate() {
        for k in [(i + 1) % 4, (i + 2) % 4] {
            if l.dist(corners[k][0], corners[k][1]) < min_side * 0.5 {
                return None;
            }
        }
    }
    let sides: [f32; 4] = std::array::from_fn(|i| len(corners[(i + 3) % 4], corners[i]));
    if sides.iter().any(|&s| s < min_side) {
        return None;
    }
    let (p02, p13) = ((sides[0] + sides[2]) / 2.0, (sides[1] + sides[3]) / 2.0);
    let ratio = p02.max(p13) / p02.min(p13);
    let shape = aspect_prior(ratio) * angle_prior(&corners);
    if shape < 0.05 {
        return None;
    }
    let mut support = [0f32; 4];
    let mut contrasts = Vec::new();
    for i in 0..4 {
        if lines[i].border {
            support[i] = 0.5;
            continue;
        }
        let (s, c) = side_support(e, &lines[i], corners[(i + 3) % 4], corners[i]);
        support[i] = s;
        contrasts.push(c);
    }
    contrasts.sort_by(f32::total_cmp);
    let contrast = contrasts[contrasts.len() / 2];
    let mean = support.iter().sum::<f32>() / 4.0;
    let min = support.iter().copied().fold(1.0, f32::min);
    let score = mean * min.sqrt() * shape;
    Some(Quad { lines, corners, score, support, contrast })
}
