//! Where the portal runs: the host's mount options and the environments config file.

use wasm_bindgen::{JsCast, JsValue};

use crate::api::error::{js_get, js_string, parse_object};

/// How the portal was started. Everything here comes from the host page (or defaults).
#[derive(Clone, Debug, Default)]
pub struct MountOptions {
    pub target: MountTarget,
    /// The router's base, `""` for the origin's root, else `/portal`-like (no trailing `/`).
    pub base_path: String,
    /// The API's base URL chosen by the host; when set, the sign-in page offers no other.
    pub base_url: Option<String>,
    /// A token handed over by the host: kept in memory only, no sign-in needed.
    pub token: Option<String>,
}

#[derive(Clone, Debug, Default)]
pub enum MountTarget {
    #[default]
    Body,
    Selector(String),
    Element(web_sys::HtmlElement),
}

/// What the components read: the mount options that matter after mounting.
#[derive(Clone, Debug, Default)]
pub struct AppConfig {
    pub base_path: String,
    pub base_url: Option<String>,
    pub embedded: bool,
}

impl AppConfig {
    /// A path of the portal as the browser sees it (`/fees` -> `/portal/fees`).
    pub fn href(&self, path: &str) -> String {
        if self.base_path.is_empty() {
            path.to_string()
        } else if path == "/" || path.is_empty() {
            self.base_path.clone()
        } else {
            format!("{}{}", self.base_path, path)
        }
    }

    /// The browser path relative to the base (`/portal/fees` -> `/fees`).
    pub fn relative<'a>(&self, browser_path: &'a str) -> &'a str {
        match browser_path.strip_prefix(self.base_path.as_str()) {
            Some("") => "/",
            Some(rest) if rest.starts_with('/') => rest,
            _ => browser_path,
        }
    }
}

impl MountOptions {
    /// Reads `{ target, basePath, baseUrl, token }`; `target` is a CSS selector or an element.
    pub fn from_js(v: &JsValue) -> Result<MountOptions, String> {
        if !v.is_object() {
            return Err("Moneydesk mount options must be an object like { target: \"#portal\" }".into());
        }
        let get = |name: &str| js_sys::Reflect::get(v, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED);
        let string = |name: &str| -> Result<Option<String>, String> {
            let x = get(name);
            if x.is_undefined() || x.is_null() {
                Ok(None)
            } else {
                x.as_string().map(Some).ok_or_else(|| format!("Moneydesk option {name} must be a string"))
            }
        };
        let target = get("target");
        let target = if target.is_undefined() || target.is_null() {
            MountTarget::Body
        } else if let Some(sel) = target.as_string() {
            MountTarget::Selector(sel)
        } else if let Ok(el) = target.dyn_into::<web_sys::HtmlElement>() {
            MountTarget::Element(el)
        } else {
            return Err("Moneydesk option target must be a CSS selector or an element".into());
        };
        let base_path = normalize_base_path(string("basePath")?.as_deref().unwrap_or(""))?;
        let base_url = string("baseUrl")?.map(|u| normalize_base_url(&u)).transpose()?;
        let token = string("token")?.map(|t| t.trim().to_string()).filter(|t| !t.is_empty());
        Ok(MountOptions { target, base_path, base_url, token })
    }

    pub fn app_config(&self) -> AppConfig {
        AppConfig {
            base_path: self.base_path.clone(),
            base_url: self.base_url.clone(),
            embedded: !matches!(self.target, MountTarget::Body),
        }
    }

    /// Embedded: when the host page's URL is not under `basePath`, move the history entry
    /// there (the host gave the portal that part of its URL space), so the router matches.
    pub fn enter_base_path(&self) {
        if self.base_path.is_empty() {
            return;
        }
        let window = leptos::prelude::window();
        let path = window.location().pathname().unwrap_or_default();
        let inside = path == self.base_path || path.starts_with(&format!("{}/", self.base_path));
        if !inside {
            if let Ok(history) = window.history() {
                let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&self.base_path));
            }
        }
    }
}

impl MountTarget {
    pub fn resolve(&self) -> Result<web_sys::HtmlElement, String> {
        let document = leptos::prelude::document();
        match self {
            MountTarget::Body => document.body().ok_or_else(|| "Moneydesk: the page has no <body>".to_string()),
            MountTarget::Element(el) => Ok(el.clone()),
            MountTarget::Selector(sel) => document
                .query_selector(sel)
                .map_err(|_| format!("Moneydesk: target “{sel}” is not a valid CSS selector"))?
                .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok())
                .ok_or_else(|| format!("Moneydesk: no element matches target “{sel}”")),
        }
    }
}

