//! Reference server of the Financial Utility and Money Movement API, and the host of the
//! built Moneydesk portal. See `README.md` for configuration and `../../shared/CONTRACT.md`
//! for the API decisions it implements.

// API groups (each a folder: router and handlers, its store); listed in `http::GROUPS`.
pub mod accounts;
pub mod audit;
pub mod cash_letters;
pub mod deposits;
pub mod email;
pub mod events;
pub mod fees;
pub mod ledger;
pub mod overview;
pub mod permissions;
pub mod routing;
pub mod search;
pub mod vault;
pub mod views;
pub mod webhooks;

pub mod auth;
pub mod collections;
pub mod config;
pub mod error;
pub mod http;
pub mod import;
pub mod metrics;
pub mod rate_limit;
pub mod seed;
pub mod serve;
pub mod state;
pub mod static_files;
pub mod storage;
pub mod tokens;

mod server;

pub use config::Config;
pub use error::{Error, FeeError};
pub use server::{app, start, Running};
pub use state::AppState;
