//! Compose's form: its signals (`ComposeForm`, shared by the form's parts) and what is made of
//! them as pure functions of a plain snapshot (`Draft`): the send request and its check, the
//! preview's data, the sender's address, the notice of what was queued.

use leptos::prelude::*;
use moneydesk_model::email::send::encode_base64;
use moneydesk_model::email::{Attachment, Content, Mailbox, Personalization, SendRequest};
use moneydesk_model::FieldError;
use serde_json::{Map, Value};

use super::super::attachments::Picked;
use super::super::bulk::Sheet;
use crate::i18n::{email::text, fill};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    #[default]
    Write,
    Template,
}

/// The form's state; `Copy` (signals), handed to each of its parts.
#[derive(Clone, Copy)]
pub struct ComposeForm {
    /// The sender identity picked (its index), and the local part typed for a domain's.
    pub identity: RwSignal<usize>,
    pub local: RwSignal<String>,
    pub from_name: RwSignal<String>,
    pub to: RwSignal<Vec<String>>,
    pub cc: RwSignal<Vec<String>>,
    pub bcc: RwSignal<Vec<String>>,
    pub show_cc: RwSignal<bool>,
    pub subject: RwSignal<String>,
    pub mode: RwSignal<Mode>,
    pub text: RwSignal<String>,
    pub html: RwSignal<String>,
    pub template_id: RwSignal<String>,
    /// The template's variables with the values typed.
    pub values: RwSignal<Vec<(String, String)>>,
    pub picked: RwSignal<Vec<Picked>>,
    /// A bulk send's CSV, and which column each variable is taken from.
    pub sheet: RwSignal<Option<Sheet>>,
    pub mapping: RwSignal<Vec<(String, Option<String>)>>,
    pub problems: RwSignal<Vec<FieldError>>,
    pub notice: RwSignal<Option<String>>,
    pub busy: RwSignal<bool>,
}

impl ComposeForm {
    pub fn new() -> Self {
        ComposeForm {
            identity: RwSignal::new(0),
            local: RwSignal::new("ops".to_string()),
            from_name: RwSignal::new(String::new()),
            to: RwSignal::new(Vec::new()),
            cc: RwSignal::new(Vec::new()),
            bcc: RwSignal::new(Vec::new()),
            show_cc: RwSignal::new(false),
            subject: RwSignal::new(String::new()),
            mode: RwSignal::new(Mode::Write),
            text: RwSignal::new(String::new()),
            html: RwSignal::new(String::new()),
            template_id: RwSignal::new(String::new()),
            values: RwSignal::new(Vec::new()),
            picked: RwSignal::new(Vec::new()),
            sheet: RwSignal::new(None),
            mapping: RwSignal::new(Vec::new()),
            problems: RwSignal::new(Vec::new()),
            notice: RwSignal::new(None),
            busy: RwSignal::new(false),
        }
    }

    /// What the form holds now (untracked), with the sender's address as shown.
    pub fn draft(&self, from_email: String) -> Draft {
        Draft {
            from_email,
            from_name: self.from_name.get_untracked(),
            to: self.to.get_untracked(),
            cc: self.cc.get_untracked(),
            bcc: self.bcc.get_untracked(),
            subject: self.subject.get_untracked(),
            mode: self.mode.get_untracked(),
            text: self.text.get_untracked(),
            html: self.html.get_untracked(),
            template_id: self.template_id.get_untracked(),
            values: self.values.get_untracked(),
            attachments: self.picked.get_untracked(),
            sheet: self.sheet.get_untracked(),
            mapping: self.mapping.get_untracked(),
        }
    }

    /// Sent: the notice says what was queued; recipients, attachments and the CSV are cleared.
    pub fn sent(&self, ids: &[String]) {
        self.notice.set(Some(queued(ids)));
        self.to.set(Vec::new());
        self.cc.set(Vec::new());
        self.bcc.set(Vec::new());
        self.picked.set(Vec::new());
        self.sheet.set(None);
    }
}

/// The form's values at one moment.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Draft {
    pub from_email: String,
    pub from_name: String,
    pub to: Vec<String>,
    pub cc: Vec<String>,
    pub bcc: Vec<String>,
    pub subject: String,
    pub mode: Mode,
    pub text: String,
    pub html: String,
    pub template_id: String,
    pub values: Vec<(String, String)>,
    pub attachments: Vec<Picked>,
    pub sheet: Option<Sheet>,
    pub mapping: Vec<(String, Option<String>)>,
}

impl Draft {
    fn templated(&self) -> bool {
        self.mode == Mode::Template
    }

    /// The request the form sends: one personalization per CSV row (bulk), else the form's
    /// recipients; the plain and HTML parts unless a template makes them.
    pub fn request(&self) -> SendRequest {
        let templated = self.templated();
        let personalizations = match &self.sheet {
            Some(s) => (0..s.rows.len()).map(|i| s.personalization(i, &self.mapping, templated)).collect(),
            None => vec![Personalization {
                to: mailboxes(&self.to),
                cc: mailboxes(&self.cc),
                bcc: mailboxes(&self.bcc),
                dynamic_template_data: templated.then(|| data_of(&self.values)),
                ..Default::default()
            }],
        };
        let mut content = Vec::new();
        if !templated {
            if !self.text.is_empty() {
                content.push(Content { kind: "text/plain".into(), value: self.text.clone() });
            }
            if !self.html.is_empty() {
                content.push(Content { kind: "text/html".into(), value: self.html.clone() });
            }
        }
        SendRequest {
            from: Mailbox {
                email: self.from_email.clone(),
                name: Some(self.from_name.clone()).filter(|n| !n.trim().is_empty()),
            },
            subject: Some(self.subject.clone()).filter(|s| !s.is_empty()),
            content,
            personalizations,
            attachments: self
                .attachments
                .iter()
                .map(|a| Attachment {
                    content: encode_base64(&a.bytes),
                    filename: a.name.clone(),
                    kind: Some(a.content_type.clone()),
                    disposition: a.inline.then(|| "inline".to_string()),
                    content_id: a.inline.then(|| a.content_id()),
                })
                .collect(),
            template_id: templated.then(|| self.template_id.clone()).filter(|t| !t.is_empty()),
            ..Default::default()
        }
    }