/// `portal/` -> `/portal`; `/` and `""` -> `""`.
pub fn normalize_base_path(raw: &str) -> Result<String, String> {
    let t = raw.trim().trim_end_matches('/');
    if t.is_empty() {
        return Ok(String::new());
    }
    if t.contains(['?', '#', '\\']) || t.contains("//") || t.contains("://") {
        return Err(format!("Moneydesk option basePath must be a path like /portal, got “{raw}”"));
    }
    Ok(if t.starts_with('/') { t.to_string() } else { format!("/{t}") })
}

/// `http://host:8080/` -> `http://host:8080`; `""` stays (same origin).
pub fn normalize_base_url(raw: &str) -> Result<String, String> {
    let t = raw.trim().trim_end_matches('/');
    if t.is_empty() || t.starts_with("http://") || t.starts_with("https://") {
        Ok(t.to_string())
    } else {
        Err(format!("a base URL must start with http:// or https:// (or be empty for this site), got “{raw}”"))
    }
}

/// One entry of `environments.json`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Environment {
    pub id: String,
    pub label: String,
    /// `""` means the portal's own origin.
    pub base_url: String,
}

/// Where the config lives: beside index.html (trunk copies `public/` to the dist root).
pub const ENVIRONMENTS_URL: &str = "/environments.json";

const ENVIRONMENTS_SHAPE: &str =
    "It must look like {\"environments\":[{\"id\":\"local\",\"label\":\"Local\",\"baseUrl\":\"\"}]}.";

/// Parses and checks `environments.json`; the error says what to fix in the file.
pub fn parse_environments(text: &str) -> Result<Vec<Environment>, String> {
    let list = parse_object(text)
        .and_then(|o| js_get(&o, "environments"))
        .filter(js_sys::Array::is_array)
        .ok_or_else(|| format!("environments.json is not valid: no list of environments. {ENVIRONMENTS_SHAPE}"))?;
    let mut envs: Vec<Environment> = Vec::new();
    for (i, e) in js_sys::Array::from(&list).iter().enumerate() {
        let field = |name: &str| {
            js_string(&e, name).ok_or_else(|| {
                format!("environments.json: environment {} has no “{name}” text. {ENVIRONMENTS_SHAPE}", i + 1)
            })
        };
        let (id, label, base_url) = (field("id")?, field("label")?, field("baseUrl")?);
        if id.trim().is_empty() {
            return Err("environments.json has an environment with an empty id".into());
        }
        if envs.iter().any(|e| e.id == id) {
            return Err(format!("environments.json lists the id “{id}” twice"));
        }
        let base_url = normalize_base_url(&base_url).map_err(|e| format!("environments.json, “{id}”: {e}"))?;
        let label = if label.trim().is_empty() { id.clone() } else { label };
        envs.push(Environment { id, label, base_url });
    }
    if envs.is_empty() {
        return Err("environments.json lists no environments".into());
    }
    Ok(envs)
}

/// Fetches and parses the environments config of this site.
pub async fn load_environments() -> Result<Vec<Environment>, String> {
    let resp = gloo_net::http::Request::get(ENVIRONMENTS_URL)
        .send()
        .await
        .map_err(|e| format!("Could not load {ENVIRONMENTS_URL}: {e}"))?;
    if !resp.ok() {
        return Err(format!(
            "Could not load {ENVIRONMENTS_URL}: the site answered HTTP {}. The portal needs it to know which servers it may use.",
            resp.status()
        ));
    }
    let text = resp.text().await.map_err(|e| format!("Could not read {ENVIRONMENTS_URL}: {e}"))?;
    parse_environments(&text)
}

/// The single environment of an embedded portal whose host chose the base URL.
pub fn host_environment(base_url: &str) -> Environment {
    let shown = if base_url.is_empty() { "this site" } else { base_url };
    Environment { id: "host".into(), label: format!("Chosen by the host page ({shown})"), base_url: base_url.into() }
}

pub fn find_environment<'a>(envs: &'a [Environment], id: &str) -> Option<&'a Environment> {
    envs.iter().find(|e| e.id == id)
}

