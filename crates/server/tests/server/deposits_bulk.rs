//! Bulk actions on deposits and their export over real HTTP on both backends (issue 45): the
//! answer says per deposit what happened and a refusal undoes nothing of the others, each
//! deposit moved is on the audit trail on its own, a filter selects what matches on the server,
//! a replay with the same Idempotency-Key answers the first answer, the scopes of the single
//! action, malformed selections, and the limit.

use crate::common;

use common::{json, Backend, Server};
use moneydesk_model::accounts::Account;
use moneydesk_model::bulk::BULK_LIMIT;
use moneydesk_model::{paths, Scope};
use moneydesk_server::accounts::seed::Accounts;
use serde_json::{json, Value};

struct Bank {
    server: Server,
    writer: String,
    reader: String,
    admin: String,
    payees: Vec<Account>,
}

/// A server with a few accounts, a `deposits:read deposits:write` token, a `deposits:read`
/// token and an admin token.
async fn bank(backend: Backend) -> Bank {
    let server = Server::start_on(backend).await;
    let payees: Vec<Account> = Accounts::new(3, 11).collect();
    let mut w = server.running.state.stores.accounts.writer().await.unwrap();
    w.insert(&payees).await.unwrap();
    w.commit().await.unwrap();
    let writer = server.token(&[Scope::DepositsRead, Scope::DepositsWrite]).await;
    let reader = server.token(&[Scope::DepositsRead]).await;
    let admin = server.token(&[Scope::Admin]).await;
    Bank { server, writer, reader, admin, payees }
}

impl Bank {
    /// A cash deposit of `amount` to the `payee`-th account; its id.
    async fn cash(&self, payee: usize, amount: &str) -> i64 {
        let body = json!({"amount": amount, "payeeAccountId": self.payees[payee].id, "payeeUserId": "usr-1"});
        let (status, rec) = self.post(&self.writer, paths::DEPOSITS_CASH, &body, None).await;
        assert_eq!(status, 201, "{rec}");
        rec["id"].as_i64().unwrap()
    }

    async fn post(&self, token: &str, path: &str, body: &Value, key: Option<&str>) -> (u16, Value) {
        let mut req = self.server.client.post(self.server.url(path)).bearer_auth(token).json(body);
        if let Some(k) = key {
            req = req.header("Idempotency-Key", k);
        }
        let r = req.send().await.unwrap();
        (r.status().as_u16(), json(r).await)
    }

    async fn bulk(&self, body: Value) -> (u16, Value) {
        self.post(&self.writer, paths::DEPOSITS_BULK, &body, None).await
    }

    async fn status_of(&self, id: i64) -> String {
        let r = self.server.get_auth(&paths::DEPOSIT.replace("{id}", &id.to_string()), &self.reader).await;
        json(r).await["data"]["record"]["status"].as_str().unwrap().to_string()
    }

    async fn export(&self, token: &str, select: Value) -> (u16, String, String) {
        let r = self.server.client.post(self.server.url(paths::DEPOSITS_EXPORT)).bearer_auth(token);
        let r = r.json(&json!({"select": select})).send().await.unwrap();
        let kind = r.headers().get("content-type").map(|v| v.to_str().unwrap().to_string()).unwrap_or_default();
        (r.status().as_u16(), kind, r.text().await.unwrap())
    }
}

/// The `id`s of the items with this outcome, in the answer's order.
fn ids_with(result: &Value, outcome: &str) -> Vec<String> {
    let items = result["data"]["items"].as_array().unwrap();
    items.iter().filter(|i| i["outcome"] == outcome).map(|i| i["id"].as_str().unwrap().to_string()).collect()
}

on_both_backends!(
    a_bulk_confirm_reports_each_deposit_and_a_refusal_undoes_nothing_of_the_others,
    each_deposit_moved_is_on_the_audit_trail_on_its_own,
    a_filter_selects_the_deposits_matching_on_the_server_when_the_request_runs,
    a_bulk_reject_needs_one_reason_and_keeps_it_in_each_deposits_history,
    a_replay_with_the_same_idempotency_key_answers_the_first_answer_without_moving_again,
    a_token_without_the_actions_scope_is_refused_and_nothing_moves,
    malformed_selections_and_actions_are_400s_naming_the_member,
    more_than_the_limit_is_a_422_too_many_and_nothing_is_done,
    the_export_answers_the_selected_records_as_csv_under_the_records_names,
);

