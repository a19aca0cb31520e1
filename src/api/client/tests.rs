use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicU32, Ordering};

use leptos::prelude::Owner;
use moneydesk_model::auth::Session;
use moneydesk_model::paths::{AUTH_ME, FEES_ACH};
use moneydesk_model::Scope;
use serde::de::IgnoredAny;
use wasm_bindgen_test::wasm_bindgen_test;

use wasm_bindgen::JsValue;

use super::*;
use crate::test_util::{json, wait_until, Answer, FakeFetch};

const SESSION: &str = r#"{"code":200,"errorMessage":null,"error":null,"data":{"name":"ops","scopes":["fees:read","admin"],"expiresAt":null}}"#;

fn counting_client(token: &str) -> (Client, Arc<AtomicU32>) {
    let calls = Arc::new(AtomicU32::new(0));
    let seen = calls.clone();
    let client = Client::new("", Some(token.into())).on_auth_error(Arc::new(move |e: &ApiError| {
        assert!(e.is_auth());
        seen.fetch_add(1, Ordering::SeqCst);
    }));
    (client, calls)
}

#[wasm_bindgen_test]
async fn success_sends_the_bearer_token_and_reads_the_envelope() {
    let fake = FakeFetch::install(vec![(AUTH_ME, json(200, SESSION))]);
    let (client, calls) = counting_client("mdk_abc");
    let s: Session = client.get_data(AUTH_ME, &[]).await.unwrap();
    assert_eq!(s.name, "ops");
    assert!(s.can(Scope::VaultWrite));
    let reqs = fake.requests();
    assert_eq!(reqs.len(), 1);
    assert!(reqs[0].0.ends_with(AUTH_ME));
    assert_eq!(reqs[0].2.as_deref(), Some("Bearer mdk_abc"));
    assert_eq!(calls.load(Ordering::SeqCst), 0);
}

/// index.html's offer (xtask/src/preload.rs): this URL's session answer, once, for this token.
fn offer_early_session(url: &str, authorization: &str) {
    offer_early(url, authorization, 200, SESSION);
}

/// index.html's offer of an answer as its script keeps one: its body read whole already, the
/// text beside it (`moneydeskText`). Here the `Response` itself has no body left to read (it
/// was read), so a client that read it again would fail instead of decoding the text.
fn offer_early(url: &str, authorization: &str, status: u16, body: &str) {
    let offer = js_sys::Function::new_with_args(
        "url, authorization, status, body",
        "const answer = new Response(body, { status, headers: { \"Content-Type\": \"application/json\" } });
         const read = answer.text().then(() => Object.assign(answer, { moneydeskText: body }));
         const left = new Map([[url, read]]);
         globalThis.moneydeskEarly = (u, a) => { const r = a === authorization ? left.get(u) : undefined; left.delete(u); return r; };",
    );
    let args = js_sys::Array::of4(&url.into(), &authorization.into(), &status.into(), &body.into());
    offer.apply(&JsValue::NULL, &args).unwrap();
}

fn forget_early() {
    js_sys::Reflect::delete_property(&js_sys::global().unchecked_into::<js_sys::Object>(), &"moneydeskEarly".into())
        .unwrap();
}

#[wasm_bindgen_test]
async fn an_early_error_answer_is_decoded_from_the_text_index_html_read_and_signs_out() {
    let fake = FakeFetch::install(vec![]);
    let origin = web_sys::window().unwrap().location().origin().unwrap();
    let expired = r#"{"code":600,"errorMessage":"Invalid token","error":"Authorization: revoked","errors":[{"field":"Authorization","problem":"revoked"}],"reason":"invalid_token","data":null}"#;
    offer_early(&format!("{origin}{AUTH_ME}"), "Bearer mdk_abc", 401, expired);

    let (client, calls) = counting_client("mdk_abc");
    let err = client.get_data::<Session>(AUTH_ME, &[]).await.unwrap_err();
    assert_eq!(err, ApiError::InvalidToken { message: "Invalid token".into() });
    assert_eq!((calls.load(Ordering::SeqCst), fake.requests().len()), (1, 0), "signed out, nothing asked again");
    forget_early();
}

