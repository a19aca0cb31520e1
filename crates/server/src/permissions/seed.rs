//! Demo permissions: the users of a few fictional companies and the scopes they hold.

use moneydesk_model::collections::LocalDateTime;
use moneydesk_model::Scope;

use super::store::NewPermission;
use crate::collections::seed::{slug, Rng, FIRST, LAST};

const COMPANIES: &[(&str, &str, &str)] = &[
    ("cmp_001", "Northwind Treasury LLC", "northwind.example"),
    ("cmp_002", "Harborview Capital Partners", "harborview.example"),
    ("cmp_003", "Bluestem Credit Union", "bluestem.example"),
    ("cmp_004", "Cobalt Ridge Payments Inc.", "cobaltridge.example"),
    ("cmp_005", "Summit Lane Wealth", "summitlane.example"),
    ("cmp_006", "Prairie Mutual Holdings", "prairiemutual.example"),
];

/// Each company's first user is its administrator (granted `admin` by "System bootstrap");
/// every user holds `scopes_per_user` distinct scopes, granted by the administrator.
/// The scopes the seed draws from: those it was written with (a later scope, `ledger:read`,
/// would change every draw after it, and the seeded people with it).
fn drawn(s: Scope) -> bool {
    !matches!(s, Scope::Admin | Scope::FeesOverride | Scope::LedgerRead | Scope::AuditRead | Scope::WebhooksWrite)
}

pub fn permissions(users_per_company: usize, scopes_per_user: usize, seed: u64) -> Vec<NewPermission> {
    let mut r = Rng::new(seed);
    let mut out = Vec::new();
    let start = 1_672_531_200_000i64; // 2023-01-01
    let mut user_no = 0;
    for (cid, cname, domain) in COMPANIES {
        let mut admin = String::new();
        for u in 0..users_per_company {
            user_no += 1;
            let (first, last) = (*r.pick(FIRST), *r.pick(LAST));
            let name = format!("{first} {last}");
            let user_id = format!("usr_{user_no:04}");
            let email = format!("{}.{}@{domain}", slug(first), slug(last));
            let mut scopes: Vec<Scope> = Scope::ALL.iter().copied().filter(|s| drawn(*s)).collect();
            if u == 0 {
                admin = name.clone();
                scopes = vec![Scope::Admin];
                scopes.extend(Scope::ALL.iter().copied().filter(|s| drawn(*s)));
            } else {
                // A partial shuffle: the first `scopes_per_user` are a random distinct choice.
                for k in 0..scopes.len() {
                    let j = k + r.below((scopes.len() - k) as u64) as usize;
                    scopes.swap(k, j);
                }
            }
            for scope in scopes.into_iter().take(scopes_per_user) {
                let at = start + r.below(700 * 86_400_000) as i64;
                out.push(NewPermission {
                    user_id: user_id.clone(),
                    user_name: name.clone(),
                    user_email: Some(email.clone()),
                    company_id: cid.to_string(),
                    company_name: cname.to_string(),
                    scope,
                    granted_by: if u == 0 { "System bootstrap".into() } else { admin.clone() },
                    granted_at: LocalDateTime::from_millis(at),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collections::seed::{DEMO_SCOPES_PER_USER, DEMO_USERS_PER_COMPANY};

    #[test]
    fn demo_permissions_are_distinct_grants() {
        let p = permissions(DEMO_USERS_PER_COMPANY, DEMO_SCOPES_PER_USER, 7);
        assert_eq!(p.len(), 300);
        let grants: std::collections::HashSet<_> = p.iter().map(|x| (&x.user_id, &x.company_id, x.scope)).collect();
        assert_eq!(grants.len(), 300);
    }
}
