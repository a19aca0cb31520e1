//! Moneydesk's end-to-end harness: the real server, started in-process, serving the release
//! build of the portal (`cargo xtask dist` into `./dist`, or `MONEYDESK_DIST`), driven
//! in headless Chromium through chromedriver.
//!
//! Adding a page's tests: create `tests/e2e/<page>.rs`, declare it in `tests/e2e/main.rs`,
//! and write each test as
//! ```ignore
//! #[tokio::test]
//! async fn shows_the_fee_schedule() {
//!     let h = Harness::start().await;
//!     let token = h.token(&[Scope::FeesRead]).await;
//!     h.sign_in(&token).await;
//!     h.goto("/fees").await;
//!     h.wait_for_text("h1", "fee").await;
//!     h.finish().await; // fails on any browser console error
//! }
//! ```
//! Every wait is bounded (`MONEYDESK_E2E_TIMEOUT_SECS`, default 20): a timeout fails the
//! test naming the selector, with a screenshot and the page's HTML under
//! `<target dir>/e2e-artifacts/`.

mod browser;
pub mod calls;
pub mod camera;
/// Certificates for the server's TLS (a CA and a certificate for 127.0.0.1): the server tests'
/// own, one copy. Chromium does not know the CA: start it with `--ignore-certificate-errors`.
#[path = "../../crates/server/tests/common/certificates.rs"]
pub mod certificates;
mod chromedriver;
mod console;
/// The tests' DNS server (address verification): the server tests' own, one copy.
#[path = "../../crates/server/tests/common/dns.rs"]
pub mod dns;
mod harness;
mod host;
mod paths;
/// The tests' PostgreSQL (`MONEYDESK_E2E_BACKEND=postgres`): the server tests' own, one copy.
#[path = "../../crates/server/tests/common/postgres.rs"]
mod postgres;

pub use browser::{Browser, Fetched};
pub use harness::{copy_build, Harness};
pub use host::StaticHost;
pub use moneydesk_model::Scope;
pub use moneydesk_server::Config;
pub use paths::{artifacts_dir, dist_dir, shared_data, workspace_root};
