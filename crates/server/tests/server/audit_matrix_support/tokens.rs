//! Recipes of the tokens group: tokens and sign-in links made and revoked by the admin, and a
//! link's exchange, which carries no token (its record names no caller, its target the link).

use moneydesk_model::paths;
use reqwest::Method;
use serde_json::{json, Value};

use super::{Answer, Body, Desk, Recipe};

pub fn recipes() -> Vec<(Method, &'static str, Recipe)> {
    vec![
        (Method::POST, paths::TOKENS, recipe!(create_token)),
        (Method::DELETE, paths::TOKEN, recipe!(revoke_token)),
        (Method::POST, paths::SIGN_IN_LINKS, recipe!(create_link)),
        (Method::DELETE, paths::SIGN_IN_LINK, recipe!(revoke_link)),
        (Method::POST, paths::SIGN_IN_LINK_EXCHANGE, recipe!(exchange_link)),
    ]
}

fn new_token(d: &Desk) -> Value {
    json!({"name": format!("matrix-{}", d.unique()), "userId": "ada", "scopes": ["deposits:read"]})
}

fn new_link() -> Value {
    json!({"userId": "ada", "scopes": ["deposits:read"]})
}

async fn create_token(d: &Desk) -> Answer {
    d.write(Method::POST, paths::TOKENS, Body::Json(new_token(d))).await
}

async fn revoke_token(d: &Desk) -> Answer {
    let made = d.setup(Method::POST, paths::TOKENS, Body::Json(new_token(d)), 201).await;
    let id = made["data"]["record"]["id"].as_i64().unwrap();
    d.write(Method::DELETE, &paths::TOKEN.replace("{id}", &id.to_string()), Body::None).await
}

async fn create_link(d: &Desk) -> Answer {
    d.write(Method::POST, paths::SIGN_IN_LINKS, Body::Json(new_link())).await
}

async fn revoke_link(d: &Desk) -> Answer {
    let made = d.setup(Method::POST, paths::SIGN_IN_LINKS, Body::Json(new_link()), 201).await;
    let id = made["data"]["link"]["id"].as_i64().unwrap();
    d.write(Method::DELETE, &paths::SIGN_IN_LINK.replace("{id}", &id.to_string()), Body::None).await
}

async fn exchange_link(d: &Desk) -> Answer {
    let made = d.setup(Method::POST, paths::SIGN_IN_LINKS, Body::Json(new_link()), 201).await;
    let secret = made["data"]["secret"].as_str().unwrap().to_string();
    d.write(Method::POST, paths::SIGN_IN_LINK_EXCHANGE, Body::Json(json!({"secret": secret}))).await
}
