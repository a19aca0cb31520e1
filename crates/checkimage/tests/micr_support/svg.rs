//! A tiny rasterizer for the E-13B outlines in `shared/data/checks/fonts/e13b-ofl-svgs` (test
//! material only: the product's glyphs are its own, in `src/micr/glyphs.rs`). It knows just what
//! those files use: `<rect>` with rounded corners and `<path>` with M L H V A Z (absolute and
//! relative), filled even-odd, with anti-aliased coverage.

/// One glyph's outline: closed polygons in the SVG's user units, and the viewBox size.
#[derive(Debug, Clone)]
pub struct Outline {
    pub width: f64,
    pub height: f64,
    pub polygons: Vec<Vec<(f64, f64)>>,
}

fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let at = tag.find(&key)? + key.len();
    let end = tag[at..].find('"')? + at;
    Some(&tag[at..end])
}

fn num(tag: &str, name: &str) -> f64 {
    attr(tag, name).map(|s| s.parse().unwrap()).unwrap_or(0.0)
}

/// Parses one of the SVG files.
pub fn parse(svg: &str) -> Outline {
    let vb: Vec<f64> = attr(svg, "viewBox").unwrap().split_whitespace().map(|s| s.parse().unwrap()).collect();
    let mut polygons = Vec::new();
    let mut rest = svg;
    while let Some(at) = rest.find('<') {
        rest = &rest[at + 1..];
        let end = rest.find('>').unwrap();
        let tag = &rest[..end];
        if tag.starts_with("rect") {
            let (x, y, w, h) = (num(tag, "x"), num(tag, "y"), num(tag, "width"), num(tag, "height"));
            let r = num(tag, "rx").min(w / 2.0).min(h / 2.0);
            polygons.push(rounded_rect(x, y, w, h, r));
        } else if tag.starts_with("path") {
            polygons.extend(path(attr(tag, "d").unwrap()));
        }
    }
    Outline { width: vb[2], height: vb[3], polygons }
}

fn rounded_rect(x: f64, y: f64, w: f64, h: f64, r: f64) -> Vec<(f64, f64)> {
    let mut p = Vec::new();
    let corners =
        [(x + w - r, y + r, -90.0f64), (x + w - r, y + h - r, 0.0), (x + r, y + h - r, 90.0), (x + r, y + r, 180.0)];
    for (cx, cy, start) in corners {
        for i in 0..=8 {
            let a = (start + 90.0 * f64::from(i) / 8.0).to_radians();
            p.push((cx + r * a.cos(), cy + r * a.sin()));
        }
    }
    p
}

fn tokens(d: &str) -> Vec<Token> {
    let b = d.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i] as char;
        if c.is_ascii_alphabetic() && c != 'e' && c != 'E' {
            out.push(Token::Cmd(c));
            i += 1;
        } else if c == '-' || c == '+' || c == '.' || c.is_ascii_digit() {
            let start = i;
            i += 1;
            let mut dot = c == '.';
            while i < b.len() {
                let c = b[i] as char;
                if c.is_ascii_digit() {
                    i += 1;
                } else if c == '.' && !dot {
                    dot = true;
                    i += 1;
                } else {
                    break;
                }
            }
            out.push(Token::Num(d[start..i].parse().unwrap()));
        } else {
            i += 1;
        }
    }
    out
}

#[derive(Debug, Clone, Copy)]
enum Token {
    Cmd(char),
    Num(f64),
}

fn path(d: &str) -> Vec<Vec<(f64, f64)>> {
    let t = tokens(d);
    let mut polys = Vec::new();
    let mut cur: Vec<(f64, f64)> = Vec::new();
    let (mut x, mut y) = (0.0f64, 0.0f64);
    let mut i = 0;
    let mut cmd = 'M';
    let next = |i: &mut usize| -> f64 {
        let Token::Num(n) = t[*i] else { panic!("number expected in {d}") };
        *i += 1;
        n
    };
    while i < t.len() {
        if let Token::Cmd(c) = t[i] {
            cmd = c;
            i += 1;
            if c == 'Z' || c == 'z' {
                if cur.len() > 2 {
                    polys.push(std::mem::take(&mut cur));
                }
                cur.clear();
                continue;
            }
        }
        let rel = cmd.is_ascii_lowercase();
        let (ox, oy) = if rel { (x, y) } else { (0.0, 0.0) };
        match cmd.to_ascii_uppercase() {
            'M' => {
                if cur.len() > 2 {
                    polys.push(std::mem::take(&mut cur));
                }
                cur.clear();
                x = ox + next(&mut i);
                y = oy + next(&mut i);
                cur.push((x, y));
                cmd = if rel { 'l' } else { 'L' };
            }
            'L' => {
                x = ox + next(&mut i);
                y = oy + next(&mut i);
                cur.push((x, y));
            }
            'H' => {
                x = ox + next(&mut i);
                cur.push((x, y));
            }
            'V' => {
                y = oy + next(&mut i);
                cur.push((x, y));
            }
            'A' => {
                let (rx, ry, rot, large, sweep) =
                    (next(&mut i), next(&mut i), next(&mut i), next(&mut i), next(&mut i));
                let (x2, y2) = (ox + next(&mut i), oy + next(&mut i));
                arc(&mut cur, (x, y), (x2, y2), rx, ry, rot, large != 0.0, sweep != 0.0);
                x = x2;
                y = y2;
            }
            other => panic!("path command {other} is not handled"),
        }
    }
    if cur.len() > 2 {
        polys.push(cur);
    }
    polys
}

