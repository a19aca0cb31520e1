//! Email (description 4.3; CONTRACT.md points 7, 8, 13). A send is checked (the model's
//! `SendRequest::check`), rendered (templates) and written to the outbox before the 202
//! (`outbox::send`, `outbox::store`); a worker delivers the outbox over SMTP to the configured relay,
//! or to the development mailbox in the database when none is configured (`outbox::delivery`,
//! `outbox::mime`, `outbox::store::delivery`). Stored templates (`templates`). Address verification over real DNS
//! (`validation`, `dns`). Custom sending domains with DKIM (`domains`). Inbound mail: routes
//! per domain, an SMTP listener, the signed webhook (`inbound`).
//!
//! Who owns what (a folder each, so they can change apart):
//! - `outbox/`: POST send, the outbox's GET extensions and the senders list, its store, the
//!   delivery worker (on the one queue, `storage::queue`), the MIME, the SMTP relay.
//! - `templates/`: the template extensions, their store and rendering.
//! - `validation/`: address verification; `dns.rs`: where a domain's mail goes.
//! - `domains/`: custom sending domains, their DKIM keys and signatures.
//! - `inbound/`: inbound routes, the SMTP listener, parsing, the webhook worker.
//! - `suppressions/`: suppression lists per sender domain, the one-click unsubscribe links.
//! - `bounces/`: bounce and complaint reports (RFC 3464, RFC 5965) at the return-path
//!   addresses or posted, what they suppress, the deliverability figures.

use utoipa_axum::{router::OpenApiRouter, routes};

use crate::AppState;

crate::group_state! {
    /// What the email handlers reach: the outbox, templates, sending domains, inbound mail, address
    /// verification and attachments.
    pub struct EmailState {
        email: crate::email::outbox::store::EmailStore = stores.email,
        templates: crate::email::templates::TemplateStore = stores.templates,
        domains: crate::email::domains::Domains = domains,
        inbound: crate::email::inbound::Inbound = inbound,
        verifier: crate::email::validation::Verifier = verifier,
        blobs: crate::storage::blobs::Blobs = blobs,
        config: std::sync::Arc<crate::Config> = config,
    }
}

pub mod bounces;
pub mod dns;
pub mod domains;
pub mod inbound;
pub mod outbox;
pub mod suppressions;
pub mod templates;
pub mod validation;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(outbox::send::send_email))
        .merge(validation::router())
        .merge(domains::router())
        .merge(inbound::router())
        .merge(outbox::router())
        .merge(templates::router())
        .merge(suppressions::router())
        .merge(bounces::router())
}
