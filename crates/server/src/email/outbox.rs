//! The outbox's GET extensions (list, one message, its raw MIME, its attachments) and the
//! sender identities. OWNER: the outbox work.

use utoipa_axum::router::OpenApiRouter;

use crate::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
}