#[wasm_bindgen_test]
async fn an_answer_index_html_already_has_is_taken_once_and_only_with_its_token() {
    let fake = FakeFetch::install(vec![(AUTH_ME, json(200, SESSION))]);
    let origin = web_sys::window().unwrap().location().origin().unwrap();
    offer_early_session(&format!("{origin}{AUTH_ME}"), "Bearer mdk_abc");

    let (client, _) = counting_client("mdk_abc");
    let s: Session = client.get_data(AUTH_ME, &[]).await.unwrap();
    assert_eq!((s.name.as_str(), fake.requests().len()), ("ops", 0), "taken, not asked for");
    let _: Session = client.get_data(AUTH_ME, &[]).await.unwrap();
    assert_eq!(fake.requests().len(), 1, "taken once");

    offer_early_session(&format!("{origin}{AUTH_ME}"), "Bearer mdk_abc");
    let other: Session = Client::new("", Some("mdk_other".into())).get_data(AUTH_ME, &[]).await.unwrap();
    assert_eq!((other.name.as_str(), fake.requests().len()), ("ops", 2), "another token asks the server");
    assert_eq!(fake.requests()[1].2.as_deref(), Some("Bearer mdk_other"));
    forget_early();
}

#[wasm_bindgen_test]
async fn query_parameters_are_encoded_and_repeatable() {
    let fake = FakeFetch::install(vec![("/q", json(200, "{}"))]);
    let client = Client::new("", None);
    let _: IgnoredAny = client.get("/q", &[("paths", "a b"), ("paths", "c&d")]).await.unwrap();
    let url = &fake.requests()[0].0;
    assert!(url.ends_with("/q?paths=a+b&paths=c%26d"), "{url}");
    assert_eq!(fake.requests()[0].2, None, "no token, no Authorization header");
}

#[wasm_bindgen_test]
async fn a_401_and_code_600_call_the_sign_out_hook() {
    let _fake = FakeFetch::install(vec![
        (
            "/a",
            json(
                401,
                r#"{"code":401,"errorMessage":"Unknown token","error":"Unknown token","reason":"unauthorized","data":null}"#,
            ),
        ),
        (
            "/b",
            json(
                401,
                r#"{"code":600,"errorMessage":"Invalid token","error":"Authorization: revoked","errors":[{"field":"Authorization","problem":"revoked"}],"reason":"invalid_token","data":null}"#,
            ),
        ),
        (
            "/c",
            json(
                403,
                r#"{"code":403,"errorMessage":"needs vault:read","error":"needs vault:read","reason":"forbidden","data":null}"#,
            ),
        ),
    ]);
    let (client, calls) = counting_client("mdk_x");
    let a = client.get_data::<Session>("/a", &[]).await.unwrap_err();
    assert!(matches!(a, ApiError::Unauthorized { .. }), "{a:?}");
    let b = client.get_data::<Session>("/b", &[]).await.unwrap_err();
    assert_eq!(b, ApiError::InvalidToken { message: "Invalid token".into() });
    assert_eq!(calls.load(Ordering::SeqCst), 2);
    let c = client.get_data::<Session>("/c", &[]).await.unwrap_err();
    assert_eq!(c, ApiError::Forbidden { message: "needs vault:read".into() });
    assert_eq!(calls.load(Ordering::SeqCst), 2, "403 does not sign out");
}

#[wasm_bindgen_test]
async fn a_400_envelope_names_the_fields() {
    let _fake = FakeFetch::install(vec![(
        "/v",
        json(
            400,
            r#"{"code":400,"errorMessage":"invalid","error":"routingNumber: checksum digit should be 5, got 7","errors":[{"field":"routingNumber","problem":"checksum digit should be 5, got 7"}],"reason":"validation","data":null}"#,
        ),
    )]);
    let e = Client::new("", None).get::<IgnoredAny>("/v", &[]).await.unwrap_err();
    match e {
        ApiError::Validation { fields, .. } => {
            assert_eq!(fields[0].field, "routingNumber");
            assert_eq!(fields[0].problem, "checksum digit should be 5, got 7");
        }
        other => panic!("{other:?}"),
    }
}

