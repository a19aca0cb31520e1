//! Issue 47's measure of the reader on the labelled crops of `micr-lines/` (read from
//! `../shared`, never copied): expected and read lines aligned by edit distance (spaces not
//! significant), then characters right, substituted (a confident wrong character), marked `*`,
//! missing or inserted; lines exact; routing numbers exact, flagged or silently wrong (a wrong
//! routing number that passes ABA, unflagged); the confusion of the 14 symbols; and the
//! confidence threshold's trade-off (characters right against characters flagged).

use moneydesk_checkimage::micr::{parse, MicrLine, Symbol};

use super::labelled;

/// The crops of `micr-lines/`: (name, expected line with the Unicode symbols), by name.
pub fn micr_lines() -> Vec<(String, String)> {
    labelled("micr-lines")
}

/// Labels of `micr-lines/` that say otherwise than the picture (checked by eye at 3× on the
/// crop): (name, the line as printed, what the label gets wrong). The measure is reported on
/// the labels as they are and, beside it, with these corrected; nothing is tuned to either.
pub const CORRECTIONS: [(&str, &str, &str); 9] = [
    ("reallife_gi_1200254037-0", "⑆121000358⑆2417⑉02727⑈", "stops at the dash: 02727 and a cut ⑈ follow"),
    ("reallife_gi_1200254378-0", "⑆2222222⑆123111555⑈5284", "555 printed, 55 labelled"),
    ("reallife_gi_1200254439-0", "⑆85871713⑆18635887571⑆11638", "the 1 before the second ⑆ left out"),
    ("reallife_gi_1200254498-0", "⑈52353307⑈⑆113008465⑆9000035⑈", "9000035 printed, 90000035 labelled"),
    ("reallife_gi_1200254504-0", "⑈30635925⑈⑆091905295⑆738", "the ⑈ closing 30635925 left out"),
    ("reallife_gi_1200254542-0", "⑆1222⑉1606⑆001⑉252328⑈", "1222 printed, 122 labelled"),
    ("reallife_gi_1200254611-0", "⑈01001⑈⑆12345⑉678⑆12345⑉6789⑈", "01001 printed, 1001 labelled"),
    (
        "reallife_gi_1200254718-0",
        "⑆123454321⑆0123454321⑈9999",
        "symbols and the leading 0 of the second field out of place",
    ),
    (
        "reallife_gi_1200255019-0",
        "⑆123400056⑆9876543201⑈",
        "123400056 printed (it fails ABA), 133400056 labelled; the 6 of 9876543201 left out",
    ),
];

/// The label of `name` as printed: the correction when there is one.
pub fn corrected<'a>(name: &str, label: &'a str) -> &'a str {
    CORRECTIONS.iter().find(|c| c.0 == name).map_or(label, |c| c.1)
}

/// The picture of a `micr-lines/` crop in gray.
pub fn micr_line(name: &str) -> image::GrayImage {
    super::gray(&format!("micr-lines/{name}.tif"))
}

/// One step of an alignment: an expected character against a read one, or either alone.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Step {
    Pair(char, char),
    Missing(char),
    Inserted(char),
}

/// The cheapest alignment (Levenshtein, each edit 1) of `expected` with `read`, spaces left
/// out; among equal costs, pairs before gaps.
pub fn align(expected: &str, read: &str) -> Vec<Step> {
    let a: Vec<char> = expected.chars().filter(|c| !c.is_whitespace()).collect();
    let b: Vec<char> = read.chars().filter(|c| !c.is_whitespace()).collect();
    let (n, m) = (a.len(), b.len());
    let mut d = vec![vec![0usize; m + 1]; n + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for j in 0..=m {
        d[0][j] = j;
    }
    for i in 1..=n {
        for j in 1..=m {
            d[i][j] = (d[i - 1][j - 1] + usize::from(a[i - 1] != b[j - 1])).min(d[i - 1][j] + 1).min(d[i][j - 1] + 1);
        }
    }
    let (mut i, mut j) = (n, m);
    let mut steps = Vec::new();
    while i > 0 || j > 0 {
        if i > 0 && j > 0 && d[i][j] == d[i - 1][j - 1] + usize::from(a[i - 1] != b[j - 1]) {
            steps.push(Step::Pair(a[i - 1], b[j - 1]));
            (i, j) = (i - 1, j - 1);
        } else if i > 0 && d[i][j] == d[i - 1][j] + 1 {
            steps.push(Step::Missing(a[i - 1]));
            i -= 1;
        } else {
            steps.push(Step::Inserted(b[j - 1]));
            j -= 1;
        }
    }
    steps.reverse();
    steps
}

/// The 14 symbols in the order of [`Symbol::index`], as the matrix labels them.
pub const SYMBOLS: [char; 14] = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '⑆', '⑈', '⑇', '⑉'];

