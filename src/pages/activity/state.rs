//! What the Activity page shows, as pure functions: who made a change and what it was to (the
//! table's `who` and `target` columns, added to each JSON record), the day a filter names
//! (the verification's range), and the chain's verification in words.

use moneydesk_model::audit::{AuditActor, AuditVerification};
use serde_json::Value;

use crate::i18n::activity::text;
use crate::i18n::fill;

/// The table's filters that are also the CSV's and the verification's (the URL's names are the
/// API's query parameters).
pub const FILTER_PARAMS: [&str; 7] = ["from", "to", "userId", "operation", "targetType", "targetId", "outcome"];

/// The page's view beyond the table's paging: the filters the URL holds (in `FILTER_PARAMS`'
/// order, blank ones left out). The CSV export and the verification read it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ActivityView {
    pub filters: Vec<(String, String)>,
}

impl ActivityView {
    /// Reads the filters through `get` (the URL query).
    pub fn from_params(get: impl Fn(&str) -> Option<String>) -> ActivityView {
        let filters = FILTER_PARAMS
            .iter()
            .filter_map(|p| get(p).map(|v| (p.to_string(), v.trim().to_string())))
            .filter(|(_, v)| !v.is_empty())
            .collect();
        ActivityView { filters }
    }

    pub fn filter(&self, param: &str) -> Option<&str> {
        self.filters.iter().find(|(k, _)| k == param).map(|(_, v)| v.as_str())
    }

    /// The days the verification walks: those of `from` and `to` when they name one (the
    /// server's default range otherwise).
    pub fn verify_range(&self) -> (Option<String>, Option<String>) {
        let of = |p: &str| self.filter(p).and_then(day).map(str::to_string);
        (of("from"), of("to"))
    }

    /// The day a signed export is offered for: the filter's `to` day, else its `from` day.
    pub fn export_day(&self) -> Option<String> {
        let (from, to) = self.verify_range();
        to.or(from)
    }
}

/// An object's records in its drawer's Activity tab: the page (1-based) and its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TargetView {
    pub page: u64,
    pub size: u32,
}

impl Default for TargetView {
    fn default() -> Self {
        TargetView { page: 1, size: 10 }
    }
}

impl TargetView {
    /// Another page, kept within 1..=`pages`.
    pub fn with_page(self, page: u64, pages: u64) -> TargetView {
        TargetView { page: page.clamp(1, pages.max(1)), ..self }
    }
}

/// "ops-bot (usr_0001)": the token's name and its user; "The server" for its own jobs.
pub fn who(actor: &AuditActor) -> String {
    match (actor.token_name.as_deref(), actor.user_id.as_deref()) {
        (Some(name), Some(user)) => format!("{name} ({user})"),
        (Some(one), None) | (None, Some(one)) => one.to_string(),
        (None, None) => match actor.token_id {
            Some(id) => crate::i18n::fill(crate::i18n::activity_tab::text().token_n, &[&id.to_string()]),
            None => crate::i18n::activity_tab::text().the_server.to_string(),
        },
    }
}

/// "deposit 42"; the type or the id alone when only one is known; empty for neither.
pub fn target(kind: Option<&str>, id: Option<&str>) -> String {
    match (kind, id) {
        (Some(k), Some(i)) => format!("{k} {i}"),
        (Some(one), None) | (None, Some(one)) => one.to_string(),
        (None, None) => String::new(),
    }
}

/// A record as the API answers it, with `who` and `target` added for the table's columns (the
/// table shows a record's top-level fields).
pub fn flatten(mut record: Value) -> Value {
    let actor: AuditActor = serde_json::from_value(record["actor"].clone()).unwrap_or_default();
    let text = |k: &str| record.get(k).and_then(Value::as_str).map(str::to_string);
    let target = target(text("targetType").as_deref(), text("targetId").as_deref());
    if let Value::Object(map) = &mut record {
        map.insert("who".into(), Value::String(who(&actor)));
        map.insert("target".into(), if target.is_empty() { Value::Null } else { Value::String(target) });
    }
    record
}

/// The day (`YYYY-MM-DD`) a `from`/`to` filter starts with (it may be an RFC 3339 time).
pub fn day(value: &str) -> Option<&str> {
    let d = value.trim().get(..10)?;
    let b = d.as_bytes();
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    (digits(0..4) && b[4] == b'-' && digits(5..7) && b[7] == b'-' && digits(8..10)).then_some(d)
}

