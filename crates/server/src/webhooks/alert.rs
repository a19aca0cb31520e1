//! The email to an endpoint's owner when the server disables it after days of failures,
//! queued in the email outbox **in the transaction that disables it** (`store/queue.rs`): the
//! endpoint is never disabled without its alert, nor alerted without being disabled.
//!
//! To: the owner (the creating token's user) when that is an email address, else
//! `MONEYDESK_WEBHOOK_ALERT_TO`; neither: only logged. From: the first sender identity
//! (`MONEYDESK_EMAIL_SENDERS`; a whole domain gives `webhooks@` it). Delivered like any
//! message: the relay when one is configured, else the development mailbox.

use chrono::Utc;
use moneydesk_model::email::{Delivery, EmailAddress, MessageState};

use crate::email::outbox::store::outbox::NewMessage;
use crate::email::outbox::store::{time_text, StoredMailbox, StoredMessage, StoredRecipients};
use crate::Config;

/// Who an alert comes from and goes to, and how it is delivered.
#[derive(Debug, Clone)]
pub struct Alerts {
    from: Option<StoredMailbox>,
    fallback: Option<String>,
    delivery: Delivery,
}

/// An endpoint just disabled: what the alert says.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct Disabled {
    pub id: String,
    pub url: String,
    pub created_by: String,
    pub disabled_reason: Option<String>,
}

impl Alerts {
    pub fn new(config: &Config) -> Alerts {
        let from = config.email.senders.first().map(|s| {
            let email = match s.address.strip_prefix('@') {
                Some(domain) => format!("webhooks@{domain}"),
                None => s.address.clone(),
            };
            StoredMailbox { email, name: Some(s.name.clone().unwrap_or_else(|| "Moneydesk webhooks".into())) }
        });
        let delivery = if config.email.smtp_url.is_some() { Delivery::Relay } else { Delivery::Mailbox };
        Alerts { from, fallback: config.webhooks.alert_to.clone(), delivery }
    }

    /// The message to queue for `endpoint`, or `None` (logged) when there is no one to tell.
    pub fn message(&self, endpoint: &Disabled) -> Option<NewMessage> {
        let owner = EmailAddress::parse(&endpoint.created_by).ok().map(|a| a.to_string());
        let Some(to) = owner.or_else(|| self.fallback.clone()) else {
            tracing::warn!(endpoint = %endpoint.id, owner = %endpoint.created_by,
                "webhook endpoint disabled; no alert email: its owner is not an email address and MONEYDESK_WEBHOOK_ALERT_TO is unset");
            return None;
        };
        let Some(from) = self.from.clone() else {
            tracing::warn!(endpoint = %endpoint.id, "webhook endpoint disabled; no alert email: no sender identity");
            return None;
        };
        let now = Utc::now();
        let domain = from.email.rsplit_once('@').map_or("moneydesk.test", |(_, d)| d).to_string();
        let reason = endpoint.disabled_reason.clone().unwrap_or_else(|| "every delivery failed".into());
        Some(NewMessage {
            message: StoredMessage {
                id: format!("msg_{}", uuid::Uuid::new_v4().simple()),
                batch_id: format!("req_{}", uuid::Uuid::new_v4().simple()),
                index: 0,
                message_id: format!("{}@{domain}", uuid::Uuid::new_v4().simple()),
                date_header: now.to_rfc2822(),
                from,
                reply_to: None,
                recipients: StoredRecipients {
                    to: vec![StoredMailbox { email: to, name: None }],
                    ..Default::default()
                },
                subject: subject(&endpoint.url, &reason),
                text: Some(text(endpoint, &reason)),
                html: None,
                attachments: Vec::new(),
                categories: vec!["webhook-disabled".into()],
                template_id: None,
                template_version: None,
            },
            state: MessageState::Queued,
            delivery: self.delivery,
            created_by: endpoint.created_by.clone(),
            created_at: time_text(now),
            send_at: None,
            next_attempt_at: time_text(now),
        })
    }
}

/// One line (a header: no CR or LF), naming the URL and why, at most about 300 characters.
fn subject(url: &str, reason: &str) -> String {
    let why = reason.strip_prefix("disabled by the server: ").unwrap_or(reason);
    let line = format!("Webhook endpoint disabled: {url} ({why})");
    let line: String = line.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    if line.chars().count() > 300 {
        line.chars().take(299).chain(['…']).collect()
    } else {
        line
    }
}

fn text(endpoint: &Disabled, reason: &str) -> String {
    format!(
        "The webhook endpoint {id} ({url}) was disabled by the server.\n\n\
         Why: {reason}\n\n\
         No more events are sent to it. Once the receiver answers again, enable the endpoint \
         (PATCH it with \"enabled\": true, or the portal's Webhooks page) and replay what it \
         missed from its delivery log.\n",
        id = endpoint.id,
        url = endpoint.url,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_subject_names_the_url_and_the_reason_on_one_line() {
        let s = subject("https://hooks.example/in", "disabled by the server: every delivery failed\r\nsince x");
        assert_eq!(s, "Webhook endpoint disabled: https://hooks.example/in (every delivery failed  since x)");
        assert!(subject("https://h/", &"x".repeat(1000)).chars().count() <= 300);
    }
}