fn index(c: char) -> Option<usize> {
    Symbol::from_char(c).map(Symbol::index).filter(|&i| i < 14)
}

/// Thresholds of the trade-off curve: a character below one is shown as `*`.
pub const THRESHOLDS: [f32; 8] = [0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95];

/// Counts over the characters of a point of the trade-off curve.
#[derive(Debug, Clone, Copy, Default)]
pub struct Point {
    pub right: usize,
    pub flagged: usize,
    pub wrong: usize,
}

/// The measure, added up line by line.
#[derive(Debug, Clone, Default)]
pub struct Score {
    pub lines: usize,
    pub exact_lines: usize,
    pub chars: usize,
    pub right: usize,
    /// An expected character read as another, with confidence.
    pub substituted: usize,
    /// An expected character read as `*`.
    pub starred: usize,
    pub missing: usize,
    /// Read characters standing for none: confident ones, and `*`.
    pub inserted: usize,
    pub inserted_stars: usize,
    pub routings: usize,
    pub routing_exact: usize,
    /// Of those exact, how many flagged all the same (uncertain or failing ABA).
    pub routing_exact_flagged: usize,
    /// Read otherwise but flagged: uncertain, failing ABA, or not found.
    pub routing_flagged: usize,
    /// Read otherwise, passing ABA and certain: the worst error.
    pub routing_silently_wrong: Vec<String>,
    /// Rows expected (14 symbols), columns read (14 symbols, `*`, missing).
    pub confusion: [[usize; 16]; 14],
    /// Read with guesses shown (no `*`), then as read, then at each of [`THRESHOLDS`].
    pub curve: Vec<Point>,
    pub not_exact: Vec<(String, String, String)>,
}

fn shown(line: &MicrLine, min: Option<f32>) -> String {
    line.chars
        .iter()
        .map(|c| match min {
            None => c.best_guess.filter(|_| c.symbol == Symbol::Unreadable).unwrap_or(c.symbol).unicode(),
            Some(t) if c.symbol != Symbol::Unreadable && c.confidence >= t => c.symbol.unicode(),
            Some(_) => '*',
        })
        .collect()
}

fn point(expected: &str, read: &str) -> Point {
    let mut p = Point::default();
    for s in align(expected, read) {
        match s {
            Step::Pair(e, r) if e == r => p.right += 1,
            Step::Pair(_, '*') | Step::Inserted('*') => p.flagged += 1,
            Step::Missing(_) => {}
            _ => p.wrong += 1,
        }
    }
    p
}

