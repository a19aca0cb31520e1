//! What every bulk action shares (issue 45; model `moneydesk_model::bulk`): the selection
//! checked (exactly one of ids or filter, the filter's parameters among the list's, at most
//! `BULK_LIMIT` records) and the records taken one by one, each inside a recording of its own,
//! so each change commits with its own audit record (as the single action writes it) and a
//! refusal leaves the others done.

use std::collections::BTreeMap;
use std::future::Future;

use axum::http::StatusCode;
use moneydesk_model::bulk::{BulkItem, BulkSelect, Selected, BULK_LIMIT};

use crate::error::Error;
use crate::storage::trail::{self, Recording};

/// Parameters a list takes that are not its filter: ignored in a bulk filter.
const NOT_FILTER: &[&str] = &["page", "size", "sort", "before", "limit"];

/// A selection checked: the ids (duplicates once, first order kept), or the filter's pairs
/// (each among `filters`; paging and sorting dropped). A malformed selection is a 400.
pub enum Chosen {
    Ids(Vec<String>),
    Filter(Vec<(String, String)>),
}

pub fn choose(select: &BulkSelect, filters: &[&str]) -> Result<Chosen, Error> {
    match select.selected().map_err(|e| Error::field("select", e.to_string()))? {
        Selected::Ids(ids) => {
            let mut seen = std::collections::HashSet::new();
            let ids: Vec<String> = ids.iter().filter(|id| seen.insert(id.as_str())).cloned().collect();
            limit(ids.len())?;
            Ok(Chosen::Ids(ids))
        }
        Selected::Filter(filter) => Ok(Chosen::Filter(filter_pairs(filter, filters)?)),
    }
}

fn filter_pairs(filter: &BTreeMap<String, String>, filters: &[&str]) -> Result<Vec<(String, String)>, Error> {
    let mut pairs = Vec::new();
    for (k, v) in filter {
        if NOT_FILTER.contains(&k.as_str()) {
            continue;
        }
        if !filters.contains(&k.as_str()) {
            let known = if filters.is_empty() { "none".to_string() } else { filters.join(", ") };
            return Err(Error::field(
                format!("select.filter.{k}"),
                format!("is not a filter of this list (its filters: {known})"),
            ));
        }
        pairs.push((k.clone(), v.clone()));
    }
    Ok(pairs)
}

/// A 422 `too_many` when `n` records are more than one bulk action takes (nothing is done).
pub fn limit(n: usize) -> Result<(), Error> {
    if n > BULK_LIMIT {
        return Err(Error::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "too_many",
            format!("The selection holds {n} records; a bulk action takes at most {BULK_LIMIT}: narrow the filter"),
        ));
    }
    Ok(())
}

/// Runs `one` for each id in turn, each inside a recording copied from the request's (who,
/// from where, which operation) with its own target: one audit record per record changed.
pub async fn each<F, Fut>(ids: Vec<String>, mut one: F) -> Vec<BulkItem>
where
    F: FnMut(String) -> Fut,
    Fut: Future<Output = BulkItem>,
{
    let request = trail::current();
    let mut items = Vec::with_capacity(ids.len());
    for id in ids {
        let item = match &request {
            Some(r) => item_recording(r, None).run(one(id)).await,
            None => one(id).await,
        };
        items.push(item);
    }
    items
}

/// The request's recording again, for one item (who, from where, which operation): each item
/// commits its own change with its own record. `path_id` names the item when the route has none.
pub fn item_recording(r: &Recording, path_id: Option<String>) -> Recording {
    Recording {
        token_id: r.token_id,
        user_id: r.user_id.clone(),
        token_name: r.token_name.clone(),
        client_address: r.client_address.clone(),
        user_agent: r.user_agent.clone(),
        operation: r.operation.clone(),
        method: r.method.clone(),
        path: r.path.clone(),
        request_id: r.request_id.clone(),
        // The route's `{userId}` is no item's id: each store names its target, or the caller.
        path_id,
        ..Recording::default()
    }
}

/// An item refused for an error of the single action: its stable reason word (`not_found`,
/// `conflict`, `validation`, ...) and message (a server fault is logged; the item says only
/// that it failed).
pub fn refused(id: &str, e: Error) -> BulkItem {
    if e.status.is_server_error() {
        tracing::warn!(id, error = %e.message, "a bulk action's item failed");
        return BulkItem::refused(id, "error", "The server could not do this one; try it again");
    }
    BulkItem::refused(id, e.reason, e.message)
}

