//! The first screen's fonts, for index.html's early script to ask the browser for while the
//! portal loads (xtask/src/preload.rs).
//!
//! A renderer's first use of a font (a family at a weight and a size) costs 0.5–3 ms of its
//! main thread: a family match and a render style, each a round trip to the browser process,
//! one more for every family of a stack the machine does not have (the monospace stack misses
//! four on Linux). Asked for by the page's own text they all fell inside the first frame's
//! style and layout: 10–18 ms of its 30–44 ms on /accounts (traced). Asked for by measuring a
//! word on a canvas, 4 ms of them a task, they come from the same per-process cache in the main
//! thread's waits for the network instead: that frame 9–13 ms, fonts about 1 ms of it.
//!
//! The stacks are main.css's `--font-ui` and `--font-mono`, read from the stylesheet; the
//! weights and sizes are [`FIRST_SCREEN`], which tests/e2e/shell.rs checks against every text
//! the first screen shows.

use anyhow::{bail, Result};

/// Which of main.css's two stacks a text style is set in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stack {
    Ui,
    Mono,
}

/// The text styles of the shell and a data table (weight, size in CSS pixels, stack): /accounts
/// at a desktop width, from its brand (1.1rem bold) to its sort arrows (0.75em of a 0.8rem
/// label), the costliest and the most used first.
const FIRST_SCREEN: &[(u16, &str, Stack)] = &[
    (400, "12.24", Stack::Mono), // identifiers in table cells (first: a miss per absent family)
    (400, "15", Stack::Ui),      // body, buttons, inputs
    (400, "14.4", Stack::Ui),    // table cells, the signed-in user
    (600, "12.8", Stack::Ui),    // filter labels, column headers
    (600, "12", Stack::Ui),      // status badges
    (500, "15", Stack::Ui),      // navigation links
    (400, "12", Stack::Ui),      // the environment badge
    (600, "9.6", Stack::Ui),     // sort arrows
    (700, "17.6", Stack::Ui),    // the brand
    (700, "25.6", Stack::Ui),    // the page's heading
    (400, "16.8", Stack::Ui),    // icon buttons
    (600, "15", Stack::Ui),      // the bulk bar's count, a primary button
];

/// Each of [`FIRST_SCREEN`] as a CSS `font` (`600 12.8px system-ui, …`), its stack as
/// `main_css` names it.
pub fn first_screen(main_css: &str) -> Result<Vec<String>> {
    let ui = stack(main_css, "--font-ui")?;
    let mono = stack(main_css, "--font-mono")?;
    Ok(FIRST_SCREEN
        .iter()
        .map(|(weight, px, s)| format!("{weight} {px}px {}", if *s == Stack::Ui { ui } else { mono }))
        .collect())
}

/// The value of the custom property `name` (its first declaration).
fn stack<'a>(css: &'a str, name: &str) -> Result<&'a str> {
    let Some(at) = css.find(&format!("{name}:")) else {
        bail!("main.css declares no {name} (xtask/src/fonts.rs reads it)")
    };
    let value = &css[at + name.len() + 1..];
    let Some(end) = value.find(';') else { bail!("main.css: {name} has no end") };
    let value = value[..end].trim();
    if value.is_empty() || value.contains(['\'', '<']) {
        bail!("main.css: {name} is {value:?}: a stack of family names, double-quoted where they need it");
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_first_screen_font_is_a_weight_a_size_and_a_stack_of_main_css() {
        let css = ".moneydesk {\n  --font-ui: system-ui, \"Segoe UI\", sans-serif;\n  --font-mono: Menlo, monospace;\n  font-family: var(--font-ui);\n}";
        let fonts = first_screen(css).unwrap();
        assert_eq!(fonts[0], "400 12.24px Menlo, monospace");
        assert_eq!(fonts[1], "400 15px system-ui, \"Segoe UI\", sans-serif");
        assert_eq!(fonts.len(), FIRST_SCREEN.len());
    }

    #[test]
    fn a_stylesheet_without_the_stacks_or_with_an_apostrophe_is_refused() {
        assert!(first_screen(".moneydesk { --font-ui: a; }").unwrap_err().to_string().contains("--font-mono"));
        let quoted = ".moneydesk { --font-ui: 'Segoe UI'; --font-mono: monospace; }";
        assert!(first_screen(quoted).unwrap_err().to_string().contains("double-quoted"));
    }

    #[test]
    fn the_portals_main_css_names_both_stacks() {
        let css = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../style/main.css")).unwrap();
        let fonts = first_screen(&css).unwrap();
        assert!(fonts[1].starts_with("400 15px system-ui"), "{fonts:?}");
    }
}