/// How the chain's verification shows: `ok`, `broken` or `unsealed` (the banner's class), and
/// what it says.
pub fn verdict(v: &AuditVerification) -> (&'static str, String) {
    let w = text();
    let unsealed = match v.unsealed {
        0 => String::new(),
        1 => w.one_unsealed.to_string(),
        n => fill(w.unsealed, &[&n.to_string()]),
    };
    if let Some(b) = &v.broken {
        let (id, seq) = (b.record_id.to_string(), b.seq.to_string());
        return ("broken", fill(w.broken, &[&id, &b.day, &seq, &b.reason, &unsealed]));
    }
    let range = match (v.from.as_deref(), v.to.as_deref()) {
        (Some(f), Some(t)) if f == t => fill(w.on_day, &[f]),
        (Some(f), Some(t)) => fill(w.from_to, &[f, t]),
        _ => String::new(),
    };
    let purged = match v.purged_days {
        0 => String::new(),
        n => fill(w.purged, &[&n.to_string()]),
    };
    let days = if v.days == 1 { w.one_day.to_string() } else { fill(w.days, &[&v.days.to_string()]) };
    let text = fill(w.holds, &[&v.records.to_string(), &days, &range, &purged, &unsealed]);
    (
        if v.ok && v.unsealed == 0 {
            "ok"
        } else if v.ok {
            "unsealed"
        } else {
            "broken"
        },
        text,
    )
}

/// A changed field's value as shown: "—" for none.
pub fn value_text(v: Option<&str>) -> String {
    v.filter(|s| !s.is_empty()).unwrap_or("—").to_string()
}

#[cfg(test)]
mod tests {
    use moneydesk_model::audit::BrokenLink;
    use serde_json::json;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn the_view_reads_the_filters_and_their_days() {
        let q = [("outcome", "denied"), ("from", "2026-01-05T08:00:00Z"), ("userId", "  "), ("page", "3")];
        let v = ActivityView::from_params(|k| q.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string()));
        assert_eq!(
            v.filters,
            vec![("from".to_string(), "2026-01-05T08:00:00Z".to_string()), ("outcome".into(), "denied".into())]
        );
        assert_eq!(v.verify_range(), (Some("2026-01-05".into()), None));
        assert_eq!(v.export_day().as_deref(), Some("2026-01-05"));
        assert_eq!(ActivityView::default().export_day(), None);
        let t = TargetView::default().with_page(4, 3);
        assert_eq!(t.page, 3);
        assert_eq!(t.with_page(0, 3).page, 1);
    }

    #[wasm_bindgen_test]
    fn who_and_target_read_as_words() {
        let actor = |n: Option<&str>, u: Option<&str>, t: Option<i64>| AuditActor {
            token_id: t,
            user_id: u.map(Into::into),
            token_name: n.map(Into::into),
        };
        assert_eq!(who(&actor(Some("ops"), Some("usr_1"), Some(3))), "ops (usr_1)");
        assert_eq!(who(&actor(None, Some("usr_1"), Some(3))), "usr_1");
        assert_eq!(who(&actor(None, None, Some(3))), "token 3");
        assert_eq!(who(&AuditActor::default()), "The server");
        assert_eq!(target(Some("deposit"), Some("42")), "deposit 42");
        assert_eq!(target(None, None), "");
        let r =
            flatten(json!({"actor": {"tokenName": "ops", "userId": "u"}, "targetType": "deposit", "targetId": "7"}));
        assert_eq!((r["who"].as_str(), r["target"].as_str()), (Some("ops (u)"), Some("deposit 7")));
        assert!(flatten(json!({"actor": {}})).get("target").is_some_and(Value::is_null));
    }

    #[wasm_bindgen_test]
    fn a_filter_names_its_day() {
        assert_eq!(day("2026-01-05"), Some("2026-01-05"));
        assert_eq!(day("2026-01-05T10:00:00Z"), Some("2026-01-05"));
        assert_eq!(day("yesterday"), None);
        assert_eq!(day("2026-1-5"), None);
    }

    #[wasm_bindgen_test]
    fn the_verdict_names_the_broken_link_and_the_unsealed() {
        let mut v = AuditVerification {
            ok: true,
            from: Some("2026-01-05".into()),
            to: Some("2026-01-06".into()),
            days: 2,
            records: 40,
            unsealed: 0,
            purged_days: 0,
            broken: None,
        };
        assert_eq!(
            verdict(&v),
            ("ok", "The chain holds: 40 records over 2 days from 2026-01-05 to 2026-01-06 verified.".into())
        );
        v.unsealed = 2;
        assert_eq!(verdict(&v).0, "unsealed");
        assert!(verdict(&v).1.ends_with("2 records made in the last second are not chained yet."));
        v.ok = false;
        v.broken = Some(BrokenLink {
            day: "2026-01-06".into(),
            record_id: 31,
            seq: 4,
            reason: "its hash does not match".into(),
        });
        let (class, text) = verdict(&v);
        assert_eq!(class, "broken");
        assert!(
            text.starts_with("The chain is broken at record 31 (2026-01-06, seq 4): its hash does not match."),
            "{text}"
        );
        assert_eq!(value_text(None), "—");
        assert_eq!(value_text(Some("confirmed")), "confirmed");
    }
}
