//! Edges of the working picture and the straight lines they lie on.
//!
//! The picture is smoothed (a 5-tap binomial, σ ≈ 1 px, enough against sensor noise and JPEG
//! blocks at this scale), differentiated (Sobel), thinned to ridge points (non-maximum
//! suppression along the gradient, with a sub-pixel offset from the parabola through the three
//! magnitudes) and each point votes in a Hough table of signed normals: the angle is the
//! gradient's (dark towards light), so the two long sides of a light check are two separate
//! peaks 180° apart, and a point votes only within ±6° of its own gradient direction (a fifth of
//! the work of voting every angle, and far fewer spurious peaks on a textured table).
//!
//! Only points with paper on one side and something darker on the other, a few pixels away,
//! vote, weighted by that step, and no more than 4 lines of one direction are kept. Each of the
//! three was needed on the tests' striped tables (400 live frames): without them the check was
//! missed in 96, with the step test alone in 20, weighted in 1, with the cap in none.

use std::f32::consts::PI;

/// One degree a bin.
pub const ANGLES: usize = 360;
/// Votes spread ±6 bins around a point's own gradient angle: along a check's edge on a grainy
/// table the gradient turns by up to ±6° (measured), the grain's own gradient adding to the
/// edge's.
const SPREAD: isize = 6;

/// The smoothed working picture with its gradient and edge points.
pub struct Edges {
    pub w: usize,
    pub h: usize,
    /// Smoothed gray levels.
    pub smooth: Vec<f32>,
    /// Ridge points: position (sub-pixel, pixel centres at i + 0.5), unit gradient, magnitude.
    pub points: Vec<EdgePoint>,
}

/// A ridge point of the gradient: where, which way light lies (unit vector), how strong.
#[derive(Debug, Clone, Copy)]
pub struct EdgePoint {
    pub x: f32,
    pub y: f32,
    pub nx: f32,
    pub ny: f32,
    pub mag: f32,
    /// Gray levels between the light side and the dark side, 3 to 6 px away.
    pub step: f32,
}

/// A line `nx·x + ny·y = c`, light on the side where `nx·x + ny·y > c`; `votes` from the table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Line {
    pub nx: f32,
    pub ny: f32,
    pub c: f32,
    pub votes: f32,
    /// One of the picture's own sides, standing in for a side of the check it cuts off.
    pub border: bool,
}

impl Line {
    /// Signed distance of `(x, y)`, positive on the light side.
    pub fn dist(&self, x: f32, y: f32) -> f32 {
        self.nx * x + self.ny * y - self.c
    }

    /// Where two lines cross, unless they are near parallel.
    pub fn cross(&self, o: &Line) -> Option<[f32; 2]> {
        let det = self.nx * o.ny - self.ny * o.nx;
        if det.abs() < 1e-3 {
            return None;
        }
        Some([(self.c * o.ny - self.ny * o.c) / det, (self.nx * o.c - self.c * o.nx) / det])
    }
}

fn binomial(src: &[f32], w: usize, h: usize) -> Vec<f32> {
    const K: [f32; 5] = [1.0 / 16.0, 4.0 / 16.0, 6.0 / 16.0, 4.0 / 16.0, 1.0 / 16.0];
    let mut a = vec![0f32; w * h];
    for y in 0..h {
        let row = &src[y * w..(y + 1) * w];
        for x in 0..w {
            let mut s = 0.0;
            for (k, kv) in K.iter().enumerate() {
                s += kv * row[(x + k).saturating_sub(2).min(w - 1)];
            }
            a[y * w + x] = s;
        }
    }
    let mut b = vec![0f32; w * h];
    for y in 0..h {
        for (k, kv) in K.iter().enumerate() {
            let yy = (y + k).saturating_sub(2).min(h - 1);
            let (dst, srow) = (&mut b[y * w..(y + 1) * w], &a[yy * w..(yy + 1) * w]);
            for (d, s) in dst.iter_mut().zip(srow) {
                *d += kv * s;
            }
        }
    }
    b
}

