//! What the release build needs from the portal's one list of groups (`src/groups.rs`): each
//! split page, the stylesheets only it uses, the scopes that open it and the request it opens
//! on. Read from the source's tokens (the `groups!` invocation, and the path constants of
//! `crates/model/src/paths.rs` it names), so the list stays the one place a group is named.

use std::str::FromStr;

use anyhow::{bail, Context, Result};
use moneydesk_model::collections::{encode_query, CollectionQuery};
use moneydesk_model::Scope;
use proc_macro2::{Delimiter, TokenStream, TokenTree};

/// A page cut into its own chunk, and the `style/NAME.css` files only it uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitPage {
    /// The split's name (the group's slug; `#[wasm_split(name)]`).
    pub split: String,
    pub stylesheets: Vec<String>,
    /// The names of the scopes whose holder may open the page (`admin` among them).
    pub opened_by: Vec<String>,
    /// What the page requests first when its URL has no query (`opens_on: first_page(PATH)`:
    /// the first page of that collection in the table's default view), relative to the API's
    /// base URL; index.html starts it early (`preload.rs`).
    pub first_request: Option<String>,
}

/// The split pages of `src/groups.rs` (`source`), in its order; `paths` is the model's
/// `paths.rs`, where the constants an `opens_on` names are written.
pub fn split_pages(source: &str, paths: &str) -> Result<Vec<SplitPage>> {
    let tokens = TokenStream::from_str(source).map_err(|e| anyhow::anyhow!("src/groups.rs does not tokenize: {e}"))?;
    let body = invocation(tokens.clone(), "groups").context("src/groups.rs has no `groups! { ... }` invocation")?;
    // The home page (`home! { ... }`, written like a group in src/pages/mod.rs, which the
    // caller reads with this file) is split the same way.
    let home = invocation(tokens, "home").unwrap_or_default();
    let mut pages = Vec::new();
    let mut it = body.into_iter().chain(home).peekable();
    while let Some(tree) = it.next() {
        let TokenTree::Ident(slug) = tree else { bail!("src/groups.rs: expected a group's name, found `{tree}`") };
        let Some(TokenTree::Group(fields)) = it.next() else { bail!("src/groups.rs: `{slug}` has no {{ ... }}") };
        let fields: Vec<TokenTree> = fields.stream().into_iter().collect();
        let split = field(&fields, "page")
            .and_then(|v| match v {
                [TokenTree::Ident(kind), TokenTree::Group(_), ..] if kind == "split" => Some(()),
                _ => None,
            })
            .is_some();
        let sheets = match field(&fields, "stylesheets") {
            Some([TokenTree::Group(list), ..]) if list.delimiter() == Delimiter::Bracket => list
                .stream()
                .into_iter()
                .filter_map(|t| match t {
                    TokenTree::Literal(l) => Some(l.to_string().trim_matches('"').to_string()),
                    _ => None,
                })
                .collect(),
            _ => bail!("src/groups.rs: `{slug}` has no `stylesheets: [...]`"),
        };
        let opened_by = match field(&fields, "scope") {
            Some(idents) => opened_by(&slug.to_string(), idents)?,
            None => bail!("src/groups.rs: `{slug}` has no `scope: ...`"),
        };
        let first_request = match field(&fields, "opens_on") {
            None => None,
            Some([TokenTree::Ident(kind), TokenTree::Group(arg)]) if kind == "first_page" => {
                let name = arg.stream().to_string();
                let path = path_constant(paths, &name).with_context(|| {
                    format!(
                        "src/groups.rs: `{slug}` opens on `{name}`, which crates/model/src/paths.rs does not define"
                    )
                })?;
                let pairs = CollectionQuery::default().pairs();
                let pairs: Vec<(&str, String)> = pairs.iter().map(|(k, v)| (k.as_str(), v.clone())).collect();
                Some(format!("{path}?{}", encode_query(&pairs)))
            }
            Some(other) => bail!(
                "src/groups.rs: `{slug}`: `opens_on: {}` is not `first_page(PATH)`",
                TokenStream::from_iter(other.iter().cloned())
            ),
        };
        if split {
            pages.push(SplitPage { split: slug.to_string(), stylesheets: sheets, opened_by, first_request });
        }
    }
    if pages.is_empty() {
        bail!("src/groups.rs lists no `page: split(...)` group");
    }
    Ok(pages)
}

/// `scope: Name` or `scope: Name | Other`: the names of every scope that grants one of them.
fn opened_by(slug: &str, idents: &[TokenTree]) -> Result<Vec<String>> {
    // `scope: any`: every token opens it.
    if matches!(idents, [TokenTree::Ident(i)] if i == "any") {
        return Ok(Scope::ALL.iter().map(|s| s.as_str().to_string()).collect());
    }
    let mut needs = Vec::new();
    for t in idents {
        match t {
            TokenTree::Ident(i) => match Scope::ALL.iter().find(|s| *i == format!("{s:?}")) {
                Some(s) => needs.push(*s),
                None => bail!("src/groups.rs: `{slug}` needs scope `{i}`, which moneydesk_model::Scope does not have"),
            },
            TokenTree::Punct(p) if p.as_char() == '|' => {}
            other => bail!("src/groups.rs: `{slug}`: `{other}` in its scope"),
        }
    }
    Ok(Scope::ALL
        .iter()
        .filter(|held| needs.iter().any(|n| n.granted_by(&[**held])))
        .map(|s| s.as_str().to_string())
        .collect())
}

