//! The page's state as plain data with pure functions (tested in the browser suite): where the
//! page is (the URL's `endpoint` and `page`), an endpoint's form (URL, event types or all,
//! description) and what it sends, how an endpoint's state reads, the rotation's overlap and a
//! replay's range.

use moneydesk_model::events::EventType;
use moneydesk_model::webhooks::{
    NewWebhookEndpoint, RotateWebhookSecret, WebhookEndpoint, WebhookEndpointUpdate, WebhookReplay, ALL_TYPES,
};

use crate::i18n::fill;
use crate::i18n::webhooks::text;

/// Rows of the delivery log a page.
pub const LOG_SIZE: u32 = 20;

/// Where the page is, as the URL says: the endpoint open (`endpoint=we_…`) and its log's page.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Place {
    pub endpoint: Option<String>,
    pub page: u64,
}

impl Place {
    pub fn from_params(get: impl Fn(&str) -> Option<String>) -> Place {
        let endpoint = get("endpoint").map(|e| e.trim().to_string()).filter(|e| !e.is_empty());
        let page = get("page").and_then(|p| p.parse().ok()).unwrap_or(1u64).max(1);
        Place { endpoint, page }
    }

    /// The query pairs of this place (the first page left out).
    pub fn pairs(&self) -> Vec<(&'static str, String)> {
        let mut q = Vec::new();
        if let Some(e) = &self.endpoint {
            q.push(("endpoint", e.clone()));
            if self.page > 1 {
                q.push(("page", self.page.to_string()));
            }
        }
        q
    }
}

/// The event types an endpoint may choose (`webhook.test` is sent only when asked for).
pub fn choosable() -> impl Iterator<Item = &'static str> {
    EventType::ALL.iter().map(EventType::as_str).filter(|t| *t != EventType::WebhookTest.as_str())
}

/// An endpoint's types, in words: "All events" for `*`.
pub fn types_text(types: &[String]) -> String {
    if types.iter().any(|t| t == ALL_TYPES) {
        text().all_events.to_string()
    } else {
        types.join(", ")
    }
}

/// How an endpoint's state reads: a badge class and its words (with the server's reason).
pub fn state_text(e: &WebhookEndpoint) -> (&'static str, String) {
    match (e.enabled, &e.disabled_reason) {
        (true, _) => ("enabled", text().enabled.to_string()),
        (false, Some(why)) => ("disabled", fill(text().disabled_by_server, &[why])),
        (false, None) => ("disabled", text().disabled.to_string()),
    }
}

/// The create and edit form's fields.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Draft {
    pub url: String,
    pub description: String,
    /// Every event type (`*`), whatever `types` says.
    pub all: bool,
    pub types: Vec<String>,
}

impl Draft {
    /// A new endpoint's form: all events.
    pub fn new() -> Draft {
        Draft { all: true, ..Draft::default() }
    }

    pub fn of(e: &WebhookEndpoint) -> Draft {
        let all = e.event_types.iter().any(|t| t == ALL_TYPES);
        let types = if all { Vec::new() } else { e.event_types.clone() };
        Draft { url: e.url.clone(), description: e.description.clone(), all, types }
    }

    /// Chooses or drops one type.
    pub fn toggle(&mut self, kind: &str) {
        match self.types.iter().position(|t| t == kind) {
            Some(i) => {
                self.types.remove(i);
            }
            None => self.types.push(kind.to_string()),
        }
    }

    /// The types sent: `*`, or those chosen in the vocabulary's order (none chosen: the server
    /// says what is missing).
    pub fn event_types(&self) -> Vec<String> {
        if self.all {
            return vec![ALL_TYPES.to_string()];
        }
        choosable().filter(|t| self.types.iter().any(|c| c == t)).map(str::to_string).collect()
    }

    pub fn create(&self) -> NewWebhookEndpoint {
        let description = self.description.trim();
        NewWebhookEndpoint {
            url: self.url.trim().to_string(),
            event_types: Some(self.event_types()),
            description: (!description.is_empty()).then(|| description.to_string()),
            enabled: None,
        }
    }

    /// What changed from `before`: only those fields are sent.
    pub fn change(&self, before: &WebhookEndpoint) -> WebhookEndpointUpdate {
        let url = self.url.trim();
        let description = self.description.trim();
        let types = self.event_types();
        WebhookEndpointUpdate {
            url: (url != before.url).then(|| url.to_string()),
            event_types: (types != before.event_types).then_some(types),
            description: (description != before.description).then(|| description.to_string()),
            enabled: None,
        }
    }
}

/// A rotation's overlap from its field: empty is the server's default (24 h); the server
/// checks the bound and says so.
pub fn rotation(hours: &str) -> Result<RotateWebhookSecret, String> {
    match hours.trim() {
        "" => Ok(RotateWebhookSecret { overlap_hours: None }),
        h => h
            .parse()
            .map(|h| RotateWebhookSecret { overlap_hours: Some(h) })
            .map_err(|_| fill(text().bad_overlap, &[&format!("{h:?}")])),
    }
}

/// A range's replay from two RFC 3339 bounds; `None` until both are given.
pub fn replay_range(from: &str, to: &str) -> Option<WebhookReplay> {
    let (from, to) = (from.trim(), to.trim());
    (!from.is_empty() && !to.is_empty()).then(|| WebhookReplay {
        event_id: None,
        from: Some(from.to_string()),
        to: Some(to.to_string()),
    })
}

/// One event's replay.
pub fn replay_one(event_id: &str) -> WebhookReplay {
    WebhookReplay { event_id: Some(event_id.to_string()), from: None, to: None }
}

/// What a replay queued, in words.
pub fn queued_text(n: u64) -> String {
    match n {
        0 => text().nothing_to_replay.to_string(),
        1 => text().one_queued.to_string(),
        n => fill(text().queued, &[&n.to_string()]),
    }
}
