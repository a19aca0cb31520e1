//! Fee schedules (description 2.1, 4.1; CONTRACT.md points 5, 7, 8): the ACH and wire quotes,
//! priced from schedule versions kept in the database (`store`) and held in memory
//! (`versions`), rate limited per token (`crate::rate_limit`); and the versions extension.
//!
//! The model crate holds the schedule's rules and the arithmetic (`moneydesk_model::fees`);
//! this group adds storage, HTTP and the limit.

use axum::extract;
use axum::response::Response;
use moneydesk_model::fees::{FeeAnswer, Rail, ScheduleVersion};
use moneydesk_model::{paths, FeeErrorBody, FeeSuccess};
use utoipa::IntoParams;
use utoipa_axum::{router::OpenApiRouter, routes};

use crate::auth::Caller;
use crate::rate_limit::RateLimiter;
use crate::{AppState, Config};

mod answer;
mod handlers;
pub mod store;
pub mod versions;

pub use versions::{default_schedule, parse_schedule_text, Format};

crate::group_state! {
    /// What the fees handlers reach: the schedule versions, their store and the rate limiter, and
    /// the rate's configuration.
    pub struct FeesState {
        fees: crate::fees::State = fees,
        config: std::sync::Arc<crate::Config> = config,
    }
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(ach_fees))
        .routes(routes!(wire_fees))
        .routes(routes!(list_versions, load_version))
}

/// The group's state: its store, the schedule versions held in memory and the per-token
/// limiter.
#[derive(Debug)]
pub struct State {
    pub store: store::FeeStore,
    /// Shared with the books, which charge the returned-item fee of the version in force.
    pub versions: std::sync::Arc<versions::Versions>,
    pub limiter: RateLimiter,
}

impl State {
    pub async fn load(config: &Config, store: store::FeeStore) -> anyhow::Result<State> {
        let versions = std::sync::Arc::new(versions::Versions::load(&store).await?);
        Ok(State { store, versions, limiter: RateLimiter::new(config.fees_rate) })
    }
}

/// The fee request's fields, from query parameters or, with the same names, a JSON body
/// (CONTRACT.md point 5; a request with both is refused; unknown or repeated fields are
/// refused). `transferType` is required: a quote for a transfer type the caller did not mean
/// would be a wrong price. Without `amount` the answer is the transfer type's whole schedule,
/// one entry per tier with its least fee and its range in the description.
#[derive(Debug, IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code, non_snake_case)]
pub struct FeeQuery {
    /// A positive decimal string, at most 15 integer digits and 2 decimals, e.g. `1250.00`.
    #[param(pattern = r"^([1-9][0-9]{0,14}(\.[0-9]{1,2})?|0\.(0[1-9]|[1-9][0-9]?))$", example = "1250.00")]
    amount: Option<String>,
    /// The payee. Up to 64 characters, no control characters, no surrounding spaces. Priced:
    /// a payee the schedule waives is charged 0.00.
    #[param(
        min_length = 1,
        max_length = 64,
        pattern = r"^[^\s\x00-\x1f\x7f-\x9f]([^\x00-\x1f\x7f-\x9f]*[^\s\x00-\x1f\x7f-\x9f])?$"
    )]
    payeeId: Option<String>,
    /// The payee's bank (as payeeId). Priced: a bank the schedule waives (e.g. on-us
    /// transfers) is charged 0.00.
    #[param(
        min_length = 1,
        max_length = 64,
        pattern = r"^[^\s\x00-\x1f\x7f-\x9f]([^\x00-\x1f\x7f-\x9f]*[^\s\x00-\x1f\x7f-\x9f])?$"
    )]
    payeeBankId: Option<String>,
    /// The payer (as payeeId). Priced: a waived payer is charged 0.00; a payer with its own
    /// schedule is priced by it for the transfer types it lists.
    #[param(
        min_length = 1,
        max_length = 64,
        pattern = r"^[^\s\x00-\x1f\x7f-\x9f]([^\x00-\x1f\x7f-\x9f]*[^\s\x00-\x1f\x7f-\x9f])?$"
    )]
    payerId: Option<String>,
    /// Up to 140 characters, no control characters. Accepted and checked, never priced: no fee
    /// depends on the memo.
    #[param(max_length = 140, pattern = r"^[^\x00-\x1f\x7f-\x9f]*$")]
    memo: Option<String>,
}

// The pattern above is AMOUNT_PATTERN written out (attributes take literals); a test keeps
// them equal.
#[cfg(test)]
#[test]
fn the_documented_amount_pattern_is_the_models() {
    assert_eq!(moneydesk_model::fees::AMOUNT_PATTERN, r"^([1-9][0-9]{0,14}(\.[0-9]{1,2})?|0\.(0[1-9]|[1-9][0-9]?))$");
}

