//! One search across everything over real HTTP on both backends: each group found by the kind
//! of text that names its records, the groups a token's scopes do not open left out, hits
//! ranked exact → prefix → contains, and a bad `q` refused by name.

use crate::common;

use common::{json, Backend, Server};
use moneydesk_model::accounts::Account;
use moneydesk_model::deposits::ServiceType;
use moneydesk_model::{paths, Scope};
use moneydesk_server::accounts::seed::Accounts;
use moneydesk_server::deposits::store::CreateOutcome;
use serde_json::{json, Value};

async fn search(s: &Server, token: &str, query: &str) -> (u16, Value) {
    let r = s.get_auth(&format!("{}?{query}", paths::SEARCH), token).await;
    (r.status().as_u16(), json(r).await)
}

/// The answer's `data` (asserting a 200).
async fn found(s: &Server, token: &str, q: &str) -> Value {
    let query = format!("q={}", moneydesk_model::search::query_value(q));
    let (status, body) = search(s, token, &query).await;
    assert_eq!(status, 200, "{q}: {body}");
    body["data"].clone()
}

fn group<'a>(data: &'a Value, name: &str) -> &'a Value {
    data["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["group"] == name)
        .unwrap_or_else(|| panic!("no {name} in {data}"))
}

fn groups(data: &Value) -> Vec<String> {
    data["groups"].as_array().unwrap().iter().map(|g| g["group"].as_str().unwrap().to_string()).collect()
}

/// The first hit of `name` in the answer.
fn first<'a>(data: &'a Value, name: &str) -> &'a Value {
    let g = group(data, name);
    g["hits"].get(0).unwrap_or_else(|| panic!("{name} found nothing: {data}"))
}

/// A deposit straight into the store, with a check number and the bank it is drawn on.
async fn deposit(s: &Server, payee: &Account, check: &str, cents: i64) -> i64 {
    let mut row = common::deposits::row(ServiceType::Check, &payee.id, cents, 0);
    row.check_number = Some(check.into());
    row.bank_routing_number = Some("021090028".into());
    row.payee_name = Some(payee.account_name.clone());
    match s.running.state.stores.deposits.create(&row, None).await.unwrap() {
        CreateOutcome::Created(r) | CreateOutcome::Repeated(r) => r.id,
    }
}

async fn start(backend: Backend) -> (Server, Vec<Account>) {
    let dir = tempfile::tempdir().unwrap();
    let url = backend.database_url(dir.path()).await;
    let s = Server::start_in_dir(dir, |c| {
        c.database_url = url;
        c.email.worker = false;
    })
    .await;
    let accounts: Vec<Account> = Accounts::new(5, 11).collect();
    let mut w = s.running.state.stores.accounts.writer().await.unwrap();
    w.insert(&accounts).await.unwrap();
    w.commit().await.unwrap();
    (s, accounts)
}

on_both_backends!(
    each_group_is_found_by_the_kind_of_text_that_names_its_records,
    groups_the_scopes_do_not_open_are_left_out_and_tokens_are_the_callers_own,
    hits_rank_exact_then_prefix_then_contains_and_say_when_there_are_more,
    deposits_are_found_by_payee_name_payee_account_and_a_short_number_through_each_index,
    a_bad_query_is_a_400_naming_its_parameter,
);

