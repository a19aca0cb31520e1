//! `GET /api/v2/services/overview`: the members the caller's scopes open, read together, kept
//! a few seconds per (user, scopes).

use std::sync::Arc;

use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use chrono::{NaiveTime, SecondsFormat, TimeZone, Utc};
use moneydesk_model::overview::{DirectoryAge, Figure, ListQuery, NextCashLetter, Overview, VaultUse};
use moneydesk_model::{paths, Envelope, Money, Scope};
use rust_decimal::Decimal;

use super::reads::{self, Day};
use super::{OverviewState, CACHE_SECONDS};
use crate::auth::Caller;
use crate::error::Error;
use crate::http::extract::Json;

/// The business day's cut-off for the cash letter: 17:00 in the business time zone.
const CUT_OFF: (u32, u32) = (17, 0);

#[utoipa::path(operation_id = "get_overview", get, path = paths::OVERVIEW, tag = "overview",
    security(("bearer" = [])),
    extensions(("x-extension" = json!(true))),
    description = "Today's figures (today in the business time zone) of every group the token's scopes open, each with the list behind it (`list`: the list endpoint and the query of its filters; the portal's page of that list takes the same query). A member whose group the scopes do not open is absent, not null: `depositsToday`, `waiting` and `nextCashLetter` need deposits:read, `outbox` email:send, `routingDirectory` routing:read, `vault` vault:read (the token's own user's vault), `webhooks` webhooks:write, `ledger` ledger:read. Any valid token may ask; with none of those scopes the answer is the day alone. The answer is reused for the same user and scopes for a few seconds (`Cache-Control: private, max-age=5`; `generatedAt` says when it was read); a request with `Cache-Control: no-cache` is read afresh (the portal's Refresh). Decisions the contract leaves open: the cash letter's cut-off is 17:00 business time on the next business day (today until then); \"today\" and the directory's age follow the books' clock (`MONEYDESK_CLOCK_OFFSET`); `bouncesToday` counts failed messages tried today and links to every failed message; `returned` and `toConfirm` count every deposit in that state, whatever its day; no vault quota is configured on this server, so `quotaBytes` is absent.",
    responses((status = 200, description = "The caller's day", body = Envelope<Overview>,
        headers(("Cache-Control" = String, description = "`private, max-age=5`")))))]
pub(super) async fn overview(
    State(state): State<OverviewState>,
    caller: Caller,
    headers: HeaderMap,
) -> Result<Response, Error> {
    let session = caller.session();
    let mut scopes: Vec<&str> = session.scopes.iter().map(|s| s.as_str()).collect();
    scopes.sort_unstable();
    let key = format!("{}\n{}", caller.user_id(), scopes.join(" "));
    // HTTP's own way to ask past a cache (RFC 9111 5.2.1.4): the answer is read again and kept.
    let fresh_asked = headers
        .get_all(header::CACHE_CONTROL)
        .iter()
        .any(|v| v.to_str().is_ok_and(|v| v.split(',').any(|d| d.trim().eq_ignore_ascii_case("no-cache"))));
    let cached = if fresh_asked { None } else { state.cache().get(&key) };
    let answer = match cached {
        Some(hit) => hit,
        None => {
            let fresh = Arc::new(read(&state, &caller).await?);
            state.cache().put(key, fresh.clone());
            fresh
        }
    };
    let mut response = Json(Envelope::ok(answer.as_ref())).into_response();
    let cache = HeaderValue::from_str(&format!("private, max-age={CACHE_SECONDS}")).expect("ASCII");
    response.headers_mut().insert(header::CACHE_CONTROL, cache);
    Ok(response)
}

async fn read(state: &OverviewState, caller: &Caller) -> Result<Overview, Error> {
    let books = state.books();
    let now = books.now();
    let day = Day::of(books.today(), books.time_zone());
    let db = state.database();
    let deposits = caller.can(Scope::DepositsRead);
    let mut o = Overview::of_day(day.date.to_string(), now.to_rfc3339_opts(SecondsFormat::Secs, true));
    if deposits {
        o.deposits_today = Some(reads::deposits_today(db, day).await?);
        o.waiting = Some(reads::waiting(db).await?);
        o.next_cash_letter = Some(next_cash_letter(state, now).await?);
    }
    if caller.can(Scope::EmailSend) {
        o.outbox = Some(reads::outbox(db, day).await?);
    }
    if caller.can(Scope::RoutingRead) {
        // By the books' clock, like "today" (a drill's clock offset ages the directory too).
        let s = state.routing().status_at(now);
        let loaded = chrono::DateTime::parse_from_rfc3339(&s.loaded_at).map(|t| t.with_timezone(&Utc)).unwrap_or(now);
        o.routing_directory = Some(DirectoryAge {
            as_of: s.as_of,
            loaded_at: s.loaded_at,
            age_hours: (now - loaded).num_hours().max(0) as u64,
            stale: s.stale,
            stale_after_hours: s.stale_after_hours,
            list: ListQuery::new(paths::ROUTING_DIRECTORY, &[]),
        });
    }
    if caller.can(Scope::VaultRead) {
        let user = caller.user_id().to_string();
        let (_, files, _, bytes, _) = state.vault().usage(&user).await.map_err(Error::internal)?;
        let list = ListQuery::new(&paths::fill(paths::VAULT_USAGE, "userId", &user), &[]);
        o.vault = Some(VaultUse { user_id: user, files, bytes, quota_bytes: None, list });
    }
    if caller.can(Scope::WebhooksWrite) {
        o.webhooks = Some(reads::webhooks(db).await?);
    }
    if caller.can(Scope::LedgerRead) {
        o.ledger = Some(reads::ledger(db, day).await?);
    }
    Ok(o)
}

/// The next business day whose cut-off has not passed (today until 17:00), and the confirmed
/// checks a letter made for it would hold.
async fn next_cash_letter(state: &OverviewState, now: chrono::DateTime<Utc>) -> Result<NextCashLetter, Error> {
    let books = state.books();
    let tz = books.time_zone();
    let cut_off_on = |d: chrono::NaiveDate| {
        let at = d.and_time(NaiveTime::from_hms_opt(CUT_OFF.0, CUT_OFF.1, 0).unwrap_or_default());
        tz.from_local_datetime(&at).earliest().map(|t| t.with_timezone(&Utc)).unwrap_or(now)
    };
    let today = books.today();
    let mut day = if books.calendar.is_business_day(today) { today } else { books.calendar.next_business_day(today) };
    if cut_off_on(day) <= now {
        day = books.calendar.next_business_day(day);
    }
    let held = state.cash_letters().due_by(&day.to_string()).await?;
    let cents: i64 = held.iter().map(|c| c.amount_cents).sum();
    Ok(NextCashLetter {
        business_date: day.to_string(),
        cut_off: cut_off_on(day).to_rfc3339_opts(SecondsFormat::Secs, true),
        holds: Figure {
            count: held.len() as u64,
            amount: Some(Money::new(Decimal::new(cents, 2))),
            list: ListQuery::new(paths::CASH_LETTERS, &[]),
        },
    })
}
