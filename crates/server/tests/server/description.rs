//! Field names to the letter: the description's own tables (`../shared/API-DESCRIPTION.md`,
//! read here, never copied) against real records fetched over HTTP from a running server —
//! the routing records (2.2, 2.3), a deposit list item (2.4), a deposit record (2.5), an
//! account (2.6), a permission record (2.7) and the envelope and page (2.9: every member of
//! `sort` and `pageable` too). The served OpenAPI document must name the same members, and a
//! member the description lacks passes only when listed in [`EXTENSIONS`] with its reason and
//! marked `x-extension: true` in the document.

use crate::common;

use std::collections::BTreeSet;

use common::{check_png, json, Backend, Server};
use moneydesk_model::accounts::Account;
use moneydesk_model::{paths, Scope};
use moneydesk_server::accounts::seed::Accounts;
use moneydesk_server::permissions::seed::permissions;
use serde_json::{json, Value};

/// Members the description does not list, each with why it is there (record, member, reason).
const EXTENSIONS: &[(&str, &str, &str)] = &[
    (
        "2.9 envelope",
        "errors",
        "each wrong field with its problem, for programs (CONTRACT.md point 8); absent on success",
    ),
    ("2.9 envelope", "reason", "a stable word for the kind of error (CONTRACT.md point 8); absent on success"),
    ("2.9 envelope", "requestId", "the request id an error was logged under, for support; absent when none"),
    ("2.7", "id", "2.7 shows no fields of a permission record: this server defines them all"),
    ("2.7", "userId", "2.7 shows no fields: the user the scope is granted to"),
    ("2.7", "userName", "2.7 shows no fields: the user's name"),
    ("2.7", "userEmail", "2.7 shows no fields: the user's address"),
    ("2.7", "companyId", "2.7 shows no fields: the company of the user"),
    ("2.7", "companyName", "2.7 shows no fields: the company's name"),
    ("2.7", "scope", "2.7 shows no fields: the API scope granted"),
    ("2.7", "grantedBy", "2.7 shows no fields: who granted it"),
    ("2.7", "grantedAt", "2.7 shows no fields: when it was granted"),
];

fn description() -> String {
    let path = format!("{}/../../../shared/API-DESCRIPTION.md", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Section `num` ("2.6"): from its heading to the next heading.
fn section<'a>(doc: &'a str, num: &str) -> &'a str {
    let head = format!("### {num} ");
    let start = doc.find(&head).unwrap_or_else(|| panic!("no section {num}"));
    let body = &doc[start + head.len()..];
    let end = body.find("\n#").map_or(body.len(), |i| i + 1);
    &body[..end]
}

/// The section's tables: each a list of rows (header and separator dropped), each of cells.
fn tables(sec: &str) -> Vec<Vec<Vec<String>>> {
    let mut out: Vec<Vec<Vec<String>>> = Vec::new();
    let mut open = false;
    for line in sec.lines() {
        let Some(row) = line.trim().strip_prefix('|') else {
            open = false;
            continue;
        };
        let cells: Vec<String> = row.trim_end_matches('|').split('|').map(|c| c.trim().to_string()).collect();
        if !open {
            out.push(Vec::new()); // this row is the header
            open = true;
        } else if !cells.iter().all(|c| c.chars().all(|ch| ch == '-' || ch == ':')) {
            out.last_mut().unwrap().push(cells);
        }
    }
    out
}

