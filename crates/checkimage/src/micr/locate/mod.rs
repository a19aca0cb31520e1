//! Finding the MICR band: candidate lines of characters of one height on one baseline.
//!
//! The picture is thresholded locally (Sauvola: a pixel is ink when darker than its
//! neighbourhood's mean by a share of the neighbourhood's contrast, so a tinted or unevenly lit
//! check does not matter), cut into connected components, and the components as tall as a
//! character is wide (digits: 9 units tall, 4 to 7 wide) are chained left to right into lines,
//! allowing a tilt. Each line gives its baseline, top line and character height; the MICR symbols'
//! separate bars need not be found here: the reading covers the whole width along the line.

use image::GrayImage;

mod ink;

pub use ink::{box_reduce, components, sauvola, working_image, Component};
use ink::{find, union};

/// Widest working image: larger pictures are reduced (box filter) to this width first. A 6 in
/// check then has about 300 dpi, an 8.5 in one 210 dpi: characters of 25 to 35 pixels.
pub const MAX_WIDTH: u32 = 1800;
/// How many candidate lines are read, best first.
pub const MAX_READ: usize = 4;

/// A line of characters found: baseline `y = slope · x + bottom`, top line `y = slope · x + top`
/// (working pixels), how many character-sized components it joined, and the top and bottom of
/// each of those of the typical height (`[centre x, top, bottom]`, by x), which the strip
/// follows where the line bows or a field was printed a little higher or smaller.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub slope: f32,
    pub top: f32,
    pub bottom: f32,
    pub height: f32,
    pub x0: f32,
    pub x1: f32,
    pub members: usize,
    /// Members shaped like E-13B digits (4 to 7 units wide for 9 tall).
    pub digit_like: usize,
    /// Width over height of the picture's pixels as the characters show them: their pitch
    /// (median distance of neighbours) over the standard's 8/9 of their height when that is off
    /// by more than 20 % (a fax-like 200 × 100 dpi scan gives 2), otherwise 1 (square pixels, or
    /// printing a little off the standard).
    pub aspect: f32,
    pub marks: Vec<[f32; 3]>,
}

impl Candidate {
    /// The local top and bottom of the characters at `x`: the straight line, moved by the
    /// median offset of the nearest marks.
    pub fn top_bottom_at(&self, x: f32) -> (f32, f32) {
        let (mut t, mut b) = (self.slope * x + self.top, self.slope * x + self.bottom);
        if self.marks.len() >= 3 {
            let i = self.marks.partition_point(|m| m[0] < x);
            let lo = i.saturating_sub(2).min(self.marks.len() - 3);
            let near: Vec<&[f32; 3]> = {
                let mut v: Vec<&[f32; 3]> = self.marks[lo..(lo + 4).min(self.marks.len())].iter().collect();
                v.sort_by(|a, c| (a[0] - x).abs().total_cmp(&(c[0] - x).abs()));
                v.truncate(3);
                v
            };
            let mut dt: Vec<f32> = near.iter().map(|m| m[1] - (self.slope * m[0] + self.top)).collect();
            let mut db: Vec<f32> = near.iter().map(|m| m[2] - (self.slope * m[0] + self.bottom)).collect();
            dt.sort_by(f32::total_cmp);
            db.sort_by(f32::total_cmp);
            t += dt[1];
            b += db[1];
        }
        (t, b)
    }
}

