//! The OpenAPI document's notes of issue #44 (points 7 and 9): the fee request's fields say
//! what they price (the memo: nothing), bulk address validation is marked as an extension, and
//! no 501 answer is promised (no operation gives one).

use crate::common;

use common::{json, Server};
use moneydesk_model::paths;

#[tokio::test]
async fn the_document_says_what_prices_marks_bulk_validation_and_promises_no_501() {
    let server = Server::start().await;
    let doc = json(server.get(paths::OPENAPI).await).await;
    assert_eq!(doc["paths"][paths::EMAIL_VALIDATION_BULK]["post"]["x-extension"], true);
    assert!(doc["paths"][paths::EMAIL_VALIDATION]["post"].get("x-extension").is_none(), "described: not an extension");

    for path in [paths::FEES_ACH, paths::FEES_WIRE] {
        let op = &doc["paths"][path]["get"];
        let params = op["parameters"].as_array().unwrap();
        let said = |name: &str| -> String {
            let p = params.iter().find(|p| p["name"] == name).unwrap_or_else(|| panic!("{path}: no {name}"));
            p["description"].as_str().unwrap_or_default().to_string()
        };
        assert!(said("memo").contains("never priced"), "{path} memo: {}", said("memo"));
        for field in ["payerId", "payeeId", "payeeBankId"] {
            assert!(said(field).contains("Priced"), "{path} {field}: {}", said(field));
        }
        let schema = op["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].as_str().unwrap();
        assert!(schema.ends_with("/FeeAnswer"), "{schema}");
    }
    let answer = &doc["components"]["schemas"]["FeeAnswer"];
    assert!(answer["properties"]["pricing"].is_object(), "{answer}");
    assert_eq!(answer["required"], serde_json::json!(["status", "data"]));
    let description = doc["paths"][paths::FEES_ACH]["get"]["description"].as_str().unwrap();
    for needle in ["waived for payerId", "A waiver beats a payer's schedule", "The memo is checked and never priced"] {
        assert!(description.contains(needle), "{needle:?}: {description}");
    }

    // No operation answers 501, so the document promises none, nor says that any may.
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            assert!(op["responses"].get("501").is_none(), "{method} {path} documents a 501");
        }
    }
    let text = doc.to_string();
    assert!(
        !text.contains("501 ") && !text.contains(" 501") && !text.contains("not implemented"),
        "a 501 is mentioned"
    );
    assert!(!text.contains("not_implemented"), "a reason no answer gives is listed");
    server.running.stop().await;
}
