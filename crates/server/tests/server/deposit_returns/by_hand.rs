//! Returns by hand: the operator's return with a reason code; unmatched items matched or dismissed.

use super::*;

on_both_backends!(an_operators_return_takes_a_known_reason_code_only, unmatched_items_are_dismissed_or_matched_by_hand);

async fn an_operators_return_takes_a_known_reason_code_only(backend: Backend) {
    let d = desk_on(Server::start_on(backend).await).await;
    let (id, _) = check(&d, 5, 4_200, 0).await;
    let e = act(&d, &d.writer, id, json!({"action": "confirm", "reasonCode": "R02"}), 400).await;
    assert!(e.to_string().contains("reasonCode"), "{e}");
    act(&d, &d.admin, id, json!({"action": "send"}), 200).await;
    let e = act(&d, &d.writer, id, json!({"action": "return", "reasonCode": "R99"}), 400).await;
    assert!(e.to_string().contains("\\\"R99\\\" is neither"), "{e}");
    assert_eq!(detail(&d, id).await["record"]["status"], "Sent_3", "an unknown code returns nothing");

    let moved =
        act(&d, &d.writer, id, json!({"action": "return", "reasonCode": "R02", "reason": "closed in May"}), 200).await;
    assert_eq!(moved["data"]["record"]["status"], "Returned_5");
    let last = moved["data"]["history"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["reason"], "R02 Account Closed: closed in May");
    let listed = get(&d, &d.writer, &format!("{}?state=matched", paths::DEPOSIT_RETURNS)).await;
    let item = &listed["data"]["content"][0];
    assert_eq!((item["source"].as_str(), item["depositId"].as_i64()), (Some("operator"), Some(id)), "{listed}");
    assert_eq!((item["reasonCode"].as_str(), dec(&item["amount"])), (Some("R02"), Decimal::new(4_200, 2)));

    // Without a code, a return still needs a reason, as before.
    let (other, _) = check(&d, 6, 1_000, 1).await;
    act(&d, &d.admin, other, json!({"action": "send"}), 200).await;
    act(&d, &d.writer, other, json!({"action": "return"}), 400).await;
    act(&d, &d.writer, other, json!({"action": "return", "reason": "refer to maker"}), 200).await;
}

async fn unmatched_items_are_dismissed_or_matched_by_hand(backend: Backend) {
    let d = desk_on(Server::start_on(backend).await).await;
    let (id, _) = check(&d, 7, 5_000, 0).await;
    cash_letter(&d, &[id]).await;
    // As a form, the file in its part `file`, named by the part.
    let bytes = x9_file(&[returned(1, 5_000, 'C', "424242"), returned(2, 100, 'D', "434343")]);
    let form = reqwest::multipart::Form::new()
        .part("file", reqwest::multipart::Part::bytes(bytes).file_name("from-the-fed.x937"));
    let r = d.server.client.post(d.server.url(paths::DEPOSIT_RETURNS)).bearer_auth(&d.writer).multipart(form);
    let r = r.send().await.unwrap();
    let (status, result) = (r.status().as_u16(), json(r).await);
    assert_eq!((status, result["data"]["fileName"].as_str()), (201, Some("from-the-fed.x937")), "{result}");
    let (stop, closed) = (by_record(&result, 4)["id"].as_i64().unwrap(), by_record(&result, 6)["id"].as_i64().unwrap());
    let listed = get(&d, &d.writer, &format!("{}?state=unmatched", paths::DEPOSIT_RETURNS)).await;
    assert_eq!(listed["data"]["totalElements"], 2, "{listed}");
    let item = |n: i64| paths::DEPOSIT_RETURN_ITEM.replace("{id}", &n.to_string());

    let (s, e) = post(&d, &d.writer, &item(closed), &json!({"action": "dismiss"})).await;
    assert_eq!(s, 400, "a dismissal needs a note: {e}");
    let (s, e) = post(&d, &d.writer, &item(closed), &json!({"action": "frobnicate"})).await;
    assert!(s == 400 && e.to_string().contains("match or dismiss"), "{e}");
    let (s, v) = post(&d, &d.writer, &item(closed), &json!({"action": "dismiss", "note": "not ours"})).await;
    assert_eq!(
        (s, v["data"]["state"].as_str(), v["data"]["note"].as_str()),
        (200, Some("dismissed"), Some("not ours")),
        "{v}"
    );
    let (s, _) = post(&d, &d.writer, &item(closed), &json!({"action": "dismiss", "note": "again"})).await;
    assert_eq!(s, 409, "only an unmatched item is acted on");

    let (s, v) = post(&d, &d.writer, &item(stop), &json!({"action": "match", "depositId": 987654})).await;
    assert_eq!(s, 404, "{v}");
    let (s, v) = post(&d, &d.writer, &item(stop), &json!({"action": "match", "depositId": id})).await;
    assert_eq!(
        (s, v["data"]["state"].as_str(), v["data"]["depositId"].as_i64()),
        (200, Some("resolved"), Some(id)),
        "{v}"
    );
    let returned = detail(&d, id).await;
    assert_eq!(returned["record"]["status"], "Returned_5");
    let reason = returned["history"].as_array().unwrap().last().unwrap()["reason"].clone();
    assert!(reason.as_str().unwrap().starts_with("C Stop Payment (return file"), "{reason}");
    let listed = get(&d, &d.writer, &format!("{}?state=unmatched", paths::DEPOSIT_RETURNS)).await;
    assert_eq!(listed["data"]["totalElements"], 0, "{listed}");
    let r = d.server.get_auth(&format!("{}?state=lost", paths::DEPOSIT_RETURNS), &d.writer).await;
    assert_eq!(r.status(), 400);
}
