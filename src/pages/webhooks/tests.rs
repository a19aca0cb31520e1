//! The page's pure parts: the place in the URL, the form's requests, the rotation's overlap,
//! the replays and the chart's geometry.

use moneydesk_model::webhooks::{WebhookDayStats, WebhookEndpoint};
use wasm_bindgen_test::wasm_bindgen_test;

use super::chart::{latency_points, max_count, slot, y};
use super::state::*;

fn endpoint(types: &[&str]) -> WebhookEndpoint {
    WebhookEndpoint {
        id: "we_1".into(),
        url: "https://hooks.bank.example/a".into(),
        description: "books".into(),
        event_types: types.iter().map(|t| t.to_string()).collect(),
        enabled: false,
        disabled_reason: Some("failing for 3 days".into()),
        disabled_at: None,
        secret_hint: "abcd".into(),
        secret_rotated_at: "2026-11-28T10:00:00.000Z".into(),
        previous_secret_until: None,
        created_by: "usr_1".into(),
        created_at: "2026-11-28T10:00:00.000Z".into(),
        updated_at: "2026-11-28T10:00:00.000Z".into(),
    }
}

#[wasm_bindgen_test]
fn the_url_names_the_endpoint_and_its_log_page() {
    let q = |pairs: &'static [(&'static str, &'static str)]| {
        Place::from_params(|k| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string()))
    };
    assert_eq!(q(&[]), Place { endpoint: None, page: 1 });
    let open = q(&[("endpoint", "we_1"), ("page", "3")]);
    assert_eq!(open, Place { endpoint: Some("we_1".into()), page: 3 });
    assert_eq!(open.pairs(), vec![("endpoint", "we_1".to_string()), ("page", "3".to_string())]);
    assert_eq!(q(&[("endpoint", " "), ("page", "x")]), Place { endpoint: None, page: 1 });
    assert!(q(&[("page", "2")]).pairs().is_empty(), "a page without an endpoint means nothing");
}

#[wasm_bindgen_test]
fn the_form_sends_all_or_the_types_ticked_in_order() {
    let mut d = Draft::new();
    d.url = " https://hooks.bank.example/a ".into();
    let new = d.create();
    assert_eq!((new.url.as_str(), new.event_types.clone()), ("https://hooks.bank.example/a", Some(vec!["*".into()])));
    assert_eq!(new.description, None);
    d.all = false;
    d.toggle("deposit.settled");
    d.toggle("deposit.created");
    d.toggle("email.failed");
    d.toggle("email.failed");
    assert_eq!(d.event_types(), vec!["deposit.created".to_string(), "deposit.settled".to_string()]);
    assert!(choosable().all(|t| t != "webhook.test"), "a test event is only sent when asked for");
}

#[wasm_bindgen_test]
fn a_change_sends_only_what_changed() {
    let before = endpoint(&["*"]);
    let mut d = Draft::of(&before);
    assert!(d.all);
    assert_eq!(d.change(&before), Default::default(), "nothing changed, nothing sent");
    d.description = "ledger".into();
    d.all = false;
    d.toggle("deposit.sent");
    let c = d.change(&before);
    assert_eq!((c.url, c.description, c.event_types), (None, Some("ledger".into()), Some(vec!["deposit.sent".into()])));
}

#[wasm_bindgen_test]
fn an_endpoint_reads_its_types_and_state() {
    let e = endpoint(&["deposit.sent", "deposit.settled"]);
    assert_eq!(types_text(&e.event_types), "deposit.sent, deposit.settled");
    assert_eq!(types_text(&["*".into()]), "All events");
    assert_eq!(state_text(&e), ("disabled", "Disabled by the server: failing for 3 days".to_string()));
    assert_eq!(state_text(&WebhookEndpoint { enabled: true, ..e }).1, "Enabled");
}

#[wasm_bindgen_test]
fn overlaps_and_replays() {
    assert_eq!(rotation("").unwrap().overlap_hours, None, "the server's default");
    assert_eq!(rotation(" 48 ").unwrap().overlap_hours, Some(48));
    assert!(rotation("two").unwrap_err().starts_with("overlapHours"));
    assert_eq!(replay_range("2026-11-28T00:00:00Z", ""), None);
    let r = replay_range("2026-11-28T00:00:00Z", "2026-11-29T00:00:00Z").unwrap();
    assert_eq!((r.event_id, r.from.as_deref()), (None, Some("2026-11-28T00:00:00Z")));
    assert_eq!(replay_one("evt_1").event_id.as_deref(), Some("evt_1"));
    assert_eq!(queued_text(1), "1 delivery queued");
    assert_eq!(queued_text(0), "Nothing to replay in that range");
}

#[wasm_bindgen_test]
fn the_chart_scales_counts_and_latency() {
    let day = |delivered, failed, p95| WebhookDayStats {
        day: "2026-11-28".into(),
        delivered,
        failed,
        p50_ms: p95,
        p95_ms: p95,
    };
    let days = vec![day(4, 1, Some(100)), day(0, 0, None), day(2, 6, Some(50))];
    assert_eq!(max_count(&days), 6);
    assert_eq!(max_count(&[day(0, 0, None)]), 1, "an empty week still has a scale");
    assert_eq!(y(0.0, 6.0), 156.0, "zero sits on the axis");
    assert_eq!(y(6.0, 6.0), 10.0, "the largest reaches the top");
    let w = slot(3);
    let points = latency_points(&days, 100.0);
    assert_eq!(points.split(' ').count(), 2, "a day without answers has no point: {points}");
    assert!(points.starts_with(&format!("{:.1},10.0", 40.0 + w * 0.5)), "{points}");
}