async fn each_group_is_found_by_the_kind_of_text_that_names_its_records(backend: Backend) {
    let (s, accounts) = start(backend).await;
    let admin = s.running.create_token("nightly-export", &[Scope::Admin]).await.unwrap();
    let id = deposit(&s, &accounts[0], "884421", 432_109).await;

    let by_check = found(&s, &admin, "884421").await;
    assert_eq!(by_check["shape"], "number");
    let hit = first(&by_check, "deposits");
    assert_eq!(
        (hit["id"].as_str(), &hit["match"], &hit["field"]),
        (Some(id.to_string().as_str()), &json!("exact"), &json!("checkNumber"))
    );
    assert_eq!(hit["open"], format!("/deposits?amountMin=4321.09&amountMax=4321.09&open={id}"));

    let by_amount = found(&s, &admin, "$4,321.09").await;
    assert_eq!(by_amount["shape"], "amount");
    assert_eq!(first(&by_amount, "deposits")["field"], "amount");
    assert_eq!(first(&found(&s, &admin, &id.to_string()).await, "deposits")["field"], "id");

    let by_routing = found(&s, &admin, "021090028").await;
    assert_eq!(by_routing["shape"], "routingNumber");
    let bank = first(&by_routing, "routing");
    assert_eq!((&bank["match"], &bank["open"]), (&json!("exact"), &json!("/routing?number=021090028")));
    assert!(bank["title"].as_str().unwrap().contains("ACME COMMUNITY BANK"), "{bank}");
    assert_eq!(first(&by_routing, "deposits")["field"], "bankRoutingNumber", "the checks drawn on it");
    assert_eq!(first(&found(&s, &admin, "acme community").await, "routing")["match"], "prefix");

    let name = &accounts[3].account_name;
    let account = first(&found(&s, &admin, name).await, "accounts").clone();
    assert_eq!(
        (&account["id"], &account["match"], &account["field"]),
        (&json!(accounts[3].id), &json!("exact"), &json!("accountName"))
    );
    assert!(account["open"].as_str().unwrap().starts_with("/accounts?name="), "{account}");

    let part = reqwest::multipart::Part::bytes(b"%PDF-1.4".to_vec()).file_name("quarterly-report.pdf");
    let url = s.url(&format!("{}?path=", paths::VAULT_FILE.replace("{userId}", "nightly-export")));
    let r = s
        .client
        .post(url)
        .bearer_auth(&admin)
        .multipart(reqwest::multipart::Form::new().part("file", part))
        .send()
        .await
        .unwrap();
    assert!(r.status().is_success(), "{}", r.text().await.unwrap());
    let file = first(&found(&s, &admin, "quarterly").await, "vault").clone();
    assert_eq!((&file["id"], &file["match"]), (&json!("quarterly-report.pdf"), &json!("prefix")));
    assert_eq!(file["open"], "/vault?file=quarterly-report.pdf");

    let message = json!({
        "from": {"email": "ops@moneydesk.test"},
        "subject": "Your March statement",
        "content": [{"type": "text/plain", "value": "Hello"}],
        "personalizations": [{"to": [{"email": "ana@client.example"}]}]
    });
    let r = s.client.post(s.url(paths::EMAIL_SEND)).bearer_auth(&admin).json(&message).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 202, "{}", r.text().await.unwrap());
    let by_address = found(&s, &admin, "ana@client.example").await;
    assert_eq!(by_address["shape"], "email");
    let mail = first(&by_address, "email");
    assert_eq!(
        (&mail["title"], &mail["match"], &mail["field"]),
        (&json!("Your March statement"), &json!("exact"), &json!("to"))
    );
    assert!(mail["open"].as_str().unwrap().starts_with("/email?tab=outbox&q=msg_"), "{mail}");
    assert_eq!(first(&found(&s, &admin, "march").await, "email")["match"], "contains");

    let token = first(&found(&s, &admin, "nightly-export").await, "tokens").clone();
    assert_eq!((&token["title"], &token["match"]), (&json!("nightly-export"), &json!("exact")));
}

async fn groups_the_scopes_do_not_open_are_left_out_and_tokens_are_the_callers_own(backend: Backend) {
    let (s, accounts) = start(backend).await;
    deposit(&s, &accounts[0], "770001", 10_000).await;
    let reader = s.running.create_token("reader-ann", &[Scope::DepositsRead]).await.unwrap();
    s.running.create_token("reader-bob", &[Scope::RoutingRead]).await.unwrap();

    let data = found(&s, &reader, "770001").await;
    assert_eq!(groups(&data), ["deposits", "tokens"], "only deposits (and its own tokens) for deposits:read");
    assert_eq!(first(&data, "deposits")["field"], "checkNumber");

    let mine = found(&s, &reader, "reader").await;
    let names: Vec<&str> =
        group(&mine, "tokens")["hits"].as_array().unwrap().iter().map(|h| h["title"].as_str().unwrap()).collect();
    assert_eq!(names, ["reader-ann"], "another user's token is not found");

    let admin = s.token(&[Scope::Admin]).await;
    let all = found(&s, &admin, "reader").await;
    assert_eq!(groups(&all), ["deposits", "accounts", "routing", "vault", "email", "tokens"]);
    assert_eq!(group(&all, "tokens")["hits"].as_array().unwrap().len(), 2, "an admin finds every token");
    assert_eq!(group(&all, "deposits")["hits"], json!([]), "a group that found nothing is present, empty");
}

