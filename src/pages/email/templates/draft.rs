//! The editor's state: its signals (`TemplateForm`, shared by the page's parts) and what is
//! made of them as pure functions: the draft a template opens as, the version saved, the sample
//! data read, the toast of a save.

use std::time::Duration;

use leptos::prelude::*;
use moneydesk_model::email::{DraftPreview, NewTemplateVersion, RenderedTemplate, TemplateDetail};
use serde_json::{Map, Value};

use crate::api::email as api;
use crate::api::request::Answer;
use crate::i18n::{email::text, fill};
use crate::session::Auth;

/// How long typing must pause before the preview is asked for.
const DEBOUNCE: Duration = Duration::from_millis(400);

/// The page's state; `Copy` (signals), handed to each of its parts.
#[derive(Clone, Copy)]
pub struct TemplateForm {
    /// The template open (`None`: none, or a new one in the editor).
    pub open: RwSignal<Option<String>>,
    /// Bumped by a save: the list and the open template are fetched again.
    pub changed: RwSignal<u32>,
    pub name: RwSignal<String>,
    pub subject: RwSignal<String>,
    pub text: RwSignal<String>,
    pub html: RwSignal<String>,
    /// The sample data, JSON as typed.
    pub sample: RwSignal<String>,
    pub sample_error: RwSignal<Option<String>>,
    pub editing: RwSignal<bool>,
    pub busy: RwSignal<bool>,
    pub save_error: RwSignal<Option<String>>,
    /// The page's owner: a save goes on (or is aborted) with the page, not the editor.
    pub owner: StoredValue<Option<Owner>>,
}

impl TemplateForm {
    pub fn new() -> Self {
        TemplateForm {
            open: RwSignal::new(None),
            changed: RwSignal::new(0),
            name: RwSignal::new(String::new()),
            subject: RwSignal::new(String::new()),
            text: RwSignal::new(String::new()),
            html: RwSignal::new(String::new()),
            sample: RwSignal::new("{}".to_string()),
            sample_error: RwSignal::new(None),
            editing: RwSignal::new(false),
            busy: RwSignal::new(false),
            save_error: RwSignal::new(None),
            owner: StoredValue::new(Owner::current()),
        }
    }

    /// Opens the editor on `t`'s latest version (a new version), or empty (a new template).
    pub fn edit(&self, t: Option<&TemplateDetail>) {
        let d = Draft::of(t);
        self.name.set(d.name);
        self.subject.set(d.subject);
        self.text.set(d.text);
        self.html.set(d.html);
        self.sample.set(d.sample);
        self.editing.set(true);
    }

    /// Renders the draft with the sample data as it is typed: after a pause, and only the
    /// newest draft (an older one's timer finds itself overtaken). A sample that is not a JSON
    /// object is said so, editing or not.
    pub fn preview_as_typed(self, auth: Auth, rendered: Answer<RenderedTemplate>) {
        let TemplateForm { subject, text, html, sample, sample_error, editing, .. } = self;
        let seq = StoredValue::new(0u32);
        Effect::new(move |_| {
            let draft = version(subject.get(), text.get(), html.get());
            let data = match sample.with(|s| sample_data(s)) {
                Ok(d) => {
                    sample_error.set(None);
                    d
                }
                Err(e) => {
                    sample_error.set(Some(e));
                    return;
                }
            };
            if !editing.get() || draft.subject.is_empty() {
                return;
            }
            let n = seq.with_value(|s| s + 1);
            seq.set_value(n);
            let client = auth.client();
            set_timeout(
                move || {
                    if seq.try_get_value() == Some(n) {
                        rendered.load(api::draft_preview(&client, &DraftPreview { version: draft, data }));
                    }
                },
                DEBOUNCE,
            );
        });
    }
}

/// What the editor opens with.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Draft {
    pub name: String,
    pub subject: String,
    pub text: String,
    pub html: String,
    pub sample: String,
}

impl Draft {
    /// `t`'s name and latest version, with a sample value for each of its variables
    /// (`"sample name"`); empty, sample `{}`, for a new template.
    pub fn of(t: Option<&TemplateDetail>) -> Draft {
        let vars: Map<String, Value> = t
            .map(|t| t.latest.variables.iter().map(|v| (v.clone(), Value::String(format!("sample {v}")))).collect())
            .unwrap_or_default();
        Draft {
            name: t.map(|t| t.name.clone()).unwrap_or_default(),
            subject: t.map(|t| t.latest.subject.clone()).unwrap_or_default(),
            text: t.and_then(|t| t.latest.text.clone()).unwrap_or_default(),
            html: t.and_then(|t| t.latest.html.clone()).unwrap_or_default(),
            sample: serde_json::to_string_pretty(&vars).unwrap_or_else(|_| "{}".into()),
        }
    }
}

/// The version the parts typed make: an empty part is none.
pub fn version(subject: String, text: String, html: String) -> NewTemplateVersion {
    NewTemplateVersion {
        subject,
        text: Some(text).filter(|t| !t.is_empty()),
        html: Some(html).filter(|h| !h.is_empty()),
    }
}

/// The sample data typed, or why it is not a JSON object.
pub fn sample_data(sample: &str) -> Result<Map<String, Value>, String> {
    serde_json::from_str::<Map<String, Value>>(sample)
        .map_err(|e| fill(text().templates.not_an_object, &[&e.to_string()]))
}

/// `Template “Welcome” saved as version 2.`
pub fn saved(t: &TemplateDetail) -> String {
    fill(text().templates.saved, &[&t.name, &t.latest.version.to_string()])
}

#[cfg(test)]
mod tests {
    use moneydesk_model::email::TemplateVersion;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn welcome() -> TemplateDetail {
        let latest = TemplateVersion {
            version: 2,
            subject: "Hi {{name}}".into(),
            text: Some("Dear {{name}} of {{bank}}".into()),
            html: None,
            variables: vec!["name".into(), "bank".into()],
            created_at: "2024-05-01T10:00:00Z".into(),
            created_by: "u1".into(),
        };
        TemplateDetail {
            id: "tmpl_1".into(),
            name: "Welcome".into(),
            created_at: "2024-04-01T10:00:00Z".into(),
            versions: vec![latest.clone()],
            latest,
        }
    }

    #[wasm_bindgen_test]
    fn a_new_version_opens_on_the_latest_with_sample_values() {
        let d = Draft::of(Some(&welcome()));
        assert_eq!(d.name, "Welcome");
        assert_eq!(d.subject, "Hi {{name}}");
        assert_eq!(d.text, "Dear {{name}} of {{bank}}");
        assert_eq!(d.html, "", "no HTML part, an empty editor");
        let sample = sample_data(&d.sample).unwrap();
        assert_eq!(sample["name"], "sample name");
        assert_eq!(sample["bank"], "sample bank");
        assert_eq!(saved(&welcome()), "Template “Welcome” saved as version 2.");
    }

    #[wasm_bindgen_test]
    fn a_new_template_opens_empty() {
        assert_eq!(Draft::of(None), Draft { sample: "{}".into(), ..Default::default() });
    }

    #[wasm_bindgen_test]
    fn empty_parts_are_left_out_and_only_an_object_is_sample_data() {
        let v = version("S".into(), String::new(), "<p>x</p>".into());
        assert_eq!((v.subject.as_str(), v.text, v.html.as_deref()), ("S", None, Some("<p>x</p>")));
        assert!(sample_data("{\"a\": 1}").is_ok());
        let e = sample_data("[1]").unwrap_err();
        assert!(e.starts_with("Sample data is not a JSON object: "), "{e}");
    }
}
