//! Email (description 4.3; CONTRACT.md points 7, 8, 13). A send is checked (the model's
//! `SendRequest::check`), rendered (templates) and written to the outbox before the 202
//! (`send`, `store::outbox`); a worker delivers the outbox over SMTP to the configured relay,
//! or to the development mailbox in the database when none is configured (`delivery`, `mime`,
//! `store::delivery`). Stored templates (`templates`). Address verification over real DNS
//! (`validation`, `dns`). Custom sending domains with DKIM (`domains`). Inbound mail: routes
//! per domain, an SMTP listener, the signed webhook (`inbound`).
//!
//! Who owns what (one file each, so they can change apart):
//! - `send.rs`: POST send; `outbox.rs`: the outbox's GET extensions and the senders list.
//! - `store/outbox.rs`: inserting accepted messages, listing and reading them.
//! - `store/delivery.rs`: claiming due messages, recording attempts and outcomes, the mailbox.
//! - `mime.rs`: the MIME of a stored message (lettre); `delivery.rs`: the worker;
//!   `recorder.rs`: its outcomes, committed in groups.
//! - `templates/`: the template extensions, their store and rendering.
//! - `validation/`: address verification; `dns.rs`: where a domain's mail goes.
//! - `domains/`: custom sending domains, their DKIM keys and signatures.
//! - `inbound/`: inbound routes, the SMTP listener, parsing, the webhook worker.

use utoipa_axum::{router::OpenApiRouter, routes};

use crate::AppState;

pub mod config;
pub mod delivery;
pub mod dns;
pub mod domains;
pub mod inbound;
pub mod mime;
pub mod outbox;
pub mod recorder;
pub mod relay;
pub mod send;
pub mod store;
pub mod templates;
pub mod validation;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(send::send_email))
        .merge(validation::router())
        .merge(domains::router())
        .merge(inbound::router())
        .merge(outbox::router())
        .merge(templates::router())
}
