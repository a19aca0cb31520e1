//! Cutting and classifying in one pass. Every placement of every glyph along the strip is scored
//! by normalized cross-correlation (zero-mean, so it does not care how black the ink or how
//! bold the print is), at small vertical offsets. A dynamic programme then chooses, left to
//! right, between leaving a column uncovered (costing its ink) and placing a glyph (costing the
//! ink it does not explain, plus a little per character): the cheapest path explains the line.
//! Ink left unexplained in a character-sized patch is an unreadable character.

use super::strip::{Strip, ABOVE, P};
use super::templates::{templates, MARGIN, SPLIT, T_ROWS, T_TOP};
use super::Symbol;
/// Vertical offsets tried, in strip pixels.
const DY: i32 = 1;
/// Rows where characters stand.
const CHAR_ROWS: std::ops::Range<usize> = ABOVE * P..(ABOVE + 9) * P;
/// Score at and below which a placement explains nothing, and from which it explains all.
const S_NONE: f32 = 0.35;
const S_ALL: f32 = 0.85;
/// Cost of a character, in columns of full ink.
const PER_CHAR: f32 = 0.35;
/// Below this correlation, or this confidence (too close to the next best glyph), a character
/// is unreadable: `*`, with the glyph it looked most like as its best guess.
const S_READ: f32 = 0.55;
const C_READ: f32 = 0.25;

/// One thing read on the strip: a character over columns `u0..u1`.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub symbol: Symbol,
    pub confidence: f32,
    pub best_guess: Option<Symbol>,
    /// The best other glyph at that place (the second reading), if any.
    pub second: Option<Symbol>,
    /// The correlation of the glyph chosen, and of the best other glyph at that place.
    pub score: f32,
    pub runner_up: f32,
    pub u0: usize,
    pub u1: usize,
}

/// Best correlation of every template at every left edge `u` (over the vertical offsets):
/// `scores[k][u]`, 0 where the window holds next to no ink.
pub fn scores(s: &Strip) -> Vec<Vec<f32>> {
    let w = s.width;
    let rows = s.dark.len() / w.max(1);
    // Integral images of darkness and its square, for each window's mean and variance.
    let iw = w + 1;
    let mut sum = vec![0f64; iw * (rows + 1)];
    let mut sq = vec![0f64; iw * (rows + 1)];
    for y in 0..rows {
        let (mut rs, mut rq) = (0f64, 0f64);
        for x in 0..w {
            let v = f64::from(s.dark[y * w + x]);
            rs += v;
            rq += v * v;
            sum[(y + 1) * iw + x + 1] = sum[y * iw + x + 1] + rs;
            sq[(y + 1) * iw + x + 1] = sq[y * iw + x + 1] + rq;
        }
    }
    let rect = |t: &[f64], x0: usize, y0: usize, x1: usize, y1: usize| {
        t[y1 * iw + x1] + t[y0 * iw + x0] - t[y0 * iw + x1] - t[y1 * iw + x0]
    };
    // Columns worth scoring: near ink.
    let widest = templates().iter().map(|t| t.width).max().unwrap_or(1);
    let mut active = vec![false; w];
    for u in 0..w {
        if rect(&sum, u, T_TOP, u + 1, T_TOP + T_ROWS) > 0.3 {
            let (a, b) = (u.saturating_sub(widest), (u + 1).min(w));
            active[a..b].iter_mut().for_each(|x| *x = true);
        }
    }
    let ranges: Vec<(usize, usize)> = {
        let mut r = Vec::new();
        let mut x = 0;
        while x < w {
            if active[x] {
                let a = x;
                while x < w && active[x] {
                    x += 1;
                }
                r.push((a, x));
            } else {
                x += 1;
            }
        }
        r
    };
    let ts = templates();
    let mut out = vec![vec![0f32; w]; ts.len()];
    let mut top = vec![0f32; w];
    let mut bottom = vec![0f32; w];
    for (k, t) in ts.iter().enumerate() {
        if t.width > w {
            continue;
        }
        let last = w - t.width; // last window start
        for dy in -DY..=DY {
            let y0 = (T_TOP as i32 + dy) as usize;
            top[..=last].iter_mut().for_each(|a| *a = 0.0);
            bottom[..=last].iter_mut().for_each(|a| *a = 0.0);
            for r in 0..T_ROWS {
                let srow = &s.dark[(y0 + r) * w..(y0 + r + 1) * w];
                let acc = if r < SPLIT { &mut top } else { &mut bottom };
                for (c, &tv) in t.values[r * t.width..(r + 1) * t.width].iter().enumerate() {
                    if tv == 0.0 {
                        continue;
                    }
                    for &(a, b) in &ranges {
                        let b = b.min(last + 1);
                        if a >= b {
                            continue;
                        }
                        for (acc, sv) in acc[a..b].iter_mut().zip(&srow[a + c..b + c]) {
                            *acc += tv * sv;
                        }
                    }
                }
            }
            // Normalized correlation of one zone from its raw dot product.
            let ncc = |dot: f32, (mean, norm): (f32, f32), x0: usize, ya: usize, yb: usize| -> f32 {
                let n = ((yb - ya) * t.width) as f64;
                let sm = rect(&sum, x0, ya, x0 + t.width, yb);
                let var = rect(&sq, x0, ya, x0 + t.width, yb) - sm * sm / n;
                if var < 0.05 {
                    return 0.0;
                }
                (dot - mean * sm as f32) / (norm * var.sqrt() as f32)
            };
            for &(a, b) in &ranges {
                for x0 in a..b.min(last + 1) {
                    if rect(&sum, x0, y0, x0 + t.width, y0 + T_ROWS) < 1.0 {
                        continue;
                    }
                    let (yt, ym, yb) = (y0, y0 + SPLIT, y0 + T_ROWS);
                    let all = ncc(top[x0] + bottom[x0], t.zones[0], x0, yt, yb);
                    let up = ncc(top[x0], t.zones[1], x0, yt, ym);
                    let down = ncc(bottom[x0], t.zones[2], x0, ym, yb);
                    let score = (2.0 * all + up + down) / 4.0;
                    let o = &mut out[k][x0 + MARGIN];
                    *o = o.max(score);
                }
            }
        }
    }
    out
}