/// The message for an environment id (from a link or a stored sign-in) that is not configured.
pub fn unknown_environment(id: &str, envs: &[Environment]) -> String {
    let known: Vec<&str> = envs.iter().map(|e| e.label.as_str()).collect();
    format!("The environment “{id}” is not in environments.json; choose one of: {}.", known.join(", "))
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn the_shipped_environments_file_parses() {
        let envs = parse_environments(include_str!("../public/environments.json")).unwrap();
        let ids: Vec<&str> = envs.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, ["local", "sandbox", "production"]);
        assert_eq!(envs[0].base_url, "");
        assert!(envs[1].base_url.starts_with("https://"));
    }

    #[wasm_bindgen_test]
    fn broken_environment_files_say_what_is_wrong() {
        let e = parse_environments("<html>").unwrap_err();
        assert!(e.starts_with("environments.json is not valid"), "{e}");
        assert!(parse_environments("[1]").unwrap_err().starts_with("environments.json is not valid"));
        let e = parse_environments(r#"{"environments":[]}"#).unwrap_err();
        assert_eq!(e, "environments.json lists no environments");
        let e = parse_environments(r#"{"environments":[{"id":"a","label":"A"}]}"#).unwrap_err();
        assert!(e.contains("baseUrl"), "{e}");
        let twice = r#"{"environments":[{"id":"a","label":"A","baseUrl":""},{"id":"a","label":"B","baseUrl":""}]}"#;
        assert_eq!(parse_environments(twice).unwrap_err(), "environments.json lists the id “a” twice");
        let bad_url = r#"{"environments":[{"id":"a","label":"A","baseUrl":"ftp://x"}]}"#;
        assert!(parse_environments(bad_url).unwrap_err().contains("http:// or https://"));
        let trailing = r#"{"environments":[{"id":"a","label":"","baseUrl":"https://x.example/"}]}"#;
        let envs = parse_environments(trailing).unwrap();
        assert_eq!((envs[0].base_url.as_str(), envs[0].label.as_str()), ("https://x.example", "a"));
    }

    #[wasm_bindgen_test]
    fn unknown_environment_ids_list_the_known_ones() {
        let envs = parse_environments(include_str!("../public/environments.json")).unwrap();
        assert!(find_environment(&envs, "staging").is_none());
        assert_eq!(
            unknown_environment("staging", &envs),
            "The environment “staging” is not in environments.json; choose one of: Local, Sandbox, Production."
        );
    }

    #[wasm_bindgen_test]
    fn base_paths_and_hrefs() {
        assert_eq!(normalize_base_path("").unwrap(), "");
        assert_eq!(normalize_base_path("/").unwrap(), "");
        assert_eq!(normalize_base_path("portal/").unwrap(), "/portal");
        assert!(normalize_base_path("https://x/portal").is_err());
        let c = AppConfig { base_path: "/portal".into(), base_url: None, embedded: true };
        assert_eq!(c.href("/fees"), "/portal/fees");
        assert_eq!(c.href("/"), "/portal");
        assert_eq!(c.relative("/portal/fees"), "/fees");
        assert_eq!(c.relative("/portal"), "/");
        let root = AppConfig::default();
        assert_eq!(root.href("/fees"), "/fees");
        assert_eq!(root.relative("/vault"), "/vault");
    }

    #[wasm_bindgen_test]
    fn mount_options_from_the_host() {
        let o = js_sys::Object::new();
        let set = |k: &str, v: JsValue| js_sys::Reflect::set(&o, &k.into(), &v).unwrap();
        set("target", "#portal".into());
        set("basePath", "/portal/".into());
        set("baseUrl", "http://127.0.0.1:8080/".into());
        set("token", " mdk_handed ".into());
        let m = MountOptions::from_js(&o).unwrap();
        assert!(matches!(&m.target, MountTarget::Selector(s) if s == "#portal"));
        assert_eq!(m.base_path, "/portal");
        assert_eq!(m.base_url.as_deref(), Some("http://127.0.0.1:8080"));
        assert_eq!(m.token.as_deref(), Some("mdk_handed"));
        assert!(m.app_config().embedded);

        set("target", JsValue::from(3));
        assert!(MountOptions::from_js(&o).unwrap_err().contains("target"));
        set("target", JsValue::UNDEFINED);
        set("baseUrl", "127.0.0.1:8080".into());
        assert!(MountOptions::from_js(&o).unwrap_err().contains("http://"));
        assert!(MountOptions::from_js(&JsValue::from_str("#x")).is_err());
        let m = MountOptions::from_js(&js_sys::Object::new()).unwrap();
        assert!(matches!(m.target, MountTarget::Body) && m.base_path.is_empty() && m.token.is_none());

        let missing = MountTarget::Selector("#no-such-element".into()).resolve().unwrap_err();
        assert!(missing.contains("no element matches"), "{missing}");
    }
}