async fn a_bulk_confirm_reports_each_deposit_and_a_refusal_undoes_nothing_of_the_others(backend: Backend) {
    let b = bank(backend).await;
    let (first, cancelled, last) = (b.cash(0, "10.00").await, b.cash(0, "20.00").await, b.cash(1, "30.00").await);
    let (status, _) = b
        .post(
            &b.writer,
            &paths::DEPOSIT_ACTIONS.replace("{id}", &cancelled.to_string()),
            &json!({"action": "cancel"}),
            None,
        )
        .await;
    assert_eq!(status, 200);

    let ids =
        json!([first.to_string(), cancelled.to_string(), last.to_string(), "999999", "not-an-id", first.to_string()]);
    let (status, result) = b.bulk(json!({"action": "confirm", "select": {"ids": ids}})).await;

    assert_eq!(status, 200, "partial success is a 200 whose items say it: {result}");
    let data = &result["data"];
    assert_eq!((data["action"].as_str(), data["matched"].as_u64()), (Some("confirm"), Some(5)), "{result}");
    assert_eq!((data["done"].as_u64(), data["refused"].as_u64()), (Some(2), Some(3)));
    assert_eq!(ids_with(&result, "done"), [first.to_string(), last.to_string()], "in the order given, once each");
    let items = data["items"].as_array().unwrap();
    assert_eq!(items[1]["reason"], "illegal_transition");
    assert!(items[1]["problem"].as_str().unwrap().contains("Cancelled_7"), "the problem names the state: {result}");
    assert_eq!((items[3]["reason"].as_str(), items[4]["reason"].as_str()), (Some("not_found"), Some("not_found")));
    assert_eq!(items[0].get("reason"), None, "a done item has no reason");
    assert_eq!(b.status_of(first).await, "Confirmed_2");
    assert_eq!(b.status_of(last).await, "Confirmed_2");
    assert_eq!(b.status_of(cancelled).await, "Cancelled_7", "the refused deposit is as it was");
}

async fn each_deposit_moved_is_on_the_audit_trail_on_its_own(backend: Backend) {
    let b = bank(backend).await;
    let (one, two, sent_back) = (b.cash(0, "1.00").await, b.cash(0, "2.00").await, b.cash(0, "3.00").await);
    b.post(
        &b.writer,
        &paths::DEPOSIT_ACTIONS.replace("{id}", &sent_back.to_string()),
        &json!({"action": "cancel"}),
        None,
    )
    .await;

    let ids = json!([one.to_string(), two.to_string(), sent_back.to_string()]);
    let (status, result) = b.bulk(json!({"action": "cancel", "select": {"ids": ids}})).await;
    assert_eq!((status, result["data"]["done"].as_u64()), (200, Some(2)), "{result}");

    let query = format!("{}?operation=bulk_deposits&size=50", paths::AUDIT_RECORDS);
    let records = json(b.server.get_auth(&query, &b.admin).await).await;
    let records = records["data"]["content"].as_array().unwrap().clone();
    let mut targets: Vec<(String, String)> = records
        .iter()
        .map(|r| (r["targetType"].as_str().unwrap().to_string(), r["targetId"].as_str().unwrap().to_string()))
        .collect();
    targets.sort();
    let mut expected = vec![("deposits".to_string(), one.to_string()), ("deposits".to_string(), two.to_string())];
    expected.sort();
    assert_eq!(targets, expected, "one record per deposit moved, none for the refused one: {records:?}");
    assert!(records.iter().all(|r| r["outcome"] == "succeeded" && r["actor"]["tokenName"] == "test"), "{records:?}");
    let change = &records[0]["changes"][0];
    assert_eq!(
        (change["field"].as_str(), change["after"].as_str()),
        (Some("status"), Some("Cancelled_7")),
        "as the single move records it"
    );
}

