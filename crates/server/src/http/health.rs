//! Health for load balancers and orchestrators, outside `/api` and without a token (they
//! carry no data): `/healthz` says the process answers; `/readyz` says this instance can
//! serve — the database answers a query, the blob store answers a request, the routing
//! directory is loaded — and is a 503 naming what is not, so a load balancer sends no
//! traffic to an instance whose database or bucket it cannot reach.

use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};

use crate::AppState;

/// How long each readiness check may take before it counts as failed.
const CHECK_WITHIN: Duration = Duration::from_secs(2);

pub async fn healthz() -> Response {
    Json(json!({"status": "ok"})).into_response()
}

pub async fn readyz(State(state): State<AppState>) -> Response {
    let database = async {
        // BIGINT on both: PostgreSQL's bare `1` is an INT4, which does not decode as i64.
        let q = state.stores.database.sql("SELECT CAST(1 AS BIGINT)");
        state.stores.database.acquire().await?.exec().int(&q).await
    };
    // Any answer from the store (a missing object included) shows it is reachable.
    let probe = object_store::path::Path::from("readyz/probe");
    let blobs = state.blobs.head(&probe);
    let (database, blobs) =
        tokio::join!(tokio::time::timeout(CHECK_WITHIN, database), tokio::time::timeout(CHECK_WITHIN, blobs));
    let database = match database {
        Ok(Ok(_)) => Ok("ok".to_string()),
        Ok(Err(e)) => Err(format!("unreachable: {e}")),
        Err(_) => Err(format!("no answer within {} s", CHECK_WITHIN.as_secs())),
    };
    let blobs = match blobs {
        Ok(Ok(_)) | Ok(Err(object_store::Error::NotFound { .. })) => {
            Ok(state.config.blobs.describe(&state.config.data_dir))
        }
        Ok(Err(e)) => Err(format!("unreachable: {e}")),
        Err(_) => Err(format!("no answer within {} s", CHECK_WITHIN.as_secs())),
    };
    let directory = state.routing.current();
    let (ach, wire) = directory.parts();
    let routing = if ach.records + wire.records > 0 {
        Ok(format!(
            "{} ACH and {} wire participants, as of {}",
            ach.records,
            wire.records,
            directory.as_of().0.map(|d| d.to_string()).unwrap_or_else(|| "an unknown date".into())
        ))
    } else {
        Err("no directory loaded".to_string())
    };
    let ready = database.is_ok() && blobs.is_ok() && routing.is_ok();
    let show = |r: Result<String, String>| -> Value {
        match r {
            Ok(s) => json!({"ok": true, "detail": s}),
            Err(s) => json!({"ok": false, "detail": s}),
        }
    };
    let body = json!({
        "status": if ready { "ready" } else { "not ready" },
        "checks": {"database": show(database), "blobs": show(blobs), "routing": show(routing)},
    });
    let status = if ready { StatusCode::OK } else { StatusCode::SERVICE_UNAVAILABLE };
    (status, Json(body)).into_response()
}
