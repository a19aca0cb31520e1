//! A send's recipients against its sender domain's suppression list: each personalization's
//! recipients kept and those dropped, with why. With `mail_settings.bypass_list_management`
//! (transactional mail) every recipient is kept, and the listed ones are still named
//! (`bypassed`), so the message shows it went to them anyway.

use moneydesk_model::email::suppressions::SuppressedRecipient;
use moneydesk_model::email::{CheckedMailbox, SendPlan};

use super::store::Match;
use crate::email::outbox::store::delivery::Claimed;
use crate::email::outbox::store::EmailStore;
use crate::error::Error;

/// One personalization's recipients after the list: kept, and those the list names.
#[derive(Debug, Default)]
pub struct Screened {
    pub to: Vec<CheckedMailbox>,
    pub cc: Vec<CheckedMailbox>,
    pub bcc: Vec<CheckedMailbox>,
    pub suppressed: Vec<SuppressedRecipient>,
}

impl Screened {
    /// Nobody is left to send to.
    pub fn nobody(&self) -> bool {
        self.to.is_empty() && self.cc.is_empty() && self.bcc.is_empty()
    }
}

/// The sender domain's list applied to every personalization of `plan`, in order.
pub async fn screen(store: &EmailStore, plan: &SendPlan) -> Result<Vec<Screened>, Error> {
    let domain = plan.from.email.domain().to_ascii_lowercase();
    let mut addresses: Vec<String> = plan
        .personalizations
        .iter()
        .flat_map(|p| p.to.iter().chain(&p.cc).chain(&p.bcc))
        .map(|m| m.email.canonical())
        .collect();
    addresses.sort();
    addresses.dedup();
    let listed = store.suppressed(&domain, &addresses, &plan.categories).await?;
    let bypass = plan.bypass_list_management;
    Ok(plan
        .personalizations
        .iter()
        .map(|p| {
            let mut s = Screened::default();
            for (field, given, kept) in
                [("to", &p.to, &mut s.to), ("cc", &p.cc, &mut s.cc), ("bcc", &p.bcc, &mut s.bcc)]
            {
                for m in given {
                    let canonical = m.email.canonical();
                    match listed.iter().find(|l: &&Match| l.address == canonical) {
                        Some(l) => {
                            s.suppressed.push(SuppressedRecipient {
                                email: m.email.to_string(),
                                field: field.into(),
                                reason: l.reason,
                                category: l.category.clone(),
                                bypassed: bypass,
                            });
                            if bypass {
                                kept.push(m.clone());
                            }
                        }
                        None => kept.push(m.clone()),
                    }
                }
            }
            s
        })
        .collect())
}

/// At delivery (a scheduled, deferred or resent message): drops from each claimed message the
/// recipients its sender domain's list names now — added since acceptance, by a bounce, a
/// complaint, an unsubscribe — and records them on it (`suppressed`), so a message is never
/// sent to an address suppressed after it was accepted. One lookup per sender domain of the
/// claim. Messages sent with `bypass_list_management` are left as they are.
pub async fn rescreen(store: &EmailStore, claimed: &mut [Claimed]) -> Result<(), Error> {
    let mut domains: Vec<String> = claimed
        .iter()
        .filter(|c| !c.message.recipients.bypass_list_management)
        .map(|c| domain_of(&c.message.from.email))
        .collect();
    domains.sort();
    domains.dedup();
    for domain in domains {
        let mine =
            |c: &Claimed| !c.message.recipients.bypass_list_management && domain_of(&c.message.from.email) == domain;
        let mut addresses: Vec<String> = Vec::new();
        let mut categories: Vec<String> = Vec::new();
        for c in claimed.iter().filter(|c| mine(c)) {
            let r = &c.message.recipients;
            addresses.extend(r.to.iter().chain(&r.cc).chain(&r.bcc).map(|m| m.email.to_ascii_lowercase()));
            categories.extend(c.message.categories.iter().cloned());
        }
        addresses.sort();
        addresses.dedup();
        categories.sort();
        categories.dedup();
        let listed = store.suppressed(&domain, &addresses, &categories).await?;
        if listed.is_empty() {
            continue;
        }
        for c in claimed.iter_mut().filter(|c| mine(c)) {
            let categories = c.message.categories.clone();
            let applies = |address: &str| {
                listed.iter().find(|l| {
                    l.address == address.to_ascii_lowercase()
                        && l.category.as_ref().is_none_or(|cat| categories.contains(cat))
                })
            };
            let r = &mut c.message.recipients;
            let mut dropped = Vec::new();
            for (field, list) in [("to", &mut r.to), ("cc", &mut r.cc), ("bcc", &mut r.bcc)] {
                list.retain(|m| match applies(&m.email) {
                    Some(l) => {
                        dropped.push(SuppressedRecipient {
                            email: m.email.clone(),
                            field: field.into(),
                            reason: l.reason,
                            category: l.category.clone(),
                            bypassed: false,
                        });
                        false
                    }
                    None => true,
                });
            }
            if !dropped.is_empty() {
                r.suppressed.extend(dropped);
                c.recipients = Some(serde_json::to_string(r).map_err(Error::internal)?);
            }
        }
    }
    Ok(())
}

fn domain_of(address: &str) -> String {
    address.rsplit_once('@').map(|(_, d)| d.to_ascii_lowercase()).unwrap_or_default()
}