async fn a_filter_selects_the_deposits_matching_on_the_server_when_the_request_runs(backend: Backend) {
    let b = bank(backend).await;
    let (small, large) = (b.cash(0, "5.00").await, b.cash(0, "500.00").await);
    let other_payee = b.cash(1, "700.00").await;
    let payee = b.payees[0].id.clone();
    // Made after the browser last saw the list: the server's filter still takes it.
    let late = b.cash(0, "900.00").await;

    let filter = json!({"payeeAccountId": payee, "amountMin": "100.00"});
    let (status, result) = b.bulk(json!({"action": "cancel", "select": {"filter": filter}})).await;

    assert_eq!(status, 200, "{result}");
    assert_eq!(result["data"]["matched"], 2);
    assert_eq!(ids_with(&result, "done"), [late.to_string(), large.to_string()], "newest first, as the list");
    assert_eq!(b.status_of(large).await, "Cancelled_7");
    assert_eq!(b.status_of(small).await, "In_Progress_1", "below the filter's amount");
    assert_eq!(b.status_of(other_payee).await, "In_Progress_1", "another payee");

    let (status, result) =
        b.bulk(json!({"action": "confirm", "select": {"filter": {"status": "In_Progress_1"}}})).await;
    assert_eq!(status, 200);
    let mut done = ids_with(&result, "done");
    done.sort();
    let mut expected = vec![small.to_string(), other_payee.to_string()];
    expected.sort();
    assert_eq!(done, expected, "the status filter matches what is in progress now: {result}");
}

async fn a_bulk_reject_needs_one_reason_and_keeps_it_in_each_deposits_history(backend: Backend) {
    let b = bank(backend).await;
    let (one, two) = (b.cash(2, "11.00").await, b.cash(2, "12.00").await);
    let ids = json!([one.to_string(), two.to_string()]);

    let (status, err) = b.bulk(json!({"action": "reject", "select": {"ids": ids}})).await;
    assert_eq!(status, 400);
    assert_eq!(err["errors"][0]["field"], "reason", "{err}");
    assert_eq!(b.status_of(one).await, "In_Progress_1");

    let (status, result) =
        b.bulk(json!({"action": "reject", "reason": "Counterfeit batch", "select": {"ids": ids}})).await;
    assert_eq!((status, result["data"]["done"].as_u64()), (200, Some(2)), "{result}");
    for id in [one, two] {
        let detail = json(b.server.get_auth(&paths::DEPOSIT.replace("{id}", &id.to_string()), &b.reader).await).await;
        let last = detail["data"]["history"].as_array().unwrap().last().unwrap().clone();
        assert_eq!((last["action"].as_str(), last["reason"].as_str()), (Some("reject"), Some("Counterfeit batch")));
    }
}

async fn a_replay_with_the_same_idempotency_key_answers_the_first_answer_without_moving_again(backend: Backend) {
    let b = bank(backend).await;
    let id = b.cash(0, "42.00").await;
    let body = json!({"action": "confirm", "select": {"ids": [id.to_string()]}});

    let (status, first) = b.post(&b.writer, paths::DEPOSITS_BULK, &body, Some("bulk-confirm-1")).await;
    assert_eq!((status, first["data"]["done"].as_u64()), (200, Some(1)), "{first}");
    let r = b.server.client.post(b.server.url(paths::DEPOSITS_BULK)).bearer_auth(&b.writer);
    let r = r.header("Idempotency-Key", "bulk-confirm-1").json(&body).send().await.unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["idempotent-replayed"], "true");
    let again = json(r).await;
    assert_eq!(again["data"], first["data"], "run again it would say refused: the deposit is confirmed already");

    let (status, fresh) = b.post(&b.writer, paths::DEPOSITS_BULK, &body, Some("bulk-confirm-2")).await;
    assert_eq!((status, ids_with(&fresh, "refused")), (200, vec![id.to_string()]), "a new key runs it again");
}

async fn a_token_without_the_actions_scope_is_refused_and_nothing_moves(backend: Backend) {
    let b = bank(backend).await;
    let id = b.cash(0, "8.00").await;
    let body = json!({"action": "cancel", "select": {"ids": [id.to_string()]}});

    let (status, err) = b.post(&b.reader, paths::DEPOSITS_BULK, &body, None).await;
    assert_eq!(status, 403, "deposits:read does not move deposits: {err}");
    assert_eq!(b.status_of(id).await, "In_Progress_1");

    let (status, _, csv) = b.export(&b.reader, json!({"ids": [id.to_string()]})).await;
    assert_eq!(status, 200, "exporting is reading: {csv}");
    let ledger_only = b.server.token(&[Scope::LedgerRead]).await;
    let (status, _, _) = b.export(&ledger_only, json!({"ids": [id.to_string()]})).await;
    assert_eq!(status, 403, "exporting deposits needs deposits:read");
}