/// Smooths `small`, finds its ridge points.
pub fn edges(small: &image::GrayImage) -> Edges {
    let (w, h) = (small.width() as usize, small.height() as usize);
    let raw: Vec<f32> = small.as_raw().iter().map(|&p| f32::from(p)).collect();
    let smooth = binomial(&raw, w, h);
    let mut gx = vec![0f32; w * h];
    let mut gy = vec![0f32; w * h];
    let mut mag = vec![0f32; w * h];
    // The floor: a step of 8 gray levels after smoothing gives a Sobel magnitude of about 25;
    // paper against a table differs by 40 or more, sensor noise after smoothing by 2 to 3.
    const FLOOR: f32 = 24.0;
    for y in 1..h - 1 {
        let (up, row, down) =
            (&smooth[(y - 1) * w..y * w], &smooth[y * w..(y + 1) * w], &smooth[(y + 1) * w..(y + 2) * w]);
        for x in 1..w - 1 {
            let sx = up[x + 1] + 2.0 * row[x + 1] + down[x + 1] - up[x - 1] - 2.0 * row[x - 1] - down[x - 1];
            let sy = down[x - 1] + 2.0 * down[x] + down[x + 1] - up[x - 1] - 2.0 * up[x] - up[x + 1];
            let m2 = sx * sx + sy * sy;
            // Below half the floor a pixel can be neither an edge nor beat one in thinning.
            if m2 >= FLOOR * FLOOR / 4.0 {
                let i = y * w + x;
                gx[i] = sx;
                gy[i] = sy;
                mag[i] = m2.sqrt();
            }
        }
    }
    // Paper and table differ by 40 levels and more; 16 (rather than 10) drops a fifth of the
    // grain of a wooden table's points, and a tenth of the time, at no loss on the tests.
    const STEP: f32 = 16.0;
    let mut points = Vec::new();
    for y in 2..h.saturating_sub(2) {
        for x in 2..w - 2 {
            let i = y * w + x;
            let m = mag[i];
            if m < FLOOR {
                continue;
            }
            let (ux, uy) = (gx[i] / m, gy[i] / m);
            // The neighbour along the gradient, on the nearest of the 8 directions.
            let (sx, sy) =
                ((ux * std::f32::consts::SQRT_2).round() as isize, (uy * std::f32::consts::SQRT_2).round() as isize);
            let j = (y as isize + sy) as usize * w + (x as isize + sx) as usize;
            let k = (y as isize - sy) as usize * w + (x as isize - sx) as usize;
            let (a, b) = (mag[k], mag[j]);
            if m < a || m <= b {
                continue;
            }
            // Paper on one side, table on the other, over 6 px each way: a step, not the grain
            // of a textured table (stripes 10 px apart fail it) nor a printed rule. The lighter
            // of the two samples on each side: a check's printed frame, 0.12 in inside its
            // edge, falls 3 to 6 px inside it here.
            let at = |d: f32| {
                let (xx, yy) = (x as f32 + 0.5 + ux * d, y as f32 + 0.5 + uy * d);
                if xx < 0.0 || yy < 0.0 || xx >= w as f32 || yy >= h as f32 {
                    return None;
                }
                Some(smooth[yy as usize * w + xx as usize])
            };
            let step = match (at(3.0), at(6.0), at(-3.0), at(-6.0)) {
                (Some(i1), Some(i2), Some(o1), Some(o2)) => i1.max(i2) - o1.max(o2),
                _ => continue,
            };
            if step < STEP {
                continue;
            }
            let den = a - 2.0 * m + b;
            let t = if den < 0.0 { (0.5 * (a - b) / den).clamp(-0.5, 0.5) } else { 0.0 };
            points.push(EdgePoint {
                x: x as f32 + 0.5 + t * sx as f32,
                y: y as f32 + 0.5 + t * sy as f32,
                nx: ux,
                ny: uy,
                mag: m,
                step,
            });
        }
    }
    Edges { w, h, smooth, points }
}