fn explained(s: f32) -> f32 {
    ((s - S_NONE) / (S_ALL - S_NONE)).clamp(0.0, 1.0)
}

/// Reads the strip: the characters in order, unreadable marks included, junk at the ends left
/// out.
pub fn read_strip(s: &Strip) -> Vec<Item> {
    let w = s.width;
    let ts = templates();
    let sc = scores(s);
    let rows = CHAR_ROWS;
    let nrows = rows.len() as f32;
    let ink: Vec<f32> = (0..w).map(|u| rows.clone().map(|v| s.at(u, v)).sum::<f32>() / nrows).collect();
    let mut cum = vec![0f32; w + 1];
    for u in 0..w {
        cum[u + 1] = cum[u] + ink[u];
    }
    // cost[u]: cheapest explanation of columns 0..u; from[u]: where it came from and the glyph.
    let mut cost = vec![f32::INFINITY; w + 1];
    let mut from: Vec<(usize, Option<usize>)> = vec![(0, None); w + 1];
    cost[0] = 0.0;
    for u in 0..w {
        let c = cost[u];
        if !c.is_finite() {
            continue;
        }
        if c + ink[u] < cost[u + 1] {
            cost[u + 1] = c + ink[u];
            from[u + 1] = (u, None);
        }
        for (k, t) in ts.iter().enumerate() {
            let end = u + t.glyph_width;
            if end > w {
                continue;
            }
            let s_k = sc[k][u];
            if s_k <= S_NONE {
                continue;
            }
            let cc = c + (cum[end] - cum[u]) * (1.0 - explained(s_k)) + PER_CHAR;
            if cc < cost[end] {
                cost[end] = cc;
                from[end] = (u, Some(k));
            }
        }
    }
    // Walk back.
    let mut path: Vec<(usize, usize, Option<usize>)> = Vec::new();
    let mut u = w;
    while u > 0 {
        let (p, k) = from[u];
        path.push((p, u, k));
        u = p;
    }
    path.reverse();
    let mut items: Vec<Item> = Vec::new();
    // Unexplained ink: runs of uncovered columns with ink.
    let mut run: Option<(usize, usize)> = None;
    let flush = |run: &mut Option<(usize, usize)>, items: &mut Vec<Item>| {
        if let Some((a, b)) = run.take() {
            if let Some(item) = unexplained(s, &sc, a, b) {
                items.push(item);
            }
        }
    };
    for &(a, b, k) in &path {
        match k {
            None => {
                if ink[a] > 0.04 {
                    run = Some(match run {
                        Some((r0, _)) => (r0, b),
                        None => (a, b),
                    });
                } else {
                    flush(&mut run, &mut items);
                }
            }
            Some(k) => {
                flush(&mut run, &mut items);
                items.push(character(&sc, k, a, b));
            }
        }
    }
    flush(&mut run, &mut items);
    trim(items)
}

