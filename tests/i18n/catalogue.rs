//! The portal's words live in its catalogue (`src/i18n/`): a string literal a person reads,
//! written in a `view!` of a portal module, fails this test, unless the module is listed in
//! `src/i18n/pending.txt` (the modules not converted yet, one path or folder a line). A listed
//! module with no such literal fails too, so the list only shrinks. Server-free:
//! `cargo test -p moneydesk-e2e --test i18n_catalogue`.
//!
//! What counts as words in a `view!`: a text node (`<h1>"Accounts"</h1>`), the value of an
//! attribute or prop people read (`title`, `aria-label`, `placeholder`, `caption`, `noun`, ...),
//! a literal as a block's value (`{ "Sign in" }`), and any other literal with letters and a space
//! (`format!("Page {} of {}", ..)`). Ids, classes, keys and symbols (`"☰"`) are not words.

use std::fs;
use std::path::{Path, PathBuf};

mod vocab_sources;

/// Attributes and props whose value people read (or hear).
const READ_ATTRIBUTES: &[&str] = &[
    "title",
    "aria-label",
    "aria-description",
    "aria-valuetext",
    "aria-roledescription",
    "placeholder",
    "alt",
    "label",
    "caption",
    "noun",
    "summary",
    "heading",
    "message",
    "text",
    "confirm",
    "idle_message",
    "empty",
    "hint",
];

/// A literal a person would read, where it is in its file.
#[derive(Debug, PartialEq)]
struct Finding {
    line: usize,
    text: String,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ is inside the checkout").to_path_buf()
}

/// The words in `source`'s `view!` macros (the code after `#[cfg(test)]` is not read).
fn findings(source: &str) -> Vec<Finding> {
    let source = source.split("#[cfg(test)]").next().unwrap_or_default();
    let chars: Vec<char> = source.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    // Depth of the `view!` body we are in (0: outside), and the tokens seen before a literal.
    let mut depth = 0usize;
    let mut last = String::new();
    let mut before_last = String::new();
    let mut line = 1;
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
        }
        if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        if c == '/' && chars.get(i + 1) == Some(&'*') {
            i += 2;
            while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                line += usize::from(chars[i] == '\n');
                i += 1;
            }
            i += 2;
            continue;
        }
        // A string literal: plain, byte or raw (`r#"..."#`).
        let raw = (c == 'r' || (c == 'b' && chars.get(i + 1) == Some(&'r')))
            && !chars.get(i.wrapping_sub(1)).is_some_and(|p| p.is_alphanumeric() || *p == '_');
        if c == '"' || (raw && matches!(chars.get(i + 1 + usize::from(c == 'b')), Some('"' | '#'))) {
            let start_line = line;
            let mut j = i;
            let text;
            if c == '"' {
                j += 1;
                let mut s = String::new();
                while j < chars.len() && chars[j] != '"' {
                    if chars[j] == '\\' {
                        j += 1;
                    }
                    line += usize::from(chars[j] == '\n');
                    s.push(chars[j]);
                    j += 1;
                }
                text = s;
                j += 1;
            } else {
                j += 1 + usize::from(c == 'b');
                let hashes = chars[j..].iter().take_while(|h| **h == '#').count();
                j += hashes + 1;
                let end: String = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
                let rest: String = chars[j..].iter().collect();
                let len = rest.find(&end).unwrap_or(rest.len());
                text = rest[..len].to_string();
                line += text.matches('\n').count();
                j += text.chars().count() + end.chars().count();
            }
            if depth > 0 && reads_as_words(&text, &last, &before_last) {
                out.push(Finding { line: start_line, text });
            }
            before_last = std::mem::take(&mut last);
            last = "\"".into();
            i = j;
            continue;
        }
        // A char literal (`'x'`, `'\n'`) rather than a lifetime.
        if c == '\'' && (chars.get(i + 2) == Some(&'\'') || chars.get(i + 1) == Some(&'\\')) {
            i += if chars.get(i + 1) == Some(&'\\') {
                chars[i..].iter().skip(1).position(|x| *x == '\'').map_or(1, |p| p + 2)
            } else {
                3
            };
            continue;
        }
        if c.is_alphanumeric() || c == '_' || c == '-' && depth > 0 && last_is_word(&last) && !last.ends_with('-') {
            // Words, and in markup `aria-label`: one token with its dashes.
            let start = i;
            while i < chars.len()
                && (chars[i].is_alphanumeric()
                    || chars[i] == '_'
                    || (depth > 0 && chars[i] == '-' && chars.get(i + 1).is_some_and(|n| n.is_alphabetic())))
            {
                i += 1;
            }
            let word: String = chars[start..i.max(start + 1)].iter().collect();
            i = i.max(start + 1);
            if depth == 0 && word == "view" {
                let after: String = chars[i..].iter().take_while(|x| **x != '{' && **x != '(').collect();
                if after.trim() == "!" {
                    i += after.len() + 1;
                    depth = 1;
                    before_last.clear();
                    last.clear();
                    continue;
                }
            }
            before_last = std::mem::replace(&mut last, word);
            continue;
        }
        if depth > 0 {
            match c {
                '{' | '(' | '[' => depth += 1,
                '}' | ')' | ']' => depth -= 1,
                _ => {}
            }
        }
        if !c.is_whitespace() {
            before_last = std::mem::replace(&mut last, c.to_string());
        }
        i += 1;
    }
    out
}

