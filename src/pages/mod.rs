//! One file per page. The group pages are placeholders until their feature replaces the file;
//! the app guards each with its scope (`app.rs`), so a page file only holds the page itself.

pub mod accounts;
pub mod dashboard;
pub mod deposits;
pub mod email;
pub mod fees;
pub mod not_found;
pub mod permissions;
pub mod routing;
pub mod signin;
pub mod vault;
