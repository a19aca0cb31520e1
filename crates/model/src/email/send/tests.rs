use serde_json::json;

use super::*;

const NOW: i64 = 1_790_000_000;

fn request(v: Value) -> SendRequest {
    serde_json::from_value(v).expect("the shape parses")
}

fn plain() -> Value {
    json!({
        "from": {"email": "ops@bank.example", "name": "Operations"},
        "subject": "Your statement",
        "content": [{"type": "text/plain", "value": "Hello"}, {"type": "text/html", "value": "<p>Hello</p>"}],
        "personalizations": [{"to": [{"email": "a@client.example"}]}]
    })
}

fn fields(v: Value) -> Vec<String> {
    request(v).check(NOW).expect_err("refused").into_iter().map(|e| e.field).collect()
}

#[test]
fn a_plain_and_html_message_passes_with_its_parts_in_place() {
    let plan = request(plain()).check(NOW).unwrap();
    assert_eq!(plan.text.as_deref(), Some("Hello"));
    assert_eq!(plan.html.as_deref(), Some("<p>Hello</p>"));
    assert_eq!(plan.personalizations[0].subject.as_deref(), Some("Your statement"));
}

#[test]
fn each_problem_names_its_field_path() {
    let mut v = plain();
    v["personalizations"] = json!([
        {"to": [{"email": "a@client.example"}]},
        {"to": [{"email": "b@client.example"}, {"email": "not-an-address"}], "cc": [{"email": "A@client.example"}]},
        {"to": [], "cc": [{"email": "c@client.example"}]}
    ]);
    assert_eq!(
        fields(v),
        ["personalizations[1].to[1].email", "personalizations[1].cc[0].email", "personalizations[2].to"]
    );
}

#[test]
fn html_before_plain_and_a_type_twice_are_refused() {
    let mut v = plain();
    v["content"] = json!([{"type": "text/html", "value": "<p>x</p>"}, {"type": "text/plain", "value": "x"}, {"type": "text/plain", "value": ""}]);
    assert_eq!(fields(v), ["content[1].type", "content[2].value", "content[2].type"]);
}

#[test]
fn line_breaks_in_header_values_are_refused() {
    let mut v = plain();
    v["subject"] = json!("Hi\r\nBcc: x@evil.example");
    v["from"]["name"] = json!("Ops\nX-Evil: 1");
    v["categories"] = json!(["a\rb"]);
    assert_eq!(fields(v), ["from.name", "subject", "categories[0]"]);
}

#[test]
fn more_than_a_thousand_personalizations_or_recipients_are_refused() {
    let mut v = plain();
    v["personalizations"] =
        json!((0..1001).map(|i| json!({"to": [{"email": format!("r{i}@client.example")}]})).collect::<Vec<_>>());
    assert_eq!(fields(v.clone()), ["personalizations"]);
    v["personalizations"] = json!((0..500).map(|i| json!({"to": [{"email": format!("r{i}@client.example")}], "cc": [{"email": format!("c{i}@client.example")}], "bcc": [{"email": format!("b{i}@client.example")}]})).collect::<Vec<_>>());
    assert_eq!(fields(v), ["personalizations"]);
}

#[test]
fn send_at_may_be_at_most_72_hours_ahead() {
    let mut v = plain();
    v["send_at"] = json!(NOW + MAX_SCHEDULE_AHEAD_SECS);
    assert_eq!(request(v.clone()).check(NOW).unwrap().personalizations[0].send_at, Some(NOW + MAX_SCHEDULE_AHEAD_SECS));
    v["send_at"] = json!(NOW + MAX_SCHEDULE_AHEAD_SECS + 1);
    assert_eq!(fields(v), ["send_at"]);
}

#[test]
fn attachments_are_decoded_and_their_names_kept_to_the_last_segment() {
    let mut v = plain();
    v["attachments"] = json!([
        {"content": encode_base64(b"%PDF-1.7"), "filename": "C:\\tmp\\statement.pdf", "type": "application/pdf"},
        {"content": "***", "filename": "x.bin"},
        {"content": encode_base64(b"png"), "filename": "logo.png", "disposition": "inline"}
    ]);
    assert_eq!(fields(v.clone()), ["attachments[1].content", "attachments[2].content_id"]);
    v["attachments"].as_array_mut().unwrap().truncate(1);
    let plan = request(v).check(NOW).unwrap();
    assert_eq!(plan.attachments[0].filename, "statement.pdf");
    assert_eq!(plan.attachments[0].bytes, b"%PDF-1.7");
}

#[test]
fn more_than_30_mib_in_all_is_refused() {
    let mut v = plain();
    v["attachments"] = json!([{"content": encode_base64(&vec![0u8; MAX_TOTAL_BYTES]), "filename": "big.bin"}]);
    assert_eq!(fields(v), ["attachments"]);
}

#[test]
fn a_template_replaces_content_and_template_data_needs_a_template() {
    let mut v = plain();
    v["template_id"] = json!("tmpl_statement");
    assert_eq!(fields(v.clone()), ["content"]);
    v.as_object_mut().unwrap().remove("content");
    v.as_object_mut().unwrap().remove("subject");
    v["personalizations"][0]["dynamic_template_data"] = json!({"first_name": "Ada"});
    let plan = request(v.clone()).check(NOW).unwrap();
    assert_eq!(plan.personalizations[0].subject, None);
    assert_eq!(plan.personalizations[0].data["first_name"], "Ada");
    v.as_object_mut().unwrap().remove("template_id");
    v["content"] = json!([{"type": "text/plain", "value": "x"}]);
    assert_eq!(fields(v), ["personalizations[0].subject", "personalizations[0].dynamic_template_data"]);
}