/// The candidate lines of `gray` (a working image), most promising first.
pub fn candidates(gray: &GrayImage) -> Vec<Candidate> {
    let (w, h) = gray.dimensions();
    let r = (w / 60).clamp(7, 40);
    let mask = sauvola(gray, r);
    let comps = components(&mask, w as usize);
    // Character-sized: at least 6 pixels tall, at most a third of the picture (or all of a
    // cropped line), not a rule or a long scrawl.
    let max_h = if h < 150 { h } else { (h / 3).max(8) };
    let mut tall: Vec<Component> = comps
        .into_iter()
        .filter(|c| {
            let (cw, ch) = (c.width(), c.height());
            ch >= 6 && ch <= max_h && cw * 6 >= ch && cw <= ch * 3 && c.pixels * 10 >= cw * ch
        })
        .collect();
    tall.sort_by_key(|c| (c.x0, c.y0));
    let n = tall.len();
    let mut parent: Vec<u32> = (0..n as u32).collect();
    for i in 0..n {
        let a = tall[i];
        let ha = a.height() as f32;
        for (j, b) in tall.iter().enumerate().skip(i + 1) {
            if b.x0 as f32 > a.x1 as f32 + 3.0 * ha {
                break;
            }
            let hb = b.height() as f32;
            if (hb / ha - 1.0).abs() > 0.25 {
                continue;
            }
            let dx = (b.x0 as f32 - a.x0 as f32).abs();
            let tol = 0.2 * ha + 0.11 * dx;
            if (b.y1 as f32 - a.y1 as f32).abs() <= tol && (b.y0 as f32 - a.y0 as f32).abs() <= tol {
                union(&mut parent, i as u32, j as u32);
            }
        }
    }
    let mut groups: std::collections::BTreeMap<u32, Vec<Component>> = Default::default();
    for (i, c) in tall.iter().enumerate() {
        let root = find(&mut parent, i as u32);
        groups.entry(root).or_default().push(*c);
    }
    let mut lines: Vec<Candidate> = groups.into_values().filter(|g| g.len() >= 3).filter_map(|g| fit(&g)).collect();
    // Join pieces of one line (fields far apart): same height, each on the other's baseline.
    lines.sort_by(|a, b| a.x0.total_cmp(&b.x0));
    let mut joined: Vec<Candidate> = Vec::new();
    for l in lines {
        let same = joined.iter_mut().find(|j| {
            (j.height / l.height - 1.0).abs() < 0.35 && {
                let mid = (l.x0 + l.x1) / 2.0;
                let yj = j.slope * mid + j.bottom;
                let yl = l.slope * mid + l.bottom;
                (yj - yl).abs() < 0.3 * j.height
            }
        });
        match same {
            Some(j) => {
                let (nj, nl) = (j.members as f32, l.members as f32);
                // Keep the longer piece's line, widened.
                if nl > nj {
                    j.slope = l.slope;
                    j.top = l.top;
                    j.bottom = l.bottom;
                    j.height = l.height;
                }
                j.x0 = j.x0.min(l.x0);
                j.x1 = j.x1.max(l.x1);
                j.members += l.members;
                j.digit_like += l.digit_like;
                j.marks.extend(l.marks);
            }
            None => joined.push(l),
        }
    }
    for j in &mut joined {
        j.marks.sort_by(|a, b| a[0].total_cmp(&b[0]));
        j.aspect = aspect(&j.marks, j.height);
    }
    // Most promising first: many digit-shaped characters, low on the picture (the MICR band is
    // the bottom 5/8 in of a check).
    let rank = |c: &Candidate| {
        let y = (c.slope * (c.x0 + c.x1) / 2.0 + c.bottom) / h as f32;
        c.digit_like as f32 * (0.5 + y.clamp(0.0, 1.0))
    };
    joined.sort_by(|a, b| rank(b).total_cmp(&rank(a)));
    joined
}

/// The pitch of the marks (neighbours one character apart) over 8/9 of `height`; 1 when it
/// cannot be told or is implausible.
fn aspect(marks: &[[f32; 3]], height: f32) -> f32 {
    let mut d: Vec<f32> = pitches(marks, height).map(|(_, d)| d).collect();
    if d.len() < 4 {
        return 1.0;
    }
    d.sort_by(f32::total_cmp);
    aspect_of(d[d.len() / 2], height)
}

