//! What the page computes from paths and sizes: breadcrumbs, parents, joins, moves' targets
//! and counts for people. Paths are the API's: `/`-separated, relative to the vault root, `""`
//! for the root.

/// `a/b/c` → `[("a", "a"), ("b", "a/b"), ("c", "a/b/c")]`.
pub fn crumbs(path: &str) -> Vec<(String, String)> {
    let mut at = String::new();
    path.split('/')
        .filter(|s| !s.is_empty())
        .map(|name| {
            if !at.is_empty() {
                at.push('/');
            }
            at.push_str(name);
            (name.to_string(), at.clone())
        })
        .collect()
}

pub fn parent(path: &str) -> String {
    path.rsplit_once('/').map(|(p, _)| p.to_string()).unwrap_or_default()
}

pub fn name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

pub fn join(folder: &str, name: &str) -> String {
    if folder.is_empty() {
        name.to_string()
    } else {
        format!("{folder}/{name}")
    }
}

/// "3 folders, 1 file" style counts (the figure in the user's locale).
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", crate::format::group(n), if n == 1 { one } else { many })
}

/// An entry's icon class and `data-kind`: a folder's or a file's.
pub fn kind(folder: bool) -> (&'static str, &'static str) {
    if folder {
        ("vault-icon vault-icon-folder", "folder")
    } else {
        ("vault-icon vault-icon-file", "file")
    }
}

/// [`count`] with a catalogue's noun, `(one, many)`.
pub fn counted(n: u64, noun: (&str, &str)) -> String {
    count(n, noun.0, noun.1)
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn breadcrumbs_parents_and_joins_follow_the_path() {
        assert_eq!(crumbs(""), vec![]);
        assert_eq!(
            crumbs("Clients/Acme"),
            vec![("Clients".into(), "Clients".into()), ("Acme".into(), "Clients/Acme".into())]
        );
        assert_eq!(parent("Clients/Acme"), "Clients");
        assert_eq!(parent("Clients"), "");
        assert_eq!(join("", "a"), "a");
        assert_eq!(join("a", "b c"), "a/b c");
        assert_eq!(name("a/b/rapport été.pdf"), "rapport été.pdf");
    }

    #[wasm_bindgen_test]
    fn counts_read_as_people_write_them() {
        assert_eq!(count(1, "file", "files"), "1 file");
        assert_eq!(count(3, "file", "files"), "3 files");
    }
}