#[utoipa::path(get, path = paths::FEES_ACH, tag = "fees", params(("transferType" = String, Query, description = "EFT (standard ACH) or SAME_DAY_ACH", pattern = "^(EFT|SAME_DAY_ACH)$"), FeeQuery),
    security(("bearer" = ["fees:read"])),
    description = "With an amount: one entry per fee type for the tier the amount falls in, computed exactly and rounded to cents half-even. Without: every tier of the transfer type. \
        Who the transfer is for may change the price (the schedule version's `waivers` and `payer_schedules`, loaded with it): a request whose payerId, payeeId or payeeBankId the version waives is 0.00 for every fee type, each description saying `waived for payerId …` (the first matching waiver, in file order); otherwise a payerId with its own schedule that lists the transfer type is priced by that schedule's tiers (descriptions end `(schedule of payerId …)`); any other payer, payee or bank, or none, is priced by the version's own tiers. A waiver beats a payer's schedule. Such an answer adds a `pricing` member (`basis` `waiver` or `payer_schedule`, the matching `field` and `id`, a waiver's `reason`), left out when the version's own tiers priced it; a client written from the description ignores it. The memo is checked and never priced. \
        Rate limited per token: RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset on every answer; 429 with Retry-After past the limit.",
    responses(
        (status = 200, description = "The fees", body = FeeAnswer),
        (status = 400, description = "A field is wrong; the message names each", body = FeeErrorBody),
        (status = 429, description = "Over the rate limit; see Retry-After", body = FeeErrorBody),
    ))]
async fn ach_fees(extract::State(state): extract::State<FeesState>, caller: Caller, req: extract::Request) -> Response {
    handlers::fees(state, caller, Rail::Ach, req).await
}

#[utoipa::path(get, path = paths::FEES_WIRE, tag = "fees", params(("transferType" = String, Query, description = "DOMESTIC_WIRE or INTERNATIONAL_WIRE", pattern = "^(DOMESTIC_WIRE|INTERNATIONAL_WIRE)$"), FeeQuery),
    security(("bearer" = ["fees:read"])),
    description = "As the ACH fees, for wire transfer types: payerId, payeeId and payeeBankId may waive the fees or select a payer's schedule as there; the memo is never priced.",
    responses(
        (status = 200, description = "The fees", body = FeeAnswer),
        (status = 400, description = "A field is wrong; the message names each", body = FeeErrorBody),
        (status = 429, description = "Over the rate limit; see Retry-After", body = FeeErrorBody),
    ))]
async fn wire_fees(
    extract::State(state): extract::State<FeesState>,
    caller: Caller,
    req: extract::Request,
) -> Response {
    handlers::fees(state, caller, Rail::Wire, req).await
}

#[utoipa::path(get, path = paths::FEE_SCHEDULE_VERSIONS, tag = "fees",
    security(("bearer" = ["fees:read"])),
    extensions(("x-extension" = json!(true))),
    description = "The schedule version in force and every later one (extension).",
    responses((status = 200, description = "The versions, oldest first", body = FeeSuccess<ScheduleVersion>)))]
async fn list_versions(state: extract::State<FeesState>, caller: Caller) -> Response {
    handlers::list_versions(state, caller).await
}

#[utoipa::path(post, path = paths::FEE_SCHEDULE_VERSIONS, tag = "fees",
    security(("bearer" = ["admin"])),
    extensions(("x-extension" = json!(true))),
    request_body(content = String, description = "A schedule file (format: crates/model/src/fees/schedule.rs), as JSON or TOML", content_type = "application/toml"),
    description = "Loads a schedule version (tiers, and optionally `payer_schedules` and `waivers`: who is priced by their own tiers, and whose transfers are not charged), validated all or nothing (every problem named with its place). effective_from must not be in the past; a version with the same effective_from that is not yet in force is replaced; one in force is never rewritten (409).",
    responses(
        (status = 201, description = "The stored version", body = FeeSuccess<ScheduleVersion>),
        (status = 400, description = "The file's problems, each at its place", body = FeeErrorBody),
        (status = 409, description = "A version with that effective_from is already in force", body = FeeErrorBody),
        (status = 415, description = "Neither application/json nor application/toml", body = FeeErrorBody),
    ))]
async fn load_version(state: extract::State<FeesState>, caller: Caller, req: extract::Request) -> Response {
    handlers::load_version(state, caller, req).await
}
