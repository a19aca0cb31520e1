//! The page's place (whose vault, which folder, in what order, which page, or its trash) as the URL holds
//! it, and the usage line: pure functions of the query and the records.

use moneydesk_model::vault::VaultUsage;

use super::paths::counted;
use crate::format::bytes;
use crate::i18n::{fill, vault::text};

/// The order a folder is listed in unless the URL says otherwise.
const DEFAULT_SORT: &str = "name,asc";

/// The page's place: whose vault, which folder, in what order, which page.
#[derive(Clone, Debug, PartialEq)]
pub struct Place {
    pub user: String,
    pub path: String,
    pub sort: String,
    pub page: u32,
    /// The trash shown instead of a folder (`trash=1`).
    pub trash: bool,
}

impl Place {
    /// The place the query names (`get` reads a parameter). Only an admin reaches another
    /// user's vault; anyone else sees their own (`own`).
    pub fn from_query(get: impl Fn(&str) -> Option<String>, admin: bool, own: &str) -> Place {
        Place {
            user: get("user").filter(|u| !u.is_empty() && admin).unwrap_or_else(|| own.to_string()),
            path: get("path").unwrap_or_default().trim_matches('/').to_string(),
            sort: get("sort").filter(|s| !s.is_empty()).unwrap_or_else(|| DEFAULT_SORT.to_string()),
            page: get("page").and_then(|p| p.parse().ok()).filter(|p| *p >= 1).unwrap_or(1),
            trash: get("trash").is_some_and(|t| t == "1"),
        }
    }

    /// The root of `user`'s vault, in the default order.
    pub fn vault_of(user: String) -> Place {
        Place { user, path: String::new(), sort: DEFAULT_SORT.into(), page: 1, trash: false }
    }

    /// The query naming this place, what is the default left out.
    pub fn query(&self, admin: bool, own: &str) -> Vec<(String, String)> {
        let mut pairs: Vec<(String, String)> = Vec::new();
        if admin && self.user != own {
            pairs.push(("user".into(), self.user.clone()));
        }
        if !self.path.is_empty() {
            pairs.push(("path".into(), self.path.clone()));
        }
        if self.sort != DEFAULT_SORT {
            pairs.push(("sort".into(), self.sort.clone()));
        }
        if self.page > 1 {
            pairs.push(("page".into(), self.page.to_string()));
        }
        if self.trash {
            pairs.push(("trash".into(), "1".into()));
        }
        pairs
    }
}

/// `u1: 2 folders, 1 file, 3 versions · 46 bytes (46 bytes stored)`.
pub fn usage_text(u: &VaultUsage) -> String {
    let t = text();
    fill(
        t.usage,
        &[
            &u.user_id,
            &counted(u.folders, t.folder),
            &counted(u.files, t.file),
            &counted(u.versions, t.version),
            &bytes(u.bytes),
            &bytes(u.stored_bytes),
        ],
    )
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn query<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string())
    }

    #[wasm_bindgen_test]
    fn only_an_admin_reaches_another_users_vault() {
        let asked = [("user", "u2"), ("path", "/a/b/"), ("sort", "size,desc"), ("page", "3")];
        let admin = Place::from_query(query(&asked), true, "u1");
        assert_eq!(
            admin,
            Place { user: "u2".into(), path: "a/b".into(), sort: "size,desc".into(), page: 3, trash: false }
        );
        assert_eq!(Place::from_query(query(&asked), false, "u1").user, "u1");
        assert_eq!(Place::from_query(query(&[("page", "0")]), true, "u1"), Place::vault_of("u1".into()));
    }

    #[wasm_bindgen_test]
    fn the_query_leaves_the_defaults_out() {
        assert!(Place::vault_of("u1".into()).query(true, "u1").is_empty());
        let p = Place { user: "u2".into(), path: "a".into(), sort: "size,desc".into(), page: 2, trash: false };
        let pairs = p.query(true, "u1");
        let keys: Vec<&str> = pairs.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["user", "path", "sort", "page"]);
        let trash = Place { trash: true, ..Place::vault_of("u1".into()) };
        assert_eq!(trash.query(true, "u1"), [("trash".to_string(), "1".to_string())]);
        assert_eq!(Place::from_query(query(&[("trash", "1")]), false, "u1"), trash);
        assert_eq!(p.query(false, "u1")[0].0, "path", "no user unless an admin");
        let back = Place::from_query(
            query(&[("user", "u2"), ("path", "a"), ("sort", "size,desc"), ("page", "2")]),
            true,
            "u1",
        );
        assert_eq!(back, p);
    }

    #[wasm_bindgen_test]
    fn the_usage_reads_as_a_sentence() {
        let u = VaultUsage { user_id: "u1".into(), folders: 1, files: 2, versions: 3, bytes: 1536, stored_bytes: 46 };
        assert_eq!(usage_text(&u), "u1: 1 folder, 2 files, 3 versions · 1.5 KiB (46 bytes stored)");
    }
}