/// The item for glyph `k` placed over `a..b`: its confidence from its score and the best other
/// glyph centred at the same place.
fn character(sc: &[Vec<f32>], k: usize, a: usize, b: usize) -> Item {
    let ts = templates();
    let score = sc[k][a];
    let centre2 = a + b; // twice the centre
    let mut runner_up = 0f32;
    let mut second = None;
    for (j, t) in ts.iter().enumerate() {
        if t.symbol == ts[k].symbol {
            continue;
        }
        let left2 = centre2 as isize - t.glyph_width as isize;
        for d in -2..=2isize {
            let u = left2 / 2 + d;
            if u >= 0 && (u as usize) < sc[j].len() && sc[j][u as usize] > runner_up {
                runner_up = sc[j][u as usize];
                second = Some(t.symbol);
            }
        }
    }
    let conf = confidence(score, runner_up);
    let symbol = ts[k].symbol;
    if score < S_READ || conf < C_READ {
        Item {
            symbol: Symbol::Unreadable,
            confidence: conf,
            best_guess: Some(symbol),
            second,
            score,
            runner_up,
            u0: a,
            u1: b,
        }
    } else {
        Item { symbol, confidence: conf, best_guess: None, second, score, runner_up, u0: a, u1: b }
    }
}

/// 0 to 1 from a glyph's correlation and its lead over the next best glyph.
pub fn confidence(score: f32, runner_up: f32) -> f32 {
    let fit = ((score - 0.45) / 0.4).clamp(0.0, 1.0);
    let lead = ((score - runner_up) / 0.08).clamp(0.0, 1.0);
    fit * lead.sqrt()
}

/// Ink over columns `a..b` no glyph explained: an unreadable character when it is
/// character-sized (tall enough, inky enough), else nothing.
fn unexplained(s: &Strip, sc: &[Vec<f32>], a: usize, b: usize) -> Option<Item> {
    let mut rows_inked = 0;
    let mut mass = 0f32;
    for v in 0..s.dark.len() / s.width {
        let row_mass: f32 = (a..b).map(|u| s.at(u, v)).sum();
        if CHAR_ROWS.contains(&v) {
            mass += row_mass;
        }
        if (a..b).any(|u| s.at(u, v) > 0.5) && CHAR_ROWS.contains(&v) {
            rows_inked += 1;
        }
    }
    // A character of the thinnest kind (dash: 4 units tall) holds about 12 units² of ink.
    if rows_inked < 3 * P || mass < (8 * P * P) as f32 || b - a < 2 * P {
        return None;
    }
    let mut best = (0f32, None);
    for (k, t) in templates().iter().enumerate() {
        for &v in sc[k].iter().take(b).skip(a.saturating_sub(P)) {
            if v > best.0 {
                best = (v, Some(t.symbol));
            }
        }
    }
    Some(Item {
        symbol: Symbol::Unreadable,
        confidence: 0.0,
        best_guess: best.1,
        second: None,
        score: best.0,
        runner_up: 0.0,
        u0: a,
        u1: b,
    })
}

/// Leaves out what stands at either end and is not a character of the line: a poor match (a
/// crosshair, a border, the edge of the paper), or an unreadable mark a character's pitch or
/// more away from the rest.
fn trim(mut items: Vec<Item>) -> Vec<Item> {
    let pitch = 8 * P;
    let weak =
        |i: &Item, gap: usize| i.score < 0.45 || ((i.symbol == Symbol::Unreadable || i.score < 0.6) && gap >= pitch);
    while items.len() >= 2 && weak(&items[0], items[1].u0.saturating_sub(items[0].u1)) {
        items.remove(0);
    }
    while items.len() >= 2 && {
        let n = items.len();
        weak(&items[n - 1], items[n - 1].u0.saturating_sub(items[n - 2].u1))
    } {
        items.pop();
    }
    if items.len() == 1 && items[0].symbol == Symbol::Unreadable {
        items.clear();
    }
    items
}

/// How much a reading looks like a MICR line: its confident characters, less its unreadable
/// ones.
pub fn score(items: &[Item]) -> f32 {
    let good: f32 = items.iter().filter(|i| i.symbol != Symbol::Unreadable).map(|i| i.confidence).sum();
    let bad = items.iter().filter(|i| i.symbol == Symbol::Unreadable).count() as f32;
    if items.iter().filter(|i| i.symbol != Symbol::Unreadable && i.confidence > 0.5).count() < 4 {
        return 0.0;
    }
    good - 0.5 * bad
}