impl Score {
    /// Adds the reading of one line (`None`: nothing was read).
    pub fn add(&mut self, name: &str, expected: &str, line: Option<&MicrLine>) {
        let empty = MicrLine::default();
        let line = line.unwrap_or(&empty);
        let expected: String = expected.chars().filter(|c| !c.is_whitespace()).collect();
        let read = line.raw.as_str();
        self.lines += 1;
        self.exact_lines += usize::from(read == expected);
        if read != expected {
            self.not_exact.push((name.to_string(), expected.clone(), read.to_string()));
        }
        for s in align(&expected, read) {
            match s {
                Step::Pair(e, r) => {
                    self.chars += 1;
                    if e == r {
                        self.right += 1;
                    } else if r == '*' {
                        self.starred += 1;
                    } else {
                        self.substituted += 1;
                    }
                    let col = if r == '*' { 14 } else { index(r).unwrap_or(14) };
                    if let Some(row) = index(e) {
                        self.confusion[row][col] += 1;
                    }
                }
                Step::Missing(e) => {
                    self.chars += 1;
                    self.missing += 1;
                    if let Some(row) = index(e) {
                        self.confusion[row][15] += 1;
                    }
                }
                Step::Inserted('*') => self.inserted_stars += 1,
                Step::Inserted(_) => self.inserted += 1,
            }
        }
        let truth = parse(&expected);
        // A routing number printed whole: 9 digits between two transit symbols.
        if let Some(r) = truth.routing.as_ref().filter(|r| r.end == r.start + 9 && truth.chars.len() > r.end) {
            let whole = truth.chars[r.end].symbol == Symbol::Transit
                && r.start > 0
                && truth.chars[r.start - 1].symbol == Symbol::Transit
                && r.value.bytes().all(|b| b.is_ascii_digit());
            if whole {
                self.routings += 1;
                match &line.routing {
                    Some(g) if g.value == r.value => {
                        self.routing_exact += 1;
                        self.routing_exact_flagged += usize::from(g.uncertain || !line.routing_valid);
                    }
                    Some(g) if line.routing_valid && !g.uncertain => {
                        self.routing_silently_wrong.push(format!("{name}: {} read {}", r.value, g.value))
                    }
                    _ => self.routing_flagged += 1,
                }
            }
        }
        let points = std::iter::once(shown(line, None))
            .chain(std::iter::once(read.to_string()))
            .chain(THRESHOLDS.iter().map(|&t| shown(line, Some(t))))
            .map(|r| point(&expected, &r));
        if self.curve.is_empty() {
            self.curve = vec![Point::default(); THRESHOLDS.len() + 2];
        }
        for (acc, p) in self.curve.iter_mut().zip(points) {
            acc.right += p.right;
            acc.flagged += p.flagged;
            acc.wrong += p.wrong;
        }
    }

    pub fn char_rate(&self) -> f64 {
        self.right as f64 / self.chars.max(1) as f64
    }

    pub fn line_rate(&self) -> f64 {
        self.exact_lines as f64 / self.lines.max(1) as f64
    }

    /// The summary as Markdown: the table row, the error kinds, the curve and the
    /// confusion matrix.
    pub fn markdown(&self) -> String {
        let pc = |a: usize| 100.0 * a as f64 / self.chars.max(1) as f64;
        let mut s = String::new();
        s += &format!(
            "| characters right | lines exact | routing exact | routing flagged | routing silently wrong | substituted | `*` | missing | inserted (confident / `*`) |\n|---|---|---|---|---|---|---|---|---|\n| {:.2} % ({} of {}) | {:.1} % ({} of {}) | {} of {} ({} of them flagged) | {} | {} | {:.2} % ({}) | {:.2} % ({}) | {:.2} % ({}) | {} / {} |\n",
            100.0 * self.char_rate(),
            self.right,
            self.chars,
            100.0 * self.line_rate(),
            self.exact_lines,
            self.lines,
            self.routing_exact,
            self.routings,
            self.routing_exact_flagged,
            self.routing_flagged,
            self.routing_silently_wrong.len(),
            pc(self.substituted),
            self.substituted,
            pc(self.starred),
            self.starred,
            pc(self.missing),
            self.missing,
            self.inserted,
            self.inserted_stars
        );
        s += "\nConfidence threshold (a character below it shown as `*`): characters right, flagged `*`, confident wrong (substituted or inserted), of the expected characters.\n\n| threshold | right | flagged | confident wrong |\n|---|---|---|---|\n";
        let labels = std::iter::once("none (best guesses for `*`)".to_string())
            .chain(std::iter::once("as read (the reader's own)".to_string()))
            .chain(THRESHOLDS.iter().map(|t| format!("{t:.2}")));
        for (label, p) in labels.zip(&self.curve) {
            s += &format!(
                "| {label} | {:.2} % | {:.2} % | {:.2} % ({}) |\n",
                pc(p.right),
                pc(p.flagged),
                pc(p.wrong),
                p.wrong
            );
        }
        s += "\nConfusion of the 14 symbols (rows expected, columns read; `*` unreadable, `–` missing):\n\n|   |";
        for c in SYMBOLS.iter().map(|c| c.to_string()).chain(["*".into(), "–".into()]) {
            s += &format!(" {c} |");
        }
        s += "\n|---|";
        s += &"---|".repeat(16);
        s += "\n";
        for (row, c) in self.confusion.iter().zip(SYMBOLS) {
            s += &format!("| {c} |");
            for v in row {
                s += &if *v == 0 { " · |".to_string() } else { format!(" {v} |") };
            }
            s += "\n";
        }
        s
    }
}
