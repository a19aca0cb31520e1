//! Stored templates (extension): create, new version, list, detail, preview (stored and
//! draft); rendering with handlebars. OWNER: the templates work.

pub mod store;

use moneydesk_model::email::RenderedTemplate;
use serde_json::{Map, Value};
use utoipa_axum::router::OpenApiRouter;

use crate::AppState;

pub use store::TemplateStore;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
}

/// A template version compiled once, rendered for every personalization of a send.
#[derive(Debug)]
pub struct Compiled {
    pub id: String,
    pub version: u32,
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

impl Compiled {
    /// Renders with one personalization's data: values HTML-escaped in `html` only; a
    /// variable the data lacks is an error naming it.
    pub fn render(&self, _data: &Map<String, Value>) -> Result<RenderedTemplate, RenderError> {
        unimplemented!("templates work")
    }
}
