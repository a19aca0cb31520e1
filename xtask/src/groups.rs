//! What the release build needs from the portal's one list of groups (`src/groups.rs`): each
//! split page and the stylesheets only it uses. Read from the source's tokens (the `groups!`
//! invocation), so the list stays the one place a group is named.

use std::str::FromStr;

use anyhow::{bail, Context, Result};
use proc_macro2::{Delimiter, TokenStream, TokenTree};

/// A page cut into its own chunk, and the `style/NAME.css` files only it uses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SplitPage {
    /// The split's name (the group's slug; `#[wasm_split(name)]`).
    pub split: String,
    pub stylesheets: Vec<String>,
}

/// The split pages of `src/groups.rs`, in its order.
pub fn split_pages(source: &str) -> Result<Vec<SplitPage>> {
    let tokens = TokenStream::from_str(source).map_err(|e| anyhow::anyhow!("src/groups.rs does not tokenize: {e}"))?;
    let body = invocation(tokens).context("src/groups.rs has no `groups! { ... }` invocation")?;
    let mut pages = Vec::new();
    let mut it = body.into_iter().peekable();
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
        if split {
            pages.push(SplitPage { split: slug.to_string(), stylesheets: sheets });
        }
    }
    if pages.is_empty() {
        bail!("src/groups.rs lists no `page: split(...)` group");
    }
    Ok(pages)
}

/// The body of the top-level `groups! { ... }` (not the `macro_rules! groups`).
fn invocation(tokens: TokenStream) -> Option<TokenStream> {
    let trees: Vec<TokenTree> = tokens.into_iter().collect();
    trees.windows(3).find_map(|w| match w {
        [TokenTree::Ident(name), TokenTree::Punct(bang), TokenTree::Group(body)]
            if name == "groups" && bang.as_char() == '!' && body.delimiter() == Delimiter::Brace =>
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
                fees { title: "Fee schedules", scope: FeesRead, summary: "a, b", arrives_with: "x",
                       page: split(crate::pages::fees::FeesPage), stylesheets: ["fees"], }
                later { title: "Later", scope: Admin, summary: "s", arrives_with: "y",
                        page: placeholder, stylesheets: [], }
                accounts { title: "Accounts", scope: AccountsRead, summary: "s", arrives_with: "z",
                           page: split(crate::pages::accounts::AccountsPage), stylesheets: ["table", "accounts"] }
            }
        "#;
        let pages = split_pages(src).unwrap();
        assert_eq!(
            pages,
            [
                SplitPage { split: "fees".into(), stylesheets: vec!["fees".into()] },
                SplitPage { split: "accounts".into(), stylesheets: vec!["table".into(), "accounts".into()] },
            ]
        );
    }

    #[test]
    fn a_group_without_its_stylesheets_is_refused_by_name() {
        let src = r#"groups! { fees { title: "F", page: split(X) } }"#;
        let e = split_pages(src).unwrap_err().to_string();
        assert!(e.contains("`fees` has no `stylesheets"), "{e}");
    }

    #[test]
    fn the_portals_own_list_reads() {
        // The checkout at run time (a shared target dir may run this binary for another checkout).
        let root = std::path::Path::new(&std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("../src/groups.rs");
        let pages = split_pages(&std::fs::read_to_string(root).unwrap()).unwrap();
        assert!(pages.iter().any(|p| p.split == "accounts" && p.stylesheets.contains(&"table".to_string())));
    }
}
