//! Name normalisation and typo distance for the directory search.
//!
//! Names are compared as words: upper case, punctuation dropped, "N.A." read as "NA" (a dot
//! after a single letter joins the letters; any other dot separates words), "&" read as
//! "AND", an apostrophe dropped ("PEOPLE'S" = "PEOPLES"), and the Fed's usual abbreviations
//! spelled out ("NATL" = "NATIONAL", "FCU" = "FEDERAL CREDIT UNION"), so a query and a name
//! written differently meet in the middle.

/// Words that need not match: "BANK OF AMERICA" finds "BANK AMERICA" and the reverse.
pub const STOP_WORDS: [&str; 3] = ["AND", "OF", "THE"];

pub fn is_stop_word(w: &str) -> bool {
    STOP_WORDS.contains(&w)
}

/// The Fed's abbreviations and their spelled-out words (applied to names and queries alike).
const ABBREVIATIONS: &[(&str, &[&str])] = &[
    ("NATL", &["NATIONAL"]),
    ("NAT", &["NATIONAL"]),
    ("BK", &["BANK"]),
    ("BNK", &["BANK"]),
    ("TR", &["TRUST"]),
    ("TRST", &["TRUST"]),
    ("CO", &["COMPANY"]),
    ("SVGS", &["SAVINGS"]),
    ("SVG", &["SAVINGS"]),
    ("SAV", &["SAVINGS"]),
    ("ASSN", &["ASSOCIATION"]),
    ("ASSOC", &["ASSOCIATION"]),
    ("FED", &["FEDERAL"]),
    ("CR", &["CREDIT"]),
    ("UN", &["UNION"]),
    ("FCU", &["FEDERAL", "CREDIT", "UNION"]),
    ("CU", &["CREDIT", "UNION"]),
    ("FSB", &["FEDERAL", "SAVINGS", "BANK"]),
    ("SB", &["SAVINGS", "BANK"]),
    ("MTG", &["MORTGAGE"]),
    ("INTL", &["INTERNATIONAL"]),
    ("CTY", &["COUNTY"]),
    ("CNTY", &["COUNTY"]),
    ("CMNTY", &["COMMUNITY"]),
    ("MUT", &["MUTUAL"]),
];

/// The words of `s`, normalised as described in the module docs.
pub fn words(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    // Letters since the word started or since the last joining dot.
    let mut seg = 0usize;
    for c in s.chars() {
        if c.is_alphanumeric() {
            cur.extend(c.to_uppercase());
            seg += 1;
        } else if c == '\'' || c == '\u{2019}' {
            // PEOPLE'S -> PEOPLES
        } else if c == '.' && seg == 1 {
            // N.A. -> NA, U.S. -> US, J.P.MORGAN -> JPMORGAN: a dot after a single letter
            // keeps the word open. After a longer run (ST.LOUIS) it separates words.
            seg = 0;
        } else if c == '&' {
            push_word(&mut out, &mut cur);
            out.push("AND".into());
            seg = 0;
        } else {
            push_word(&mut out, &mut cur);
            seg = 0;
        }
    }
    push_word(&mut out, &mut cur);
    out
}

fn push_word(out: &mut Vec<String>, cur: &mut String) {
    if cur.is_empty() {
        return;
    }
    let w = std::mem::take(cur);
    match ABBREVIATIONS.iter().find(|(a, _)| *a == w) {
        Some((_, full)) => out.extend(full.iter().map(|f| f.to_string())),
        None => out.push(w),
    }
}

/// The words joined by single spaces: the comparable form of a city.
pub fn key(s: &str) -> String {
    words(s).join(" ")
}

/// How many edits a query word of this length may be away from a name word.
pub fn allowed_edits(len: usize) -> usize {
    match len {
        0..=3 => 0,
        4..=7 => 1,
        _ => 2,
    }
}

/// Optimal string alignment distance (insert, delete, substitute, swap two neighbours),
/// or `None` when it exceeds `max`. Byte-wise: the words are upper-case ASCII in practice.
pub fn osa_within(a: &[u8], b: &[u8], max: usize) -> Option<usize> {
    if a.len().abs_diff(b.len()) > max {
        return None;
    }
    let (n, m) = (a.len(), b.len());
    let mut prev2 = vec![0usize; m + 1];
    let mut prev: Vec<usize> = (0..=m).collect();
    let mut cur = vec![0usize; m + 1];
    for i in 1..=n {
        cur[0] = i;
        let mut row_min = cur[0];
        for j in 1..=m {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(prev2[j - 2] + 1);
            }
            cur[j] = v;
            row_min = row_min.min(v);
        }
        if row_min > max {
            return None;
        }
        std::mem::swap(&mut prev2, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    let d = prev[m];
    (d <= max).then_some(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn punctuation_na_and_ampersand() {
        assert_eq!(words("BANK OF AMERICA, N.A."), ["BANK", "OF", "AMERICA", "NA"]);
        assert_eq!(words("Bank of America NA"), ["BANK", "OF", "AMERICA", "NA"]);
        assert_eq!(words("U.S. BANK"), ["US", "BANK"]);
        assert_eq!(words("STATE STREET BANK & TRUST CO"), ["STATE", "STREET", "BANK", "AND", "TRUST", "COMPANY"]);
        assert_eq!(words("ST.LOUIS"), ["ST", "LOUIS"]);
        assert_eq!(words("PEOPLE'S FIRST NAT'L BK"), ["PEOPLES", "FIRST", "NATIONAL", "BANK"]);
        assert_eq!(words("MAC FCU"), ["MAC", "FEDERAL", "CREDIT", "UNION"]);
        assert_eq!(words("N. QUINCY"), ["N", "QUINCY"]);
        assert_eq!(words("J.P.MORGAN CHASE"), ["JPMORGAN", "CHASE"]);
        assert_eq!(key("  new-york "), "NEW YORK");
        assert!(words(" ,.&").iter().all(|w| w == "AND"));
    }

    #[test]
    fn distance_is_bounded() {
        assert_eq!(osa_within(b"AMERICA", b"AMERCIA", 1), Some(1));
        assert_eq!(osa_within(b"AMERICA", b"AMERICA", 0), Some(0));
        assert_eq!(osa_within(b"WELLS", b"WELS", 1), Some(1));
        assert_eq!(osa_within(b"CHASE", b"CHAIR", 1), None);
        assert_eq!(osa_within(b"JPMORGAN", b"JPMORAGN", 2), Some(1));
        assert_eq!(osa_within(b"A", b"ABCD", 2), None);
    }
}
