//! A send's recipients against its sender domain's suppression list: each personalization's
//! recipients kept and those dropped, with why. With `mail_settings.bypass_list_management`
//! (transactional mail) every recipient is kept, and the listed ones are still named
//! (`bypassed`), so the message shows it went to them anyway.

use moneydesk_model::email::suppressions::SuppressedRecipient;
use moneydesk_model::email::{CheckedMailbox, SendPlan};

use super::store::Match;
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