    /// The request, or what the model's own rules (at `now`, Unix seconds) find wrong with it;
    /// a template mode without a template first.
    pub fn checked(&self, now: i64) -> Result<SendRequest, Vec<FieldError>> {
        let request = self.request();
        if self.templated() && self.template_id.is_empty() {
            return Err(vec![FieldError::new("template_id", text().compose.pick_template)]);
        }
        request.check(now)?;
        Ok(request)
    }
}

/// The data a template preview renders with: the CSV's first row when there is one, else the
/// values typed.
pub fn preview_data(
    sheet: Option<&Sheet>,
    mapping: &[(String, Option<String>)],
    values: &[(String, String)],
) -> Map<String, Value> {
    match sheet {
        Some(s) if !s.rows.is_empty() => s.data(0, mapping),
        _ => data_of(values),
    }
}

/// The sender's address: an identity's own, or for a domain's (`@notices.bank.example`) the
/// local part typed before it.
pub fn from_address(identity: &str, local: &str) -> String {
    match identity.strip_prefix('@') {
        Some(domain) => format!("{}@{domain}", local.trim()),
        None => identity.to_string(),
    }
}

/// `2 messages queued: a, b`.
pub fn queued(ids: &[String]) -> String {
    let t = &text().compose;
    let n = if ids.len() == 1 { t.one_message.to_string() } else { fill(t.messages, &[&ids.len().to_string()]) };
    fill(t.queued, &[&n, &ids.join(", ")])
}

fn data_of(pairs: &[(String, String)]) -> Map<String, Value> {
    pairs.iter().map(|(k, v)| (k.clone(), Value::String(v.clone()))).collect()
}

fn mailboxes(list: &[String]) -> Vec<Mailbox> {
    list.iter().map(|email| Mailbox { email: email.clone(), name: None }).collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn draft() -> Draft {
        Draft {
            from_email: "ops@bank.example".into(),
            to: vec!["a@x.example".into()],
            subject: "Hello".into(),
            text: "Hi".into(),
            ..Default::default()
        }
    }

    #[wasm_bindgen_test]
    fn a_written_message_carries_its_parts_and_recipients() {
        let r = draft().request();
        assert_eq!(r.from.email, "ops@bank.example");
        assert_eq!(r.from.name, None, "an empty display name is none");
        assert_eq!(r.personalizations.len(), 1);
        assert_eq!(r.personalizations[0].to[0].email, "a@x.example");
        assert_eq!(r.content.len(), 1, "no HTML typed, no HTML part");
        assert_eq!(r.content[0].kind, "text/plain");
        assert_eq!(r.template_id, None);
        assert!(draft().checked(1_700_000_000).is_ok());
    }

    #[wasm_bindgen_test]
    fn a_templated_message_carries_the_values_and_no_parts() {
        let d = Draft {
            mode: Mode::Template,
            template_id: "tpl_1".into(),
            values: vec![("name".into(), "Ada".into())],
            ..draft()
        };
        let r = d.request();
        assert!(r.content.is_empty());
        assert_eq!(r.template_id.as_deref(), Some("tpl_1"));
        assert_eq!(
            r.personalizations[0].dynamic_template_data,
            Some(json!({"name": "Ada"}).as_object().unwrap().clone())
        );
        let missing = Draft { template_id: String::new(), ..d }.checked(1_700_000_000).unwrap_err();
        assert_eq!(missing[0].field, "template_id");
    }

    #[wasm_bindgen_test]
    fn a_bulk_send_has_a_message_a_row_and_previews_the_first() {
        let sheet = Sheet {
            name: "list.csv".into(),
            columns: vec!["email".into(), "first".into()],
            rows: vec![vec!["a@x.example".into(), "Ada".into()], vec!["b@x.example".into(), "Bo".into()]],
        };
        let mapping = vec![("name".to_string(), Some("first".to_string()))];
        let d = Draft { mode: Mode::Template, template_id: "t".into(), sheet: Some(sheet.clone()), mapping, ..draft() };
        let r = d.request();
        assert_eq!(r.personalizations.len(), 2);
        assert_eq!(r.personalizations[1].to[0].email, "b@x.example");
        let data = preview_data(Some(&sheet), &d.mapping, &[("name".into(), "typed".into())]);
        assert_eq!(data["name"], "Ada");
        assert_eq!(preview_data(None, &[], &[("name".into(), "typed".into())])["name"], "typed");
    }

    #[wasm_bindgen_test]
    fn the_sender_and_the_notice_read_as_shown() {
        assert_eq!(from_address("@notices.bank.example", " ops "), "ops@notices.bank.example");
        assert_eq!(from_address("ops@bank.example", "x"), "ops@bank.example");
        assert_eq!(queued(&["m1".into()]), "1 message queued: m1");
        assert_eq!(queued(&["m1".into(), "m2".into()]), "2 messages queued: m1, m2");
    }
}