async fn hits_rank_exact_then_prefix_then_contains_and_say_when_there_are_more(backend: Backend) {
    let (s, accounts) = start(backend).await;
    // Written best-last, so newest-first alone would put them the wrong way round.
    let contains = deposit(&s, &accounts[0], "995150", 101).await;
    let prefix = deposit(&s, &accounts[0], "51509", 102).await;
    let exact = deposit(&s, &accounts[0], "5150", 103).await;
    deposit(&s, &accounts[0], "4440", 104).await;
    let t = s.token(&[Scope::DepositsRead]).await;

    let data = found(&s, &t, "5150").await;
    let g = group(&data, "deposits");
    let order: Vec<(String, String)> = g["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| (h["id"].as_str().unwrap().to_string(), h["match"].as_str().unwrap().to_string()))
        .collect();
    let want =
        [(exact, "exact"), (prefix, "prefix"), (contains, "contains")].map(|(i, m)| (i.to_string(), m.to_string()));
    assert_eq!(order, want);
    assert_eq!(g["more"], false);

    let (status, body) = search(&s, &t, "q=5150&limit=2").await;
    assert_eq!(status, 200);
    let g = group(&body["data"], "deposits");
    assert_eq!(g["hits"].as_array().unwrap().len(), 2);
    assert_eq!(g["more"], true, "a third matched");
    assert_eq!(g["hits"][1]["match"], "prefix", "the best two are kept");
}

/// Each stage asks its own index (migration 0024): the payee's name ignoring case (exact,
/// its start, a part of it through the trigram index), the start of the payee's account id,
/// and a number too short for trigrams (scanned).
async fn deposits_are_found_by_payee_name_payee_account_and_a_short_number_through_each_index(backend: Backend) {
    let (s, accounts) = start(backend).await;
    let payee = Account { account_name: "Harborview Dental Group".into(), ..accounts[2].clone() };
    let id = deposit(&s, &payee, "884421", 5_000).await.to_string();
    deposit(&s, &accounts[1], "990000", 6_000).await;
    let t = s.token(&[Scope::DepositsRead]).await;
    let hit = |q: &'static str| {
        let (s, t) = (&s, &t);
        async move { first(&found(s, t, q).await, "deposits").clone() }
    };
    for (q, matched) in [("HARBORVIEW DENTAL GROUP", "exact"), ("harborview", "prefix"), ("Dental Gr", "contains")] {
        let h = hit(q).await;
        assert_eq!((&h["id"], &h["match"], &h["field"]), (&json!(id), &json!(matched), &json!("payeeName")), "{q}");
    }
    let short = hit("42").await;
    assert_eq!(
        (&short["id"], &short["match"], &short["field"]),
        (&json!(id), &json!("contains"), &json!("checkNumber"))
    );
    let start_of_id = &payee.id[..payee.id.len() - 1];
    let data = found(&s, &t, start_of_id).await;
    assert_eq!(data["shape"], "text", "{start_of_id}");
    let h = first(&data, "deposits");
    assert_eq!((&h["id"], &h["match"], &h["field"]), (&json!(id), &json!("prefix"), &json!("payeeAccountId")));
}

async fn a_bad_query_is_a_400_naming_its_parameter(backend: Backend) {
    let (s, _) = start(backend).await;
    let t = s.token(&[Scope::DepositsRead]).await;
    let long = format!("q={}", "x".repeat(101));
    for (query, field, words) in [
        ("", "q", "q is required"),
        ("q=%20a%20", "q", "at least 2 characters"),
        (long.as_str(), "q", "at most 100 characters"),
        ("q=ab%07", "q", "control characters"),
        ("q=acme&limit=0", "limit", "from 1 to 20"),
        ("q=acme&limit=21", "limit", "from 1 to 20"),
        ("q=acme&sort=name", "sort", "unknown parameter"),
    ] {
        let (status, body) = search(&s, &t, query).await;
        assert_eq!(status, 400, "{query}: {body}");
        assert_eq!(body["errors"][0]["field"], field, "{query}: {body}");
        assert!(body.to_string().contains(words), "{query}: {body}");
    }
    let (status, _) = search(&s, "mdk_not-a-token", "q=acme").await;
    assert_eq!(status, 401);
}