async fn malformed_selections_and_actions_are_400s_naming_the_member(backend: Backend) {
    let b = bank(backend).await;
    let id = b.cash(0, "9.00").await.to_string();
    let cases = [
        (json!({"action": "confirm", "select": {"ids": [id], "filter": {}}}), "select"),
        (json!({"action": "confirm", "select": {}}), "select"),
        (json!({"action": "confirm", "select": {"ids": []}}), "select"),
        (json!({"action": "confirm"}), "select"),
        (json!({"action": "confirm", "select": {"filter": {"page": "2"}}}), "select.filter.page"),
        (json!({"action": "confirm", "select": {"filter": {"status": "Lost"}}}), "select.filter.status"),
        (json!({"action": "confirm", "select": {"ids": [id], "everything": true}}), "select.everything"),
        (json!({"action": "settle", "select": {"ids": [id]}}), "action"),
        (json!({"select": {"ids": [id]}}), "action"),
        (json!({"action": "reject", "reason": "  ", "select": {"ids": [id]}}), "reason"),
        (json!({"action": "confirm", "note": "x", "select": {"ids": [id]}}), "note"),
    ];
    for (body, field) in cases {
        let (status, err) = b.bulk(body.clone()).await;
        assert_eq!(status, 400, "{body} → {err}");
        assert_eq!(err["errors"][0]["field"], field, "{body} → {err}");
    }
    let (status, _) = b.post(&b.writer, paths::DEPOSITS_BULK, &json!(["confirm"]), None).await;
    assert_eq!(status, 400, "the body is an object");
    let (status, _, _) = b.export(&b.writer, json!({"filter": {"sort": "amount"}})).await;
    assert_eq!(status, 400, "sort is not a filter");
    assert_eq!(b.status_of(id.parse().unwrap()).await, "In_Progress_1");
}

async fn more_than_the_limit_is_a_422_too_many_and_nothing_is_done(backend: Backend) {
    let b = bank(backend).await;
    let id = b.cash(0, "7.00").await;
    let mut ids: Vec<String> = (0..BULK_LIMIT).map(|n| format!("{}", 1_000_000 + n)).collect();
    ids.insert(0, id.to_string());

    let (status, err) = b.bulk(json!({"action": "cancel", "select": {"ids": ids}})).await;

    assert_eq!(status, 422, "{err}");
    assert_eq!(err["reason"], "too_many");
    assert_eq!(b.status_of(id).await, "In_Progress_1", "nothing was done");
    ids.pop();
    let (status, result) = b.bulk(json!({"action": "cancel", "select": {"ids": ids}})).await;
    assert_eq!((status, result["data"]["done"].as_u64()), (200, Some(1)), "exactly the limit is taken");
}

async fn the_export_answers_the_selected_records_as_csv_under_the_records_names(backend: Backend) {
    let b = bank(backend).await;
    let (one, two) = (b.cash(0, "15.25").await, b.cash(1, "16.50").await);

    let (status, kind, csv) = b.export(&b.reader, json!({"ids": [two.to_string(), "404404", one.to_string()]})).await;
    assert_eq!((status, kind.as_str()), (200, "text/csv; charset=utf-8"), "{csv}");
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let header: Vec<String> = reader.headers().unwrap().iter().map(str::to_string).collect();
    assert_eq!(header[0], "id");
    let column = |name: &str| header.iter().position(|h| h == name).unwrap_or_else(|| panic!("{name} in {header:?}"));
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let got: Vec<(&str, &str, &str)> =
        rows.iter().map(|r| (&r[column("id")], &r[column("amount")], &r[column("status")])).collect();
    assert_eq!(got, [(&*two.to_string(), "16.50", "In_Progress_1"), (&*one.to_string(), "15.25", "In_Progress_1")]);

    let (status, _, csv) = b.export(&b.reader, json!({"filter": {"payeeAccountId": b.payees[1].id}})).await;
    assert_eq!(status, 200);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 2, "the header and the one deposit of that payee: {csv}");
    assert!(lines[1].starts_with(&format!("{two},")), "{csv}");

    let (status, _, csv) = b.export(&b.reader, json!({"filter": {"status": "Settled_4"}})).await;
    assert_eq!((status, csv.lines().count()), (200, 1), "nothing selected: the header alone: {csv}");
}