/// Names in a cell such as `acId, name, accountNumber` or `sort (as above), pageNumber (integer)`.
fn names(cell: &str) -> BTreeSet<String> {
    let mut plain = String::new();
    let mut depth = 0;
    for ch in cell.chars() {
        match ch {
            '(' => depth += 1,
            ')' => depth -= 1,
            _ if depth == 0 => plain.push(ch),
            _ => {}
        }
    }
    let set: BTreeSet<String> = plain.split(',').map(|n| n.trim().to_string()).filter(|n| !n.is_empty()).collect();
    for n in &set {
        assert!(n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'), "not a field name: {n:?} in {cell:?}");
    }
    set
}

/// The field names of a section's first table (the first column, several names to a cell).
fn fields(doc: &str, num: &str) -> BTreeSet<String> {
    let sec = section(doc, num);
    let t = tables(sec);
    t.first().map(|rows| rows.iter().flat_map(|r| names(&r[0])).collect()).unwrap_or_default()
}

/// 2.5's fields: its table and the sentence listing the fields that are null in the example.
fn deposit_record_fields(doc: &str) -> BTreeSet<String> {
    let sec = section(doc, "2.5");
    let lead = "which are null in the example:";
    let at = sec.find(lead).expect("2.5 lists the null-valued fields") + lead.len();
    let list = &sec[at..at + sec[at..].find('.').unwrap()];
    let mut set = fields(doc, "2.5");
    set.extend(names(list));
    set
}

/// 2.9's tables: the envelope's members, the page's, and the members a page member's meaning
/// lists (`sort`: sorted, unsorted, empty; `pageable`: sort, pageNumber, ...).
fn page_fields(doc: &str) -> (BTreeSet<String>, BTreeSet<String>, BTreeSet<String>, BTreeSet<String>) {
    let t = tables(section(doc, "2.9"));
    assert_eq!(t.len(), 2, "2.9 has the envelope's table and the page's");
    let col = |rows: &Vec<Vec<String>>| -> BTreeSet<String> { rows.iter().flat_map(|r| names(&r[0])).collect() };
    let meaning = |member: &str| names(&t[1].iter().find(|r| r[0] == member).unwrap()[2]);
    (col(&t[0]), col(&t[1]), meaning("sort"), meaning("pageable"))
}

/// Follows `$ref`s (and a lone `allOf`/`oneOf` wrapper) to the schema itself.
fn resolve<'a>(doc: &'a Value, mut s: &'a Value) -> &'a Value {
    loop {
        if let Some(r) = s["$ref"].as_str() {
            s = &doc["components"]["schemas"][r.trim_start_matches("#/components/schemas/")];
        } else if let Some([one]) = s["allOf"].as_array().map(Vec::as_slice) {
            s = one;
        } else if let Some(some) = s["oneOf"].as_array() {
            // `Option<T>` as `oneOf: [null, T]`: the T.
            s = some.iter().find(|v| v["type"] != "null").unwrap();
        } else {
            return s;
        }
    }
}

/// The JSON schema a GET or POST answers with `status` on `path`.
fn answer_schema<'a>(doc: &'a Value, path: &str, method: &str, status: &str) -> &'a Value {
    let s = &doc["paths"][path][method]["responses"][status]["content"]["application/json"]["schema"];
    assert!(!s.is_null(), "the document has no {status} answer for {method} {path}");
    resolve(doc, s)
}

fn property<'a>(doc: &'a Value, schema: &'a Value, name: &str) -> &'a Value {
    resolve(doc, &schema["properties"][name])
}

/// What is wrong with `record`'s member names against the description's `described` and the
/// document's `schema` for it: an empty list when nothing is. A documented member an answer
/// may leave out is one the schema does not require.
fn differences(what: &str, record: &Value, described: &BTreeSet<String>, schema: &Value) -> Vec<String> {
    let keys: BTreeSet<String> =
        record.as_object().unwrap_or_else(|| panic!("{what}: {record}")).keys().cloned().collect();
    let documented: BTreeSet<String> =
        schema["properties"].as_object().map(|p| p.keys().cloned().collect()).unwrap_or_default();
    let required: BTreeSet<String> = schema["required"]
        .as_array()
        .map(|r| r.iter().filter_map(|v| v.as_str().map(String::from)).collect())
        .unwrap_or_default();
    let listed: Vec<&(&str, &str, &str)> = EXTENSIONS.iter().filter(|(r, _, _)| *r == what).collect();
    let mut allowed = described.clone();
    allowed.extend(listed.iter().map(|(_, m, _)| m.to_string()));
    let mut out = Vec::new();
    for m in described.difference(&keys) {
        out.push(format!("{what}: the description's {m} is missing from the answer"));
    }
    for m in keys.difference(&allowed) {
        out.push(format!("{what}: the answer's {m} is not in the description (nor a listed extension)"));
    }
    for m in keys.difference(&documented) {
        out.push(format!("{what}: the answer's {m} is not in the document"));
    }
    for m in documented.difference(&allowed) {
        out.push(format!("{what}: the document's {m} is not in the description (nor a listed extension)"));
    }
    for m in documented.difference(&keys).filter(|m| required.contains(*m)) {
        out.push(format!("{what}: the document requires {m}; the answer lacks it"));
    }
    for (_, m, why) in listed {
        if !documented.contains(*m) {
            out.push(format!("{what}: listed extension {m} ({why}) is not in the document"));
        } else if schema["properties"][*m]["x-extension"] != true {
            out.push(format!("{what}: extension {m} is not marked x-extension in the document"));
        }
    }
    out
}

