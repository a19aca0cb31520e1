//! Moneydesk's browser end-to-end tests: one module per page, all in this one test binary.
//! The harness is the `moneydesk_e2e` library (tests/src/). They need the release build of
//! the portal: `trunk build --release` (scripts/test builds it first).

mod a11y;
mod cash_letters;
mod collections;
mod deposits;
mod email;
mod email_resend;
mod embed;
mod fees;
mod harness;
mod routing;
mod shell;
mod vault;
