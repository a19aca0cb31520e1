//! The Moneydesk API contract, written once for the portal (wasm32) and the server (native).
//!
//! No I/O here: types, the response envelope and page, and validated newtypes that are
//! parsed once at the boundary. See `../shared/CONTRACT.md` for the decisions encoded here.

pub mod accounts;
pub mod audit;
pub mod auth;
pub mod bulk;
pub mod cash_letters;
pub mod collections;
pub mod deposits;
pub mod email;
pub mod envelope;
pub mod events;
pub mod fees;
pub mod ledger;
pub mod money;
pub mod overview;
pub mod page;
pub mod paths;
pub mod permissions;
pub mod portal_shell;
pub mod routing;
pub mod scopes;
pub mod search;
pub mod tokens;
pub mod vault;
pub mod views;
mod vocabulary;
pub mod webhooks;

pub use deposits::DepositListItem;
pub use email::{EmailAddress, MessageState};
pub use envelope::{Envelope, FeeErrorBody, FeeSuccess, FieldError};
pub use money::Money;
pub use page::{Page, PageRequest, PageRequestError, Pageable, Sort};
pub use routing::RoutingNumber;
pub use scopes::Scope;
pub use vault::VaultPath;