/// The value of `pub const NAME: &str = "...";` in `source`.
fn path_constant(source: &str, name: &str) -> Option<String> {
    let tokens: Vec<TokenTree> = TokenStream::from_str(source).ok()?.into_iter().collect();
    let at = tokens.windows(3).position(|w| {
        matches!(w, [TokenTree::Ident(c), TokenTree::Ident(n), TokenTree::Punct(colon)]
            if c == "const" && n == name && colon.as_char() == ':')
    })?;
    tokens[at..].iter().take_while(|t| !matches!(t, TokenTree::Punct(p) if p.as_char() == ';')).find_map(|t| match t {
        TokenTree::Literal(l) => Some(l.to_string().trim_matches('"').to_string()),
        _ => None,
    })
}

/// The body of the top-level `NAME! { ... }` (not the `macro_rules! NAME`).
fn invocation(tokens: TokenStream, macro_name: &str) -> Option<TokenStream> {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    trees.windows(3).find_map(|w| match w {
        [TokenTree::Ident(name), TokenTree::Punct(bang), TokenTree::Group(body)]
            if name == macro_name && bang.as_char() == '!' && body.delimiter() == Delimiter::Brace =>
        {
            Some(body.stream())
        }
        _ => None,
    })
}

/// The tokens after `name :` up to the next top-level comma.
fn field<'a>(fields: &'a [TokenTree], name: &str) -> Option<&'a [TokenTree]> {
    let at = fields.windows(2).position(|w| {
        matches!(&w[0], TokenTree::Ident(i) if i == name) && matches!(&w[1], TokenTree::Punct(p) if p.as_char() == ':')
    })?;
    let rest = &fields[at + 2..];
    let end = rest.iter().position(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == ',')).unwrap_or(rest.len());
    Some(&rest[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_split_pages_and_their_stylesheets_are_read_from_the_groups_list() {
        let src = r#"
            macro_rules! groups { ($($x:tt)*) => {} }
            groups! {
                fees { title: "Fee schedules", scope: FeesRead, summary: "a, b",
                       page: split(crate::pages::fees::FeesPage), stylesheets: ["fees"], }
                accounts { title: "Accounts", scope: AccountsRead, summary: "s",
                           page: split(crate::pages::accounts::AccountsPage), stylesheets: ["table", "accounts"],
                           opens_on: first_page(ACCOUNTS) }
                email { title: "Email", scope: EmailSend | EmailVerify, summary: "s",
                        page: split(crate::pages::email::EmailPage), stylesheets: [] }
            }
        "#;
        let paths = r#"
            /// Accounts, by `ACCOUNTS` (a doc comment naming it is not the constant).
            pub const OTHER: &str = "/other";
            pub const ACCOUNTS: &str = "/api/v1/cores/unifi/accounts";
        "#;
        let pages = split_pages(src, paths).unwrap();
        let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            pages,
            [
                SplitPage {
                    split: "fees".into(),
                    stylesheets: names(&["fees"]),
                    opened_by: names(&["fees:read", "admin"]),
                    first_request: None,
                },
                SplitPage {
                    split: "accounts".into(),
                    stylesheets: names(&["table", "accounts"]),
                    opened_by: names(&["accounts:read", "admin"]),
                    first_request: Some("/api/v1/cores/unifi/accounts?page=1&size=10".into()),
                },
                SplitPage {
                    split: "email".into(),
                    stylesheets: vec![],
                    opened_by: names(&["email:send", "email:verify", "admin"]),
                    first_request: None,
                },
            ]
        );
    }

    #[test]
    fn an_unknown_scope_or_path_is_refused_by_name() {
        let page = |scope: &str, opens: &str| {
            format!(r#"groups! {{ a {{ scope: {scope}, page: split(X), stylesheets: [], {opens} }} }}"#)
        };
        let e = split_pages(&page("AccountRead", ""), "").unwrap_err().to_string();
        assert!(e.contains("scope `AccountRead`"), "{e}");
        let e = split_pages(&page("Admin", "opens_on: first_page(NOPE)"), "pub const YES: &str = \"/y\";").unwrap_err();
        assert!(format!("{e:#}").contains("opens on `NOPE`"), "{e:#}");
        let e = split_pages(&page("Admin", "opens_on: ACCOUNTS"), "").unwrap_err().to_string();
        assert!(e.contains("is not `first_page(PATH)`"), "{e}");
    }

    #[test]
    fn a_group_without_its_stylesheets_is_refused_by_name() {
        let src = r#"groups! { fees { title: "F", page: split(X) } }"#;
        let e = split_pages(src, "").unwrap_err().to_string();
        assert!(e.contains("`fees` has no `stylesheets"), "{e}");
    }

    #[test]
    fn the_portals_own_list_reads() {
        // The checkout at run time (a shared target dir may run this binary for another checkout).
        let root = std::path::Path::new(&std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("..");
        let read = |p: &str| std::fs::read_to_string(root.join(p)).unwrap();
        let portal = format!("{}\n{}", read("src/groups.rs"), read("src/pages/mod.rs"));
        let pages = split_pages(&portal, &read("crates/model/src/paths.rs")).unwrap();
        let accounts = pages.iter().find(|p| p.split == "accounts").unwrap();
        assert!(accounts.stylesheets.contains(&"table".to_string()));
        assert_eq!(accounts.first_request.as_deref(), Some("/api/v1/cores/unifi/accounts?page=1&size=10"));
        // The home page (`home! { ... }`) is split like a group, with its own stylesheet.
        let home = pages.iter().find(|p| p.split == "dashboard").expect("the home page is split");
        assert_eq!(home.stylesheets, ["dashboard"]);
    }
}
