//! The API, one module per group over one client (see `client.rs`).

pub mod accounts;
pub mod audit;
pub mod auth;
pub mod cash_letters;
pub mod client;
pub mod deposits;
pub mod early;
pub mod email;
pub mod error;
pub mod fees;
pub mod ledger;
pub mod page;
pub mod permissions;
pub mod request;
pub mod routing;
pub mod scan_worker;
pub mod tokens;
pub mod vault;
pub mod views;
pub mod webhooks;

pub use client::Client;
pub use error::ApiError;
