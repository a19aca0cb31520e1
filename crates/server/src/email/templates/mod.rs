//! Stored templates (extension): create, new version, list, detail, preview (stored and
//! draft), and rendering with handlebars: `{{variable}}`, `{{#if}}`, `{{#each}}`, values
//! HTML-escaped in the HTML part only, and strict, so a variable the data lacks is an error
//! naming it, never a blank.

mod handlers;
pub mod store;

use handlebars::{Handlebars, RenderErrorReason};
use moneydesk_model::email::{NewTemplateVersion, RenderedTemplate};
use serde_json::{Map, Value};
use utoipa_axum::router::OpenApiRouter;

use crate::AppState;

pub use store::TemplateStore;

pub fn router() -> OpenApiRouter<AppState> {
    handlers::router()
}

/// A template version compiled once, rendered for every personalization of a send.
pub struct Compiled {
    pub id: String,
    pub version: u32,
    /// Subject and text: values as they are.
    plain: Handlebars<'static>,
    /// HTML: values escaped.
    html: Handlebars<'static>,
    has_text: bool,
    has_html: bool,
}

impl std::fmt::Debug for Compiled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Compiled").field("id", &self.id).field("version", &self.version).finish()
    }
}

/// Why a render failed: which part, and a message naming the variable (`missing variable
/// "first_name" in the subject`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct RenderError {
    /// `subject`, `text` or `html`.
    pub part: &'static str,
    /// The variable at fault, when one is (`first_name`, `account.number`).
    pub variable: Option<String>,
    pub message: String,
}

/// A part that does not compile: which one, and handlebars' reason (with line and column).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{part}: {message}")]
pub struct CompileError {
    pub part: &'static str,
    pub message: String,
}

impl Compiled {
    /// Compiles a version's parts (each is checked: a template that does not compile is
    /// refused when it is saved, not when it is sent).
    pub fn new(id: &str, version: u32, parts: &NewTemplateVersion) -> Result<Compiled, CompileError> {
        let mut plain = Handlebars::new();
        plain.set_strict_mode(true);
        plain.register_escape_fn(handlebars::no_escape);
        let mut html = Handlebars::new();
        html.set_strict_mode(true);
        let add = |hb: &mut Handlebars<'static>, part: &'static str, text: &str| {
            hb.register_template_string(part, text).map_err(|e| CompileError { part, message: e.to_string() })
        };
        add(&mut plain, "subject", &parts.subject)?;
        if let Some(t) = &parts.text {
            add(&mut plain, "text", t)?;
        }
        if let Some(h) = &parts.html {
            add(&mut html, "html", h)?;
        }
        Ok(Compiled {
            id: id.to_string(),
            version,
            plain,
            html,
            has_text: parts.text.is_some(),
            has_html: parts.html.is_some(),
        })
    }

    /// Renders with one personalization's data: values HTML-escaped in `html` only; a
    /// variable the data lacks is an error naming it.
    pub fn render(&self, data: &Map<String, Value>) -> Result<RenderedTemplate, RenderError> {
        let render = |hb: &Handlebars<'static>, part: &'static str| {
            hb.render(part, data).map_err(|e| {
                let variable = match e.reason() {
                    RenderErrorReason::MissingVariable(Some(v)) => Some(v.clone()),
                    _ => None,
                };
                let message = match &variable {
                    Some(v) => format!("the template's {part} uses the variable {v:?}, which the data does not give"),
                    None => format!("the template's {part} could not be rendered: {}", e.reason()),
                };
                RenderError { part, variable, message }
            })
        };
        let subject = render(&self.plain, "subject")?;
        let text = if self.has_text { Some(render(&self.plain, "text")?) } else { None };
        let html = if self.has_html { Some(render(&self.html, "html")?) } else { None };
        // A rendered subject is a header: a line break from the data would inject one.
        if subject.contains(['\r', '\n']) {
            return Err(RenderError {
                part: "subject",
                variable: None,
                message: "the rendered subject contains a line break; subjects must be one line".into(),
            });
        }
        Ok(RenderedTemplate { subject, text, html })
    }
}

/// The top-level variables the parts use, in order of first use: the names of `{{name}}`,
/// `{{{name}}}` and the subjects of `{{#if name}}`, `{{#each name}}`, `{{#with name}}` and
/// `{{#unless name}}`, outside `#each`/`#with` blocks (inside them names are the item's).
///
/// ```
/// use moneydesk_server::email::templates::variables;
/// let v = variables(&["Hi {{first_name}}", "{{#if vip}}VIP{{/if}}{{#each lines}}{{amount}}{{/each}}{{account.number}}"]);
/// assert_eq!(v, ["first_name", "vip", "lines", "account"]);
/// ```
pub fn variables(parts: &[&str]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for part in parts {
        let mut depth = 0usize;
        let mut rest = *part;
        while let Some(start) = rest.find("{{") {
            rest = &rest[start + 2..];
            let Some(end) = rest.find("}}") else { break };
            let inner = rest[..end]
                .trim_start_matches('{')
                .trim_end_matches('}')
                .trim()
                .trim_start_matches('~')
                .trim_end_matches('~')
                .trim();
            rest = &rest[end + 2..];
            let mut words = inner.split_whitespace();
            let Some(first) = words.next() else { continue };
            let name = if let Some(helper) = first.strip_prefix('#') {
                let subject = words.next();
                let scoped = matches!(helper, "each" | "with");
                let was = depth;
                if scoped {
                    depth += 1;
                }
                if was > 0 || !matches!(helper, "if" | "unless" | "each" | "with") {
                    continue;
                }
                match subject {
                    Some(s) => s,
                    None => continue,
                }
            } else if let Some(closing) = first.strip_prefix('/') {
                if matches!(closing, "each" | "with") {
                    depth = depth.saturating_sub(1);
                }
                continue;
            } else if depth > 0
                || first.starts_with('!')
                || first == "else"
                || first.starts_with('>')
                || words.next().is_some()
            {
                continue;
            } else {
                first
            };
            let top = name.split(['.', '/', '[']).next().unwrap_or("");
            if top.is_empty()
                || top.starts_with('@')
                || top == "this"
                || top == "else"
                || !top.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')
            {
                continue;
            }
            if !out.iter().any(|v| v == top) {
                out.push(top.to_string());
            }
        }
    }
    out
}
