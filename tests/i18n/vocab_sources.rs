//! Every model file that writes a labelled vocabulary (`Variant = "wire" / "Label"`) is one of
//! the sources the portal's Spanish vocabulary test reads (`SOURCES` in
//! `src/i18n/vocab/tests.rs`). That test runs in the browser and reads only the files named to
//! it, so a vocabulary in a new model file would pass it unseen; this one walks the model's
//! whole tree.

use std::fs;
use std::path::Path;

use super::root;

/// Whether `source` writes a label: a line, not a comment, with `= "wire" / "Label"` (the
/// browser test's `written_labels` reads the same shape).
fn writes_labels(source: &str) -> bool {
    source.lines().map(str::trim).filter(|l| !l.starts_with("//")).any(|l| {
        l.split_once("= \"")
            .and_then(|(_, after)| after.split_once("\" / \""))
            .is_some_and(|(_, label)| label.contains('"'))
    })
}

/// The `.rs` files under `dir`, as paths relative to `base` with `/` between parts.
fn sources(base: &Path, dir: &Path, out: &mut Vec<String>) {
    for entry in fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(base, &path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(base).unwrap();
            out.push(rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/"));
        }
    }
}

#[test]
fn every_model_file_with_labels_is_read_by_the_spanish_vocabulary_test() {
    let model = root().join("crates/model/src");
    let test = fs::read_to_string(root().join("src/i18n/vocab/tests.rs")).expect("src/i18n/vocab/tests.rs");
    let mut files = Vec::new();
    sources(&model, &model, &mut files);
    let labelled: Vec<&String> =
        files.iter().filter(|f| writes_labels(&fs::read_to_string(model.join(f.as_str())).unwrap())).collect();
    let unread: Vec<&&String> =
        labelled.iter().filter(|f| !test.contains(&format!("\"../../../crates/model/src/{f}\""))).collect();
    assert!(
        unread.is_empty(),
        "model files writing labels that src/i18n/vocab/tests.rs does not read (add them to SOURCES, and their vocabularies to VOCABULARIES): {unread:?}"
    );
    assert!(labelled.len() >= 16, "the model's labelled files were found: {labelled:?}");
}

#[test]
fn a_label_line_is_told_from_a_wire_value_and_a_comment() {
    assert!(writes_labels("        Settled = \"settled\" / \"Settled\","));
    assert!(!writes_labels("        Settled = \"settled\","), "a wire value with no label");
    assert!(!writes_labels("    // Settled = \"settled\" / \"Settled\","), "a comment");
}