fn assert_names(what: &str, record: &Value, described: &BTreeSet<String>, schema: &Value) {
    assert!(!described.is_empty() || EXTENSIONS.iter().any(|(r, _, _)| *r == what), "{what}: nothing parsed");
    let diff = differences(what, record, described, schema);
    assert!(diff.is_empty(), "{}\n{record}", diff.join("\n"));
}

/// A running server on `backend` with accounts, permissions and an admin token.
async fn server(backend: Backend) -> (Server, String, Vec<Account>) {
    let s = Server::start_on(backend).await;
    let accounts: Vec<Account> = Accounts::new(3, 11).collect();
    let mut w = s.running.state.stores.accounts.writer().await.unwrap();
    w.insert(&accounts).await.unwrap();
    w.commit().await.unwrap();
    let mut w = s.running.state.stores.permissions.writer().await.unwrap();
    w.insert(&permissions(3, 2, 5)).await.unwrap();
    w.commit().await.unwrap();
    let admin = s.token(&[Scope::Admin]).await;
    (s, admin, accounts)
}

async fn get(s: &Server, token: &str, path: &str) -> Value {
    let r = s.get_auth(path, token).await;
    let status = r.status().as_u16();
    let body = json(r).await;
    assert_eq!(status, 200, "{path}: {body}");
    body
}

