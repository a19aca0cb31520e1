//! Stored email templates (extension): versions of a subject, a plain text and an HTML body
//! written in handlebars (`{{variable}}`, `{{#if}}`, `{{#each}}`), rendered per
//! personalization from its `dynamic_template_data`. Values are HTML-escaped in the HTML part
//! only; a variable the data lacks is an error naming it, never a blank.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A template in the list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TemplateSummary {
    /// `tmpl_…`: what a send's `template_id` names.
    pub id: String,
    pub name: String,
    /// The latest version's number (sends use it).
    pub version: u32,
    /// The latest version's subject.
    pub subject: String,
    pub created_at: String,
    pub updated_at: String,
}

/// One version of a template.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TemplateVersion {
    pub version: u32,
    pub subject: String,
    pub text: Option<String>,
    pub html: Option<String>,
    /// The top-level variables its parts use, in order of first use (the Compose form's
    /// fields and the CSV's columns).
    pub variables: Vec<String>,
    pub created_at: String,
    /// The token's user who saved it.
    pub created_by: String,
}

/// A template with its latest version and the list of all its versions (newest first).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TemplateDetail {
    pub id: String,
    pub name: String,
    pub created_at: String,
    pub latest: TemplateVersion,
    pub versions: Vec<TemplateVersion>,
}

/// Creating a template: its name and version 1.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewTemplate {
    /// 1 to 128 characters, unique (case-insensitive), not only blanks, no control characters.
    #[cfg_attr(
        feature = "openapi",
        schema(
            min_length = 1,
            max_length = 128,
            pattern = r"^[^\x00-\x1f\x7f-\x9f]*[^\s\x00-\x1f\x7f-\x9f][^\x00-\x1f\x7f-\x9f]*$"
        )
    )]
    pub name: String,
    #[serde(flatten)]
    pub version: NewTemplateVersion,
}

/// A new version: a subject and at least one of text and HTML, each a handlebars template
/// that compiles.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewTemplateVersion {
    /// Not only blanks; no line break or other control character (it becomes a header).
    #[cfg_attr(
        feature = "openapi",
        schema(min_length = 1, pattern = r"^[^\x00-\x1f\x7f-\x9f]*[^\s\x00-\x1f\x7f-\x9f][^\x00-\x1f\x7f-\x9f]*$")
    )]
    pub subject: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub html: Option<String>,
}

/// Previewing a stored template: sample data, and the version (the latest when absent).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TemplatePreview {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<u32>,
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub data: Map<String, Value>,
}

/// Previewing a draft (the editor's live preview): the parts and sample data; nothing stored.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DraftPreview {
    #[serde(flatten)]
    pub version: NewTemplateVersion,
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(value_type = Object))]
    pub data: Map<String, Value>,
}

/// A template rendered with data: what a message made from it carries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RenderedTemplate {
    pub subject: String,
    pub text: Option<String>,
    pub html: Option<String>,
}