#[wasm_bindgen_test]
async fn fee_bodies_both_ways() {
    let _fake = FakeFetch::install(vec![
        (
            FEES_ACH,
            json(200, r#"{"status":"success","data":[{"fee_type":"ACH","fee_amount":2.00,"description":"Standard"}]}"#),
        ),
        ("/fee-error", json(400, r#"{"status":"error","error_code":"400","message":"amount is empty"}"#)),
    ]);
    let client = Client::new("", Some("mdk_f".into()));
    let fees: Vec<moneydesk_model::fees::FeeEntry> = client.get_fees(FEES_ACH, &[("amount", "10.00")]).await.unwrap();
    assert_eq!(fees[0].fee_amount.to_string(), "2.00");
    let e = client.get_fees::<moneydesk_model::fees::FeeEntry>("/fee-error", &[]).await.unwrap_err();
    assert_eq!(e, ApiError::Validation { message: "amount is empty".into(), fields: vec![] });
}

#[wasm_bindgen_test]
async fn non_json_and_wrong_shapes_are_named() {
    let _fake = FakeFetch::install(vec![
        (
            "/html",
            Answer::Body { status: 200, content_type: "text/html", body: "<!doctype html><title>x</title>".into() },
        ),
        ("/proxy", Answer::Body { status: 502, content_type: "text/plain", body: "Bad Gateway".into() }),
        ("/shape", json(200, r#"{"code":200,"errorMessage":null,"error":null,"data":{"unexpected":true}}"#)),
    ]);
    let client = Client::new("", None);
    assert_eq!(client.get_data::<Session>("/html", &[]).await.unwrap_err(), ApiError::NotJson { status: 200 });
    assert_eq!(client.get_data::<Session>("/proxy", &[]).await.unwrap_err(), ApiError::NotJson { status: 502 });
    let e = client.get_data::<Session>("/shape", &[]).await.unwrap_err();
    assert!(matches!(e, ApiError::Decode { status: 200, .. }), "{e:?}");
}

#[wasm_bindgen_test]
async fn a_server_that_is_down_is_a_network_error() {
    // Nothing listens on the discard port: the browser's fetch fails for real.
    let client = Client::new("http://127.0.0.1:9", Some("mdk_x".into()));
    let e = client.get_data::<Session>(AUTH_ME, &[]).await.unwrap_err();
    match &e {
        ApiError::Network { url, .. } => assert_eq!(url, &format!("http://127.0.0.1:9{AUTH_ME}")),
        other => panic!("{other:?}"),
    }
    assert!(e.to_string().contains("Could not reach the server at http://127.0.0.1:9"));
}

#[wasm_bindgen_test]
async fn requests_abort_when_their_owner_is_cleaned_up() {
    let _fake = FakeFetch::install(vec![("/slow", Answer::Hang)]);
    let owner = Owner::new();
    let fut = owner.with(|| Client::new("", None).get::<IgnoredAny>("/slow", &[]));
    let slot = Rc::new(RefCell::new(None));
    let out = slot.clone();
    wasm_bindgen_futures::spawn_local(async move {
        *out.borrow_mut() = Some(fut.await);
    });
    // The request has reached fetch (which never answers) before the owner goes.
    wait_until("the request is sent", || !_fake.requests().is_empty()).await;
    assert!(slot.borrow().is_none(), "still waiting for the answer");
    owner.cleanup();
    wait_until("the request ends", || slot.borrow().is_some()).await;
    assert_eq!(slot.borrow_mut().take().map(|r| r.unwrap_err()), Some(ApiError::Aborted));
}