/// A request body's schema written exactly (which members, exactly one of `ids` and
/// `filter`), so that what the document allows the server accepts.
pub fn schema(v: serde_json::Value) -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
    serde_json::from_value(v).expect("the bulk request schemas are valid OpenAPI schemas")
}

/// `select`: exactly one of `ids` (each as `id`) and `filter` (the list's filter, `filter`'s
/// properties; none: every record).
pub fn select_schema(what: &str, id: serde_json::Value, filter: serde_json::Value) -> serde_json::Value {
    let ids =
        serde_json::json!({"type": "array", "description": what, "minItems": 1, "maxItems": BULK_LIMIT, "items": id});
    let filter = serde_json::json!({"type": "object", "additionalProperties": false, "properties": filter,
        "description": "The list's filter parameters as strings (none: every record)"});
    serde_json::json!({
        "description": "Which records: exactly one of `ids` and `filter`",
        "oneOf": [
            {"type": "object", "required": ["ids"], "additionalProperties": false, "properties": {"ids": ids}},
            {"type": "object", "required": ["filter"], "additionalProperties": false, "properties": {"filter": filter}}
        ]
    })
}

/// An action's body: `action` one of `actions`, `extra` members beside it, and `select`. An
/// extra member whose type allows `null` is optional (left out or `null`: its default); the
/// others are required.
pub fn action_schema(actions: &[&str], extra: serde_json::Value, select: serde_json::Value) -> serde_json::Value {
    let mut properties = serde_json::json!({"action": {"type": "string", "enum": actions}, "select": select});
    let mut required = vec!["action".to_string(), "select".to_string()];
    if let Some(extra) = extra.as_object() {
        for (k, v) in extra {
            properties[k] = v.clone();
            let nullable = v["type"].as_array().is_some_and(|t| t.iter().any(|t| t == "null"));
            if !nullable {
                required.push(k.clone());
            }
        }
    }
    serde_json::json!({"type": "object", "required": required, "additionalProperties": false, "properties": properties})
}

/// The body's members, none but `allowed` (a member the document does not list is a 400 naming
/// it, as everywhere else).
pub fn members(body: &[u8], allowed: &[&str]) -> Result<serde_json::Map<String, serde_json::Value>, Error> {
    let v: serde_json::Value =
        serde_json::from_slice(body).map_err(|e| Error::bad_request(format!("The JSON body does not read: {e}")))?;
    let serde_json::Value::Object(m) = v else { return Err(Error::bad_request("The body must be a JSON object")) };
    if let Some(k) = m.keys().find(|k| !allowed.contains(&k.as_str())) {
        return Err(Error::field(
            k.clone(),
            format!("is not a member of this request; it takes {}", allowed.join(", ")),
        ));
    }
    Ok(m)
}

/// The body as `T`, its members none but `allowed`: serde cannot refuse unknown members beside
/// a `#[serde(flatten)]` part, as `BulkRequest`'s parameters are.
pub fn read<T: serde::de::DeserializeOwned>(body: &[u8], allowed: &[&str]) -> Result<T, Error> {
    serde_json::from_value(serde_json::Value::Object(members(body, allowed)?))
        .map_err(|e| Error::bad_request(format!("The JSON body does not read: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_taken_once_each_in_their_order() {
        let Chosen::Ids(ids) = choose(&BulkSelect::ids(["b", "a", "b"]), &[]).ok().unwrap() else { panic!() };
        assert_eq!(ids, ["b", "a"]);
    }

    #[test]
    fn a_filter_keeps_the_lists_filters_drops_paging_and_refuses_the_rest() {
        let select = BulkSelect::filter([("state", "failed"), ("page", "3"), ("sort", "x")]);
        let Chosen::Filter(pairs) = choose(&select, &["state"]).ok().unwrap() else { panic!() };
        assert_eq!(pairs, [("state".to_string(), "failed".to_string())]);
        let e = choose(&BulkSelect::filter([("colour", "red")]), &["state"]).err().unwrap();
        assert_eq!((e.status.as_u16(), e.fields[0].field.as_str()), (400, "select.filter.colour"));
    }

    #[test]
    fn both_or_neither_is_a_400_and_too_many_a_422() {
        let both = BulkSelect { ids: Some(vec!["1".into()]), ..BulkSelect::filter([("a", "b")]) };
        assert_eq!(choose(&both, &["a"]).err().unwrap().status.as_u16(), 400);
        assert_eq!(choose(&BulkSelect::default(), &[]).err().unwrap().status.as_u16(), 400);
        assert!(limit(BULK_LIMIT).is_ok());
        assert_eq!(limit(BULK_LIMIT + 1).err().unwrap().reason, "too_many");
    }
}
