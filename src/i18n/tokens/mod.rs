//! The Tokens page's words: the tokens, a new token, the text shown once and the sign-in links
//! (`src/pages/tokens/`; with the page, in its chunk).

pub mod en;
pub mod es;

use super::pick;

pub struct Tokens {
    pub heading: &'static str,
    pub intro_admin: &'static str,
    pub intro_own: &'static str,
    pub reading: &'static str,
    pub none: &'static str,
    /// The tokens table's headers: name, user, scopes, expires, last used, state.
    pub columns: [&'static str; 6],
    pub never: &'static str,
    pub revoke: &'static str,
    /// `{}` the token's name.
    pub revoke_token: &'static str,
    /// `{}` when.
    pub revoked_at: &'static str,
    pub revoked: &'static str,
    // The form of a new token (form.rs).
    pub scopes: &'static str,
    pub new_token: &'static str,
    pub name: &'static str,
    pub user_default: &'static str,
    pub expires: &'static str,
    /// The expiry's choices: never, 1, 7, 30, 90 days, a year.
    pub expiry_choices: [&'static str; 6],
    pub create_token: &'static str,
    /// `{}` the token's name, `{}` its user.
    pub made_title: &'static str,
    // The text shown once (once.rs).
    pub copy_now: &'static str,
    pub copy: &'static str,
    pub done: &'static str,
    pub copied: &'static str,
    pub not_copied: &'static str,
    // Sign-in links (links.rs).
    pub links_heading: &'static str,
    pub links_intro: &'static str,
    pub new_link: &'static str,
    pub user: &'static str,
    pub create_link: &'static str,
    pub reading_links: &'static str,
    /// `{}` the user.
    pub link_title: &'static str,
    /// The links table's headers: user, scopes, made, expires, state.
    pub link_columns: [&'static str; 5],
    /// `{}` when.
    pub used_at: &'static str,
    /// `{}` the user.
    pub revoke_link: &'static str,
    // A token's details (details.rs): opened from its name, or by a link's `open=ID`.
    /// The details' headers: made (created), id.
    pub detail_fields: [&'static str; 2],
    /// `{}` the id a link names that the list does not hold.
    pub not_found: &'static str,
}

pub fn text() -> &'static Tokens {
    pick(&en::TEXT, &es::TEXT)
}
