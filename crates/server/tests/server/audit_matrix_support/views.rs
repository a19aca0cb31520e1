//! Recipes of the saved views group: a view saved (created) and deleted by the desk's token.

use moneydesk_model::paths;
use reqwest::Method;
use serde_json::json;

use super::{Answer, Body, Desk, Recipe};

pub fn recipes() -> Vec<(Method, &'static str, Recipe)> {
    vec![
        (Method::PUT, paths::SAVED_VIEW, recipe!(save_view)),
        (Method::DELETE, paths::SAVED_VIEW, recipe!(delete_view)),
    ]
}

fn view_path(d: &Desk) -> String {
    paths::SAVED_VIEW.replace("{table}", "accounts").replace("{name}", &format!("matrix-{}", d.unique()))
}

async fn save_view(d: &Desk) -> Answer {
    d.write(Method::PUT, &view_path(d), Body::Json(json!({"query": "accountStatus=Active"}))).await
}

async fn delete_view(d: &Desk) -> Answer {
    let path = view_path(d);
    d.setup(Method::PUT, &path, Body::Json(json!({"query": "accountStatus=Active"})), 201).await;
    d.write(Method::DELETE, &path, Body::None).await
}
