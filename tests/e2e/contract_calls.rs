//! Every operation of the contract (the OpenAPI document's operations not marked
//! `x-extension`) is called by the e2e suite. Run after the suite, with the same
//! `MONEYDESK_E2E_CALLS` directory the suite wrote its calls to (`moneydesk_e2e::calls`):
//! scripts/test does both. Ignored otherwise: alone it has nothing to compare.

use std::collections::BTreeSet;

#[test]
#[ignore = "run after the e2e suite with MONEYDESK_E2E_CALLS set (scripts/test)"]
fn every_contract_operation_is_called_by_the_suite() {
    let dir =
        moneydesk_e2e::calls::dir().expect("MONEYDESK_E2E_CALLS names the directory the e2e run wrote its calls to");
    let mut called = BTreeSet::new();
    let mut files = 0;
    for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("reading {}: {e}", dir.display())) {
        let path = entry.expect("a directory entry").path();
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
        files += 1;
        for line in text.lines() {
            let mut parts = line.split(' ');
            if let (Some(method), Some(route)) = (parts.next(), parts.next()) {
                called.insert((method.to_lowercase(), route.to_string()));
            }
        }
    }
    // Never a pass for want of data: no file, or files without a call, is a broken run.
    assert!(
        files > 0 && !called.is_empty(),
        "no API call was recorded under {}: was the e2e suite run with MONEYDESK_E2E_CALLS?",
        dir.display()
    );

    let doc = serde_json::to_value(moneydesk_server::http::openapi_doc()).expect("the document as JSON");
    let mut contract = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, op) in item.as_object().expect("a path item") {
            let extension = op.get("x-extension").and_then(serde_json::Value::as_bool).unwrap_or(false);
            if op.is_object() && op.get("responses").is_some() && !extension {
                contract.insert((method.clone(), path.clone()));
            }
        }
    }
    assert!(contract.len() >= 10, "the contract's operations were read: {contract:?}");
    let missing: Vec<String> =
        contract.iter().filter(|op| !called.contains(*op)).map(|(m, p)| format!("{} {p}", m.to_uppercase())).collect();
    assert!(
        missing.is_empty(),
        "contract operations no e2e test calls (the portal must use each): {missing:#?}\n{} calls recorded in {files} files",
        called.len()
    );
}