/// Distances between neighbouring marks one character apart, with where they are (the middle).
fn pitches(marks: &[[f32; 3]], height: f32) -> impl Iterator<Item = (f32, f32)> + '_ {
    marks
        .windows(2)
        .map(|w| ((w[0][0] + w[1][0]) / 2.0, w[1][0] - w[0][0]))
        .filter(move |(_, d)| (0.55 * height..1.6 * height).contains(d))
}

/// A pitch over 8/9 of `height`, 1 when near it (printing a little off the standard) or
/// implausible.
fn aspect_of(pitch: f32, height: f32) -> f32 {
    let r = pitch / (height * 8.0 / 9.0);
    if (0.8..1.25).contains(&r) || !(0.6..2.2).contains(&r) {
        1.0
    } else {
        r
    }
}

impl Candidate {
    /// The aspect at `x`: from the pitch of the 5 character pairs around `x` when they agree
    /// (a crop stretched unevenly, 0.9 times at one end and 1.4 at the other, is read with the
    /// pitch each field has), otherwise the line's.
    pub fn aspect_at(&self, x: f32) -> f32 {
        let near: Vec<(f32, f32)> = pitches(&self.marks, self.height).collect();
        if near.len() < 8 {
            return self.aspect;
        }
        // In order along the line: the five nearest `x` are five in a row.
        let i = near.partition_point(|p| p.0 < x);
        let lo = i.saturating_sub(2).min(near.len() - 5);
        let mut d: Vec<f32> = near[lo..lo + 5].iter().map(|p| p.1).collect();
        d.sort_by(f32::total_cmp);
        // Five neighbours within 10 % of one another: one field, printed at one pitch.
        if d[4] > 1.1 * d[0] {
            return self.aspect;
        }
        aspect_of(d[2], self.height)
    }
}

/// The straight line through a group's bottoms and tops (least squares on the members of the
/// typical height).
fn fit(g: &[Component]) -> Option<Candidate> {
    let mut heights: Vec<u32> = g.iter().map(|c| c.height()).collect();
    heights.sort_unstable();
    let med = heights[heights.len() / 2] as f32;
    let core: Vec<&Component> = g.iter().filter(|c| (c.height() as f32 / med - 1.0).abs() <= 0.12).collect();
    if core.len() < 3 {
        return None;
    }
    let n = core.len() as f32;
    let cx: Vec<f32> = core.iter().map(|c| (c.x0 + c.x1) as f32 / 2.0).collect();
    let mx = cx.iter().sum::<f32>() / n;
    let mb = core.iter().map(|c| c.y1 as f32 + 0.5).sum::<f32>() / n;
    let mt = core.iter().map(|c| c.y0 as f32).sum::<f32>() / n;
    let sxx: f32 = cx.iter().map(|x| (x - mx) * (x - mx)).sum();
    let slope = if sxx > 1.0 {
        let sb: f32 = core.iter().zip(&cx).map(|(c, x)| (x - mx) * (c.y1 as f32 + 0.5 - mb)).sum();
        let st: f32 = core.iter().zip(&cx).map(|(c, x)| (x - mx) * (c.y0 as f32 - mt)).sum();
        ((sb + st) / 2.0 / sxx).clamp(-0.11, 0.11)
    } else {
        0.0
    };
    let bottom = mb - slope * mx;
    let top = mt - slope * mx;
    let height = (bottom - top) * (1.0 / (1.0 + slope * slope).sqrt());
    let x0 = g.iter().map(|c| c.x0).min()? as f32;
    let x1 = g.iter().map(|c| c.x1).max()? as f32 + 1.0;
    let digit_like = g.iter().filter(|c| (c.width() * 24..=c.width() * 55).contains(&(c.height() * 20))).count();
    let marks = core.iter().map(|c| [(c.x0 + c.x1) as f32 / 2.0, c.y0 as f32, c.y1 as f32 + 0.5]).collect();
    Some(Candidate { slope, top, bottom, height, x0, x1, members: g.len(), digit_like, aspect: 1.0, marks })
}
