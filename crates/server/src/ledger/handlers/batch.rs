//! Balances of many sleeve accounts at once: one snapshot, one statement.

use axum::extract::{RawQuery, State};
use moneydesk_model::ledger::{money_of_units, Balances};
use moneydesk_model::{paths, Envelope};
use utoipa::IntoParams;

use crate::auth::Caller;
use crate::error::{Error, ErrorEnvelopeDoc};
use crate::http::extract::Json;
use crate::ledger::LedgerState;

/// How many accounts one request may name.
const MAX_IDS: usize = 100;

/// The accounts.
#[derive(Debug, IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code, non_snake_case)]
struct BatchParams {
    /// 1 to 100 managed sleeve account ids (each 1 to 64 characters, no control character),
    /// separated by commas.
    #[param(pattern = r"^[^,\x00-\x1f\x7f-\x9f]{1,64}(,[^,\x00-\x1f\x7f-\x9f]{1,64}){0,99}$")]
    accountIds: String,
}

#[utoipa::path(get, path = paths::LEDGER_BALANCES_BATCH, tag = "ledger", params(BatchParams),
    security(("bearer" = ["ledger:read"])),
    extensions(("x-extension" = json!(true))),
    description = "The balances now of each account `accountIds` names, in its order, read together in one snapshot (as the single account's balances: posted, pending, available, held).",
    responses((status = 200, body = Envelope<Vec<Balances>>),
        (status = 400, description = "No id, more than 100, or an empty one", body = ErrorEnvelopeDoc),
        (status = 404, description = "Ids not in the accounts collection (the message names them)", body = ErrorEnvelopeDoc)))]
pub(in crate::ledger) async fn balances_batch(
    State(state): State<LedgerState>,
    _caller: Caller,
    RawQuery(q): RawQuery,
) -> Result<Json<Envelope<Vec<Balances>>>, Error> {
    let pairs = crate::http::extract::query_pairs(q.as_deref());
    let ids: Vec<String> = pairs
        .iter()
        .filter(|(k, _)| k == "accountIds")
        .flat_map(|(_, v)| v.split(','))
        .map(|id| id.trim().to_string())
        .collect();
    if ids.is_empty() || ids.len() > MAX_IDS {
        return Err(Error::field("accountIds", format!("must name 1 to {MAX_IDS} accounts, separated by commas")));
    }
    if ids.iter().any(|id| id.is_empty() || id.len() > 64 || id.chars().any(char::is_control)) {
        return Err(Error::field(
            "accountIds",
            "an id is empty, longer than 64 characters, or has a control character",
        ));
    }
    let rows = state.ledger().sleeves(&ids).await?;
    let unknown: Vec<&str> = ids.iter().zip(&rows).filter(|(_, r)| r.is_none()).map(|(id, _)| id.as_str()).collect();
    if !unknown.is_empty() {
        return Err(Error::not_found(format!("No account in the accounts collection: {}", unknown.join(", "))));
    }
    let as_of = state.books().now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    let out = ids
        .into_iter()
        .zip(rows.into_iter().flatten())
        .map(|(account_id, r)| Balances {
            account_id,
            as_of: as_of.clone(),
            currency: "USD".into(),
            posted: money_of_units(r.posted()),
            pending: money_of_units(r.pending()),
            available: money_of_units(r.available()),
            held: money_of_units(r.held()),
            negative_available: r.available() < 0,
        })
        .collect();
    Ok(Json(Envelope::ok(out)))
}