/// The described paths used here, each checked to be in the description's text.
fn described(doc: &str, path: &'static str) -> &'static str {
    assert!(doc.contains(&format!("| {path} |")), "{path} is not a path of the description");
    path
}

on_both_backends!(every_record_has_exactly_the_descriptions_field_names);

async fn every_record_has_exactly_the_descriptions_field_names(backend: Backend) {
    let text = description();
    let (s, admin, accounts) = server(backend).await;
    let doc = get(&s, &admin, paths::OPENAPI).await;

    // 2.2 and 2.3: the routing records (the demo directory holds 021090028 in both).
    for (num, path) in [
        ("2.2", described(&text, "/api/v1/cores/utility/payment/routing/wire/validate")),
        ("2.3", described(&text, "/api/v1/cores/utility/payment/routing/ach/validate")),
    ] {
        let record = get(&s, &admin, &format!("{path}?routingNumber=021090028")).await;
        assert_names(num, &record, &fields(&text, num), answer_schema(&doc, path, "get", "200"));
    }

    // 2.5: the record check-deposit creation answers, from a body of the description's names.
    let create = described(&text, "/api/v2/services/money-movements/deposits/check");
    let png = check_png(1);
    let body = json!({
        "amount": 125.5, "bankAccountNumber": "000123456789", "bankRoutingNumber": "021090028",
        "checkFrontImage": png, "checkBackImage": png, "checkNumber": "1001",
        "payeeAccountId": accounts[0].id, "payeeUserId": "usr-1",
    });
    let r = s.client.post(s.url(create)).bearer_auth(&admin).json(&body).send().await.unwrap();
    let status = r.status().as_u16();
    let record = json(r).await;
    assert!(status == 200 || status == 201, "{status}: {record}");
    let schema = answer_schema(&doc, create, "post", "201");
    assert_names("2.5", &record, &deposit_record_fields(&text), schema);

    // 2.4 in a page of 2.9, 2.6 in a page, and the permission records in a page.
    let (envelope, page, sort, pageable) = page_fields(&text);
    let lists = [
        ("2.4", described(&text, "/api/v2/services/money-movements/deposits")),
        ("2.6", described(&text, "/api/v1/cores/unifi/accounts")),
        ("2.7", described(&text, "/api/v2/services/company/users/permissions")),
    ];
    for (num, path) in lists {
        let body = get(&s, &admin, path).await;
        let env_schema = answer_schema(&doc, path, "get", "200");
        assert_names("2.9 envelope", &body, &envelope, env_schema);
        let data = &body["data"];
        let page_schema = property(&doc, env_schema, "data");
        assert_names("2.9 page", data, &page, page_schema);
        assert_names("2.9 sort", &data["sort"], &sort, property(&doc, page_schema, "sort"));
        let pageable_schema = property(&doc, page_schema, "pageable");
        assert_names("2.9 pageable", &data["pageable"], &pageable, pageable_schema);
        assert_names("2.9 sort", &data["pageable"]["sort"], &sort, property(&doc, pageable_schema, "sort"));
        let item_schema = resolve(&doc, &property(&doc, page_schema, "content")["items"]);
        assert_names(num, &data["content"][0], &fields(&text, num), item_schema);
    }
    s.running.stop().await;
}

/// The tables read as the description writes them (so the test above compares against the
/// description, not against an empty set), and a renamed member is caught.
#[test]
fn the_tables_are_read_and_a_renamed_field_fails() {
    let text = description();
    let account = fields(&text, "2.6");
    assert_eq!(account.len(), 24, "{account:?}");
    assert!(account.contains("billingZipcode") && account.contains("mailingZipcode") && account.contains("createTime"));
    assert!(fields(&text, "2.3").contains("servicingFRBNumber"));
    assert!(section(&text, "2.7").contains("Fields of a permission record: not shown"));
    assert!(fields(&text, "2.7").is_empty());
    let record = deposit_record_fields(&text);
    assert!(record.contains("feeApplied") && record.contains("achBatchId") && record.contains("ownerName"));
    let (envelope, page, sort, pageable) = page_fields(&text);
    assert_eq!(envelope, names("code, errorMessage, error, data"));
    assert!(page.contains("numberOfElements") && page.contains("pageable"));
    assert_eq!(sort, names("sorted, unsorted, empty"));
    assert_eq!(pageable, names("sort, pageNumber, pageSize, offset, paged, unpaged"));

    // An account whose zipcode took another name (in the answer and the document alike).
    let account_json = |renamed: bool| {
        let mut m = serde_json::Map::new();
        for f in &account {
            let name = if renamed && f == "billingZipcode" { "billingPostalCode" } else { f.as_str() };
            m.insert(name.to_string(), Value::Null);
        }
        Value::Object(m)
    };
    let schema = |record: &Value| {
        let required: Vec<&String> = record.as_object().unwrap().keys().collect();
        json!({"properties": record, "required": required})
    };
    let (good, renamed) = (account_json(false), account_json(true));
    assert_eq!(differences("2.6", &good, &account, &schema(&good)), Vec::<String>::new());
    let diff = differences("2.6", &renamed, &account, &schema(&renamed));
    assert_eq!(diff.len(), 3, "missing, not described in the answer and in the document: {diff:?}");
    // A member the document does not name, and an extension it does not mark.
    assert_eq!(differences("2.6", &good, &account, &schema(&renamed)).len(), 3);
    let diff = differences("2.7", &json!({"id": 1}), &BTreeSet::new(), &json!({"properties": {"id": {}}}));
    assert!(diff.iter().any(|d| d.contains("not marked x-extension")), "{diff:?}");
}