fn last_is_word(t: &str) -> bool {
    t.chars().next().is_some_and(|c| c.is_alphanumeric())
}

/// Whether a literal after the tokens `before_last last` is words a person reads.
fn reads_as_words(text: &str, last: &str, before_last: &str) -> bool {
    if !text.chars().any(char::is_alphabetic) {
        return false; // symbols, digits, `{}/`
    }
    match last {
        "=" => READ_ATTRIBUTES.contains(&before_last),
        // A block's value, except an attribute's `"true"`/`"false"` (`aria-expanded`).
        ">" | "{" | "\"" => !matches!(text, "true" | "false"),
        _ => text.contains(' '),
    }
}

/// Every portal module, relative to the checkout (`src/i18n/` is the catalogue itself; test
/// modules, `tests.rs` and `tests/`, are not read).
fn modules(dir: &Path, out: &mut Vec<String>) {
    let mut entries: Vec<_> = fs::read_dir(dir).expect("reading src/").flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        let rel = path.strip_prefix(root()).unwrap().to_string_lossy().replace('\\', "/");
        if path.is_dir() {
            if rel != "src/i18n" {
                modules(&path, out);
            }
        } else if rel.ends_with(".rs") && !rel.ends_with("/tests.rs") && !rel.contains("/tests/") {
            out.push(rel);
        }
    }
}

/// `src/i18n/pending.txt`: the paths (a folder ends in `/`), comments after `#` dropped.
fn pending() -> Vec<String> {
    let list = fs::read_to_string(root().join("src/i18n/pending.txt")).expect("src/i18n/pending.txt");
    list.lines().map(|l| l.split('#').next().unwrap_or_default().trim().to_string()).filter(|l| !l.is_empty()).collect()
}

#[test]
fn converted_modules_write_no_words_outside_the_catalogue() {
    let pending = pending();
    let mut files = Vec::new();
    modules(&root().join("src"), &mut files);
    let mut problems = Vec::new();
    let mut still_pending: Vec<&String> = Vec::new();
    for file in &files {
        let found = findings(&fs::read_to_string(root().join(file)).unwrap());
        match pending.iter().find(|p| *p == file || (p.ends_with('/') && file.starts_with(p.as_str()))) {
            Some(p) if !found.is_empty() => still_pending.push(p),
            Some(_) => {}
            None => problems.extend(found.iter().map(|f| format!("{file}:{}: {:?}", f.line, f.text))),
        }
    }
    assert!(
        problems.is_empty(),
        "words written in a view! outside the catalogue (put them in src/i18n/, or list the module in src/i18n/pending.txt):\n{}",
        problems.join("\n")
    );
    let stale: Vec<&String> = pending.iter().filter(|p| !still_pending.contains(p)).collect();
    assert!(
        stale.is_empty(),
        "src/i18n/pending.txt lists modules with no words left to convert (drop them): {stale:?}"
    );
}

#[test]
fn words_in_markup_are_found_and_ids_classes_and_symbols_are_not() {
    let source = r##"
        fn page() -> impl IntoView {
            let t = text();
            // "A comment" is not read.
            view! {
                <section class="page collections-page" id="main" data-testid="x">
                    <h1>"Accounts"</h1>
                    <h2>{t.heading}</h2>
                    <button aria-label="Close the drawer" title=t.close on:click=move |_| go("next")>"✕"</button>
                    <p>{move || if busy.get() { "Checking the token…" } else { t.ready }}</p>
                    <DataTable id="accounts" caption="Accounts" noun=t.noun/>
                    <span>{format!("Page {} of {}", page, pages)}</span>
                    <a href=format!("/fees?rail={rail}")>{t.fees}</a>
                </section>
            }
        }
        #[cfg(test)]
        mod tests { fn t() { view! { <p>"In a test"</p> }; } }
    "##;
    let texts: Vec<String> = findings(source).into_iter().map(|f| f.text).collect();
    assert_eq!(texts, ["Accounts", "Close the drawer", "Checking the token…", "Accounts", "Page {} of {}"]);
    let converted = "view! { <h1 class=\"page\">{t.heading}</h1> <i aria-hidden=\"true\">\"◆\"</i> }";
    assert_eq!(findings(converted), [], "ids, classes and symbols are not words");
    let lines = findings("fn a() {}\n\nfn b() { view! {\n <p>\"Here\"</p> } }");
    assert_eq!(lines, [Finding { line: 4, text: "Here".into() }], "a finding names its line");
}
