//! The sign-in page's words (with the page, in its chunk). `{}` in a text: the values named
//! in its comment, in that order.

pub mod en;
pub mod es;

use super::pick;

pub struct SignIn {
    pub heading: &'static str,
    pub environment: &'static str,
    pub choose_environment: &'static str,
    /// What an environment without a base URL points at.
    pub this_site: &'static str,
    pub token: &'static str,
    /// What a token looks like (the field's placeholder).
    pub token_example: &'static str,
    pub token_hint: &'static str,
    pub remember: &'static str,
    pub submit: &'static str,
    pub checking: &'static str,
    /// `{}`: why there is none.
    pub no_environment: &'static str,
    pub no_environment_title: &'static str,
    pub empty_environments: &'static str,
    pub still_loading: &'static str,
    /// `{}` `{}`: the user's name, the environment's label.
    pub signed_in: &'static str,
    pub link_heading: &'static str,
    pub link_checking: &'static str,
    pub link_instead: &'static str,
    pub link_gone: &'static str,
    pub link_unknown: &'static str,
    pub link_unknown_why: &'static str,
    pub link_failed: &'static str,
    /// What "the server" is for an environment without a base URL.
    pub this_server: &'static str,
    /// `{}`: the environment's label.
    pub unauthorized: &'static str,
    /// `{}`: the server's message.
    pub invalid_token: &'static str,
    pub forbidden: &'static str,
    /// `{}` `{}`: the server, the error.
    pub unreachable: &'static str,
    /// `{}` `{}` `{}`: the server, the HTTP status, the environment's label.
    pub not_json: &'static str,
    /// `{}`: the server.
    pub no_api: &'static str,
}

pub fn text() -> &'static SignIn {
    pick(&en::TEXT, &es::TEXT)
}
