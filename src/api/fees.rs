//! Fee calls: a quote (or a transfer type's schedule) from the ACH or wire path, and the
//! schedule versions. Answers are typed: the fees page is its own chunk, so the decoders load
//! with it.

use std::future::Future;

use gloo_net::http::Method;
use moneydesk_model::fees::{FeeAnswer, FeeEntry, Rail, ScheduleVersion, TransferType};
use moneydesk_model::paths::{FEES_ACH, FEES_WIRE, FEE_SCHEDULE_VERSIONS};

use super::{ApiError, Client};

pub fn path(rail: Rail) -> &'static str {
    match rail {
        Rail::Ach => FEES_ACH,
        Rail::Wire => FEES_WIRE,
    }
}

/// GET `…/fees/{ach,wire}?transferType=&amount=`: one entry per fee type for the amount's tier.
pub fn quote(
    client: &Client,
    transfer_type: TransferType,
    amount: &str,
) -> impl Future<Output = Result<Vec<FeeEntry>, ApiError>> + 'static {
    let query = [("transferType", transfer_type.as_str()), ("amount", amount)];
    client.get_fees(path(transfer_type.rail()), &query)
}

/// GET `…/fees/{ach,wire}?transferType=&amount=&payerId=`: the quote for a payer (its
/// waiver or its own schedule, said in `pricing`); no payer is the plain quote.
pub fn quote_for(
    client: &Client,
    transfer_type: TransferType,
    amount: &str,
    payer_id: Option<&str>,
) -> impl Future<Output = Result<FeeAnswer, ApiError>> + 'static {
    let mut query = vec![("transferType", transfer_type.as_str()), ("amount", amount)];
    query.extend(payer_id.map(|p| ("payerId", p)));
    client.send(Method::GET, path(transfer_type.rail()), &query, None)
}

/// GET `…/fee-schedules/versions`: the version in force and those to come.
pub fn versions(client: &Client) -> impl Future<Output = Result<Vec<ScheduleVersion>, ApiError>> + 'static {
    client.get_fees(FEE_SCHEDULE_VERSIONS, &[])
}
