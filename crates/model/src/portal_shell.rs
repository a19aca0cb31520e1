//! The names the portal shares with the script index.html runs first (the release build's,
//! xtask/src/start.js): the browser storage it reads the sign-in from and the globals through
//! which it hands over what it started. Written once here; the release build writes them into
//! the script, the portal reads them from here.

/// The stored sign-in (`{"environment","baseUrl","token"}` as JSON), in sessionStorage or, for
/// "remember on this device", localStorage.
pub const CREDENTIALS_KEY: &str = "moneydesk.credentials";
/// The scopes the server last said the stored token has, space-separated, beside it.
pub const SCOPES_KEY: &str = "moneydesk.scopes";
/// Tokens the server issues start with this.
pub const TOKEN_PREFIX: &str = "mdk_";

/// `window.moneydeskEarly(url, authorization)`: an answer the script asked for before the
/// portal ran, taken once.
pub const EARLY: &str = "moneydeskEarly";
/// Such an answer's body, read whole by the script, beside the `Response`.
pub const EARLY_TEXT: &str = "moneydeskText";
/// `window.moneydeskModule(url)`: a page's wasm file compiled already, for its loader
/// (xtask/src/loader.rs), taken once.
pub const MODULE: &str = "moneydeskModule";