/// Appends the points of an SVG elliptical arc (endpoint parameterization, SVG 1.1 F.6.5).
#[allow(clippy::too_many_arguments)]
fn arc(
    out: &mut Vec<(f64, f64)>,
    p1: (f64, f64),
    p2: (f64, f64),
    rx: f64,
    ry: f64,
    rot: f64,
    large: bool,
    sweep: bool,
) {
    if rx == 0.0 || ry == 0.0 || p1 == p2 {
        out.push(p2);
        return;
    }
    let (mut rx, mut ry) = (rx.abs(), ry.abs());
    let phi = rot.to_radians();
    let (cs, sn) = (phi.cos(), phi.sin());
    let dx = (p1.0 - p2.0) / 2.0;
    let dy = (p1.1 - p2.1) / 2.0;
    let x1 = cs * dx + sn * dy;
    let y1 = -sn * dx + cs * dy;
    let lambda = x1 * x1 / (rx * rx) + y1 * y1 / (ry * ry);
    if lambda > 1.0 {
        rx *= lambda.sqrt();
        ry *= lambda.sqrt();
    }
    let num = (rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1).max(0.0);
    let den = rx * rx * y1 * y1 + ry * ry * x1 * x1;
    let mut co = (num / den).sqrt();
    if large == sweep {
        co = -co;
    }
    let cx1 = co * rx * y1 / ry;
    let cy1 = -co * ry * x1 / rx;
    let cx = cs * cx1 - sn * cy1 + (p1.0 + p2.0) / 2.0;
    let cy = sn * cx1 + cs * cy1 + (p1.1 + p2.1) / 2.0;
    let angle = |ux: f64, uy: f64, vx: f64, vy: f64| (ux * vy - uy * vx).atan2(ux * vx + uy * vy);
    let t1 = angle(1.0, 0.0, (x1 - cx1) / rx, (y1 - cy1) / ry);
    let mut dt = angle((x1 - cx1) / rx, (y1 - cy1) / ry, (-x1 - cx1) / rx, (-y1 - cy1) / ry);
    if !sweep && dt > 0.0 {
        dt -= std::f64::consts::TAU;
    } else if sweep && dt < 0.0 {
        dt += std::f64::consts::TAU;
    }
    let n = ((dt.abs() / std::f64::consts::FRAC_PI_2) * 8.0).ceil().max(2.0) as usize;
    for k in 1..=n {
        let t = t1 + dt * k as f64 / n as f64;
        let (ex, ey) = (rx * t.cos(), ry * t.sin());
        out.push((cs * ex - sn * ey + cx, sn * ex + cs * ey + cy));
    }
}

/// Ink coverage (0 to 1) of `outline` drawn with its origin at (`x0`, `y0`) pixels and `scale`
/// pixels per user unit, added into `canvas` (row-major, `width` wide), 4 × 4 samples a pixel.
pub fn fill(outline: &Outline, canvas: &mut [f32], width: usize, x0: f64, y0: f64, scale: f64) {
    const SS: usize = 4;
    let height = canvas.len() / width;
    let edges: Vec<((f64, f64), (f64, f64))> = outline
        .polygons
        .iter()
        .flat_map(|p| (0..p.len()).map(move |i| (p[i], p[(i + 1) % p.len()])))
        .map(|((ax, ay), (bx, by))| ((x0 + ax * scale, y0 + ay * scale), (x0 + bx * scale, y0 + by * scale)))
        .collect();
    let ymin = edges.iter().map(|e| e.0 .1.min(e.1 .1)).fold(f64::MAX, f64::min).floor().max(0.0) as usize;
    let ymax = (edges.iter().map(|e| e.0 .1.max(e.1 .1)).fold(f64::MIN, f64::max).ceil() as usize).min(height);
    let mut xs = Vec::new();
    for py in ymin..ymax {
        for sy in 0..SS {
            let yy = py as f64 + (sy as f64 + 0.5) / SS as f64;
            xs.clear();
            for &((ax, ay), (bx, by)) in &edges {
                if (ay <= yy) != (by <= yy) {
                    xs.push(ax + (yy - ay) * (bx - ax) / (by - ay));
                }
            }
            xs.sort_by(|a, b| a.partial_cmp(b).unwrap());
            for pair in xs.chunks(2) {
                if pair.len() < 2 {
                    continue;
                }
                // Horizontal coverage of [a, b) on this sample row, exact per pixel.
                let (a, b) = (pair[0].max(0.0), pair[1].min(width as f64));
                if b <= a {
                    continue;
                }
                let w = 1.0 / SS as f32;
                let (ia, ib) = (a.floor() as usize, (b.ceil() as usize).min(width));
                for px in ia..ib {
                    let lo = a.max(px as f64);
                    let hi = b.min(px as f64 + 1.0);
                    if hi > lo {
                        let c = &mut canvas[py * width + px];
                        *c = (*c + w * (hi - lo) as f32).min(1.0);
                    }
                }
            }
        }
    }
}
