//! The sign-in form without the DOM: the environments' options, the problem with their config,
//! what a submit checks before it asks the server, where to go afterwards, and why a token or a
//! link was refused, in words a person can act on.

use crate::api::ApiError;
use crate::config::{find_environment, unknown_environment, Environment};
use crate::i18n::fill;
use crate::i18n::signin::text;
use crate::session::{check_token, Keep};

/// The environments config: loading, loaded, or why not.
pub type Environments = Option<Result<Vec<Environment>, String>>;

/// The environment select's options as `(id, label, selected)`: `?env=`'s when configured, else
/// the first; a blank "choose" first when `?env=` names one that is not.
pub fn options(list: &[Environment], requested: Option<&str>) -> Vec<(String, String, bool)> {
    let t = text();
    let known = requested.is_none_or(|id| find_environment(list, id).is_some());
    let chosen = requested.filter(|_| known).or(list.first().map(|e| e.id.as_str())).unwrap_or_default();
    let placeholder = (!known).then(|| (String::new(), t.choose_environment.to_string(), true));
    let each = list.iter().map(|e| {
        let place = if e.base_url.is_empty() { t.this_site } else { e.base_url.as_str() };
        (e.id.clone(), format!("{} — {place}", e.label), e.id == chosen)
    });
    placeholder.into_iter().chain(each).collect()
}

/// What is wrong with the config, shown with the form's own errors: nothing while it loads; why
/// it did not load; a `?env=` it does not configure.
pub fn config_problem(environments: &Environments, requested: Option<&str>) -> Option<String> {
    match environments {
        None => None,
        Some(Err(m)) => Some(m.clone()),
        Some(Ok(list)) => {
            requested.filter(|id| find_environment(list, id).is_none()).map(|id| unknown_environment(id, list))
        }
    }
}

/// A sign-in the server is to check: the environment chosen, the token as typed, and how long
/// to keep it.
#[derive(Clone, Debug, PartialEq)]
pub struct Attempt {
    pub env: Environment,
    pub token: String,
    pub keep: Keep,
}

/// The form's values checked before a request: an environment chosen among those loaded
/// (`chosen`, or `requested` named in the message when none is) and a token of the right shape.
pub fn attempt(
    environments: &Environments,
    chosen: &str,
    requested: &str,
    raw_token: &str,
    remember: bool,
) -> Result<Attempt, String> {
    let t = text();
    let list = match environments {
        Some(Ok(list)) => list,
        Some(Err(e)) => return Err(fill(t.no_environment, &[e])),
        None => return Err(t.still_loading.into()),
    };
    let Some(env) = find_environment(list, chosen).cloned() else {
        let id = if chosen.is_empty() { requested } else { chosen };
        return Err(unknown_environment(id, list));
    };
    let token = check_token(raw_token)?;
    Ok(Attempt { env, token, keep: if remember { Keep::Device } else { Keep::Tab } })
}

/// Only a path of this portal is a place to go back to (no other site, not sign-in itself).
pub fn safe_next(next: Option<String>) -> String {
    match next {
        Some(n) if n.starts_with('/') && !n.starts_with("//") && !n.contains('\\') && !n.starts_with("/signin") => n,
        _ => "/".into(),
    }
}

/// Why the token was not accepted, in words a person can act on.
pub fn sign_in_message(e: &ApiError, env: &Environment) -> String {
    let t = text();
    let server = if env.base_url.is_empty() { t.this_server } else { env.base_url.as_str() };
    match e {
        ApiError::Unauthorized { .. } => fill(t.unauthorized, &[&env.label]),
        ApiError::InvalidToken { message } => fill(t.invalid_token, &[message]),
        ApiError::Forbidden { .. } => t.forbidden.into(),
        ApiError::Network { message, .. } => fill(t.unreachable, &[server, message]),
        ApiError::NotJson { status } => fill(t.not_json, &[server, &status.to_string(), &env.label]),
        ApiError::NotFound { .. } => fill(t.no_api, &[server]),
        other => other.to_string(),
    }
}

/// Why a link gave no session, as a title and words a person can act on.
pub fn link_problem(e: &ApiError) -> (&'static str, String) {
    let t = text();
    match e {
        ApiError::Other { status: 410, message } => (t.link_gone, message.clone()),
        ApiError::NotFound { .. } => (t.link_unknown, t.link_unknown_why.into()),
        other => (t.link_failed, other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn env(id: &str, base_url: &str) -> Environment {
        Environment { id: id.into(), label: id.to_uppercase(), base_url: base_url.into() }
    }

    #[wasm_bindgen_test]
    fn the_requested_environment_is_chosen_and_an_unknown_one_asks_for_a_choice() {
        let list = [env("local", ""), env("prod", "https://api.example")];
        let picked: Vec<bool> = options(&list, Some("prod")).into_iter().map(|o| o.2).collect();
        assert_eq!(picked, [false, true]);
        let unknown = options(&list, Some("qa"));
        assert_eq!((unknown.len(), unknown[0].0.as_str(), unknown[0].2), (3, "", true), "a blank choice first");
        assert_eq!(options(&list, None)[0].2, true, "the first by default");
        assert!(config_problem(&Some(Ok(list.to_vec())), Some("qa")).is_some_and(|m| m.contains("qa")));
        assert_eq!(config_problem(&None, Some("qa")), None, "nothing while loading");
    }

    #[wasm_bindgen_test]
    fn a_submit_needs_a_loaded_environment_and_only_goes_back_inside_the_portal() {
        let loaded: Environments = Some(Ok(vec![env("local", "")]));
        assert!(attempt(&None, "local", "", "x", false).is_err(), "still loading");
        assert!(attempt(&loaded, "", "qa", "x", false).is_err_and(|m| m.contains("qa")));
        assert_eq!(safe_next(Some("/accounts?page=2".into())), "/accounts?page=2");
        for bad in ["//evil.example", "https://evil.example", "/signin?next=/", "/\\\\evil"] {
            assert_eq!(safe_next(Some(bad.into())), "/", "{bad}");
        }
        assert_eq!(safe_next(None), "/");
    }
}
