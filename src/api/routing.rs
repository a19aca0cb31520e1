//! Routing-number calls: the exact lookups (bare records; a 404 `NotFound` means the directory
//! does not list the number), the directory's status and its refresh. The search goes through
//! the shared data table (`api::page::get_page`).
//!
//! Answers stay JSON values (field names as in `moneydesk_model::routing`): the page only shows
//! them, and one JSON path keeps the wasm small (a typed serde decoder per record costs ~10 KB).

use std::future::Future;
use std::pin::Pin;

use gloo_net::http::Method;
use moneydesk_model::paths::{ROUTING_ACH_VALIDATE, ROUTING_WIRE_VALIDATE};
use moneydesk_model::routing::{ROUTING_DIRECTORY, ROUTING_DIRECTORY_REFRESH};
use serde_json::Value;

use super::{ApiError, Client};

pub type Answer = Pin<Box<dyn Future<Output = Result<Value, ApiError>>>>;

/// GET `.../routing/ach/validate?routingNumber=`: the `AchParticipant`.
pub fn ach(client: &Client, number: &str) -> Answer {
    Box::pin(client.get::<Value>(ROUTING_ACH_VALIDATE, &[("routingNumber", number)]))
}

/// GET `.../routing/wire/validate?routingNumber=`: the `WireParticipant`.
pub fn wire(client: &Client, number: &str) -> Answer {
    Box::pin(client.get::<Value>(ROUTING_WIRE_VALIDATE, &[("routingNumber", number)]))
}

fn data(fut: Answer) -> Answer {
    Box::pin(async move {
        match fut.await?.get_mut("data").map(Value::take) {
            Some(v) if v.is_object() => Ok(v),
            _ => Err(ApiError::Decode { status: 200, message: "the envelope has no data".into() }),
        }
    })
}

/// The directory in service (`DirectoryStatus`): as-of date, load time, counts, staleness.
pub fn directory(client: &Client) -> Answer {
    data(Box::pin(client.get::<Value>(ROUTING_DIRECTORY, &[])))
}

/// Reloads the directory files now (scope `admin`); a bad file is a 422 naming file and line.
pub fn refresh(client: &Client) -> Answer {
    data(Box::pin(client.send::<Value>(Method::POST, ROUTING_DIRECTORY_REFRESH, &[], None)))
}
