//! Moneydesk's browser end-to-end tests: one module per page, all in this one test binary.
//! The harness is the `moneydesk_e2e` library (tests/src/). They need the release build of
//! the portal: `cargo xtask dist` (scripts/test builds it first).

mod a11y;
mod accounts;
mod activity;
mod cash_letters;
mod contract_calls;
mod dashboard;
mod deposit_fields;
mod deposits;
mod deposits_bulk;
mod deposits_camera;
mod email;
mod email_resend;
mod email_suppressions;
mod embed;
mod fees;
mod harness;
mod ledger;
mod permissions;
mod routing;
mod search;
mod shell;
mod tables;
mod tokens;
mod transport;
mod vault;
mod vault_trash;
mod views;
mod webhooks;
