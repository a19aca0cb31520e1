//! What the new-deposit form learns as the operator types, each a short request that waits
//! for a pause in typing and gives way to a newer one: the bank a routing number belongs to
//! (the FedACH directory, which also prefills the check's bank name), the standard fee the amount will be charged (the fee schedule),
//! and the accounts whose names match the payee field. A token without the scope for one of
//! them just goes without that hint: the server still checks everything on submit.

use std::time::Duration;

use leptos::prelude::*;
use moneydesk_model::collections::CollectionQuery;
use moneydesk_model::fees::{FeeAmount, TransferType};
use moneydesk_model::routing::RoutingNumber;
use serde_json::Value;

use crate::api::{self, ApiError};
use crate::format::format_money;
use crate::i18n::{deposits::text as words, fill};
use crate::session::use_auth;

/// How long typing must pause before a lookup is sent.
const PAUSE: Duration = Duration::from_millis(300);

/// Runs `lookup` for the latest value of `input` after a pause in typing; the latest answer
/// (or `None` for nothing to say) is the returned signal's value.
fn as_typed<T, F, Fut>(input: RwSignal<String>, lookup: F) -> ReadSignal<Option<T>>
where
    T: Send + Sync + 'static,
    F: Fn(String) -> Option<Fut> + Copy + 'static,
    Fut: std::future::Future<Output = Option<T>> + 'static,
{
    let (out, set_out) = signal(None::<T>);
    let seq = StoredValue::new(0u64);
    let owner = Owner::current();
    Effect::new(move |_| {
        let text = input.get();
        let n = seq.with_value(|s| s + 1);
        seq.set_value(n);
        set_out.set(None);
        let owner = owner.clone();
        set_timeout(
            move || {
                if seq.try_get_value() != Some(n) {
                    return; // typed on
                }
                let start = || lookup(text.clone());
                let Some(request) = owner.as_ref().map(|o| o.with(start)).unwrap_or_else(start) else { return };
                leptos::task::spawn_local(async move {
                    let answer = request.await;
                    if seq.try_get_value() == Some(n) {
                        set_out.try_set(answer);
                    }
                });
            },
            PAUSE,
        );
    });
    out
}

/// What the FedACH directory says of a routing number as typed: the bank's name (`Ok`), or
/// what is wrong with a number it does not list (`Err`).
pub fn directory(routing: RwSignal<String>) -> Signal<Option<Result<String, String>>> {
    let auth = use_auth();
    as_typed(routing, move |text| {
        let text = text.trim().to_string();
        if text.len() != 9 || !text.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        if let Err(e) = RoutingNumber::parse(&text) {
            let message = e.to_string();
            return Some(
                Box::pin(async move { Some(Err(message)) }) as std::pin::Pin<Box<dyn std::future::Future<Output = _>>>
            );
        }
        let request = api::routing::ach(&auth.client(), &text);
        Some(Box::pin(async move {
            match request.await {
                Ok(v) => v.get("customerName").and_then(Value::as_str).map(|n| Ok(n.to_string())),
                Err(ApiError::NotFound { .. }) => Some(Err(words().form.not_in_directory.into())),
                Err(_) => None,
            }
        }))
    })
    .into()
}

/// "Bank: ACME COMMUNITY BANK" for a listed routing number; what is wrong with one that is not.
pub fn note(found: Signal<Option<Result<String, String>>>) -> Signal<Option<String>> {
    Signal::derive(move || {
        found.get().map(|f| match f {
            Ok(name) => fill(words().form.bank, &[&name]),
            Err(problem) => problem,
        })
    })
}

/// The directory's note for a routing number as typed.
pub fn bank_name(routing: RwSignal<String>) -> Signal<Option<String>> {
    note(directory(routing))
}

/// "$1.50": the fee schedule's standard fee for an amount as typed (the fees API's quote).
pub fn fee_quote(amount: RwSignal<String>) -> Signal<Option<String>> {
    let auth = use_auth();
    as_typed(amount, move |text| {
        let text = text.trim().replace([',', '$'], "");
        FeeAmount::parse(&text).ok()?;
        let request = api::fees::quote(&auth.client(), TransferType::Eft, &text);
        Some(async move {
            let entries = request.await.ok()?;
            let standard = entries.iter().find(|e| e.fee_type == "standard")?;
            let fee = standard.fee_amount.to_string();
            Some(format_money(&fee).unwrap_or(fee))
        })
    })
    .into()
}

/// "Fee: $1.50 (standard, charged at deposit)" for an amount the schedule prices.
pub fn standard_fee(amount: RwSignal<String>) -> Signal<Option<String>> {
    let quote = fee_quote(amount);
    Signal::derive(move || quote.get().map(|fee| fill(words().form.standard_fee, &[&fee])))
}

/// Accounts whose names match the payee field: (id, "name — number"), at most eight.
pub fn payees(payee: RwSignal<String>) -> Signal<Vec<(String, String)>> {
    let auth = use_auth();
    let found = as_typed(payee, move |text| {
        let text = text.trim().to_string();
        // An id pasted whole (it starts with 13 digits) needs no search.
        if text.chars().count() < 2 || text.bytes().take(13).all(|b| b.is_ascii_digit()) {
            return None;
        }
        let query = CollectionQuery { size: 8, filters: vec![("name".into(), text)], ..Default::default() };
        let request = api::accounts::page(&auth.client(), &query);
        Some(async move {
            let page = request.await.ok()?;
            let list = page
                .content
                .iter()
                .filter_map(|a| {
                    let id = a.get("id")?.as_str()?;
                    let name = a.get("accountName").and_then(Value::as_str).unwrap_or_default();
                    let number = a.get("accountNumber").and_then(Value::as_str).unwrap_or_default();
                    Some((id.to_string(), format!("{name} — {number}")))
                })
                .collect::<Vec<_>>();
            Some(list)
        })
    });
    Signal::derive(move || found.get().unwrap_or_default())
}