/// A point's vote: 1 for a step of 30 gray levels, in proportion up to 2. Paper on a table differs
/// by 40 to 150 levels, the grain of a wooden or striped table by 10 to 40: weighted, the sides
/// of a check outrank a table's long grain lines.
fn vote_weight(step: f32) -> f32 {
    (step / 30.0).min(2.0)
}

/// The strongest lines of `e`, at most `max`, none within 4° and 6 px of a stronger one, each
/// with at least `min_votes` points.
pub fn hough(e: &Edges, min_votes: f32, max: usize) -> Vec<Line> {
    let (cx, cy) = (e.w as f32 / 2.0, e.h as f32 / 2.0);
    let r = ((cx * cx + cy * cy).sqrt().ceil() as usize) + 2;
    let nr = 2 * r + 1;
    let (cos, sin): (Vec<f32>, Vec<f32>) =
        (0..ANGLES).map(|a| (a as f32 * 2.0 * PI / ANGLES as f32).sin_cos()).map(|(s, c)| (c, s)).unzip();
    let mut acc = vec![0f32; ANGLES * nr];
    for p in &e.points {
        let a = (p.ny.atan2(p.nx).rem_euclid(2.0 * PI) * ANGLES as f32 / (2.0 * PI)).round() as isize;
        let (x, y) = (p.x - cx, p.y - cy);
        let weight = vote_weight(p.step);
        for da in -SPREAD..=SPREAD {
            let t = (a + da).rem_euclid(ANGLES as isize) as usize;
            let rho = (x * cos[t] + y * sin[t] + r as f32).round() as usize;
            acc[t * nr + rho.min(nr - 1)] += weight;
        }
    }
    // Local maxima over ±2 bins of angle and ±3 of distance.
    let floor = min_votes.max(1.0);
    let mut peaks: Vec<(f32, usize, usize)> = Vec::new();
    for t in 0..ANGLES {
        for rho in 3..nr - 3 {
            let v = acc[t * nr + rho];
            if v < floor {
                continue;
            }
            let mut best = true;
            'window: for dt in -2isize..=2 {
                let tt = (t as isize + dt).rem_euclid(ANGLES as isize) as usize;
                for dr in -3isize..=3 {
                    let u = acc[tt * nr + (rho as isize + dr) as usize];
                    let earlier = (dt, dr) < (0, 0);
                    if u > v || (u == v && earlier) {
                        best = false;
                        break 'window;
                    }
                }
            }
            if best {
                peaks.push((v, t, rho));
            }
        }
    }
    let mut lines: Vec<(usize, usize, Line)> = Vec::new();
    // Strongest first, by repeated selection: a few hundred peaks, and no sorting code in the
    // wasm module for this one type (3.7 kB).
    while let Some(best) = (0..peaks.len()).max_by(|&a, &b| peaks[a].0.total_cmp(&peaks[b].0)) {
        let (v, t, rho) = peaks.swap_remove(best);
        let apart = |lt: usize| {
            let dt = (t as isize - lt as isize).rem_euclid(ANGLES as isize);
            dt.min(ANGLES as isize - dt)
        };
        let near = lines.iter().any(|(lt, lr, _)| apart(*lt) <= 4 && (rho as isize - *lr as isize).abs() <= 6);
        // A table's grain gives many parallel lines: no more than 4 of one direction (±8°), so
        // that the check's other sides still get in.
        if near || lines.iter().filter(|(lt, _, _)| apart(*lt) <= 8).count() >= 4 {
            continue;
        }
        let (nx, ny) = (cos[t], sin[t]);
        let c = rho as f32 - r as f32 + nx * cx + ny * cy;
        lines.push((t, rho, Line { nx, ny, c, votes: v, border: false }));
        if lines.len() >= max {
            break;
        }
    }
    lines.into_iter().map(|(_, _, l)| l).collect()
}
