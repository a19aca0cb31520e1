//! A record in the table's drawer: what it changed, each field before → after (tab.rs's
//! `ChangeTable`, which also shows the records of an object's Activity tab), and its place in
//! its day's chain (seq, the previous record's hash, its own).

use leptos::prelude::*;
use moneydesk_model::audit::AuditRecord;
use serde_json::Value;

use super::tab::ChangeTable;
use crate::i18n::activity::text;

/// The drawer's part for a record of the table.
pub fn panel(record: Value) -> AnyView {
    match serde_json::from_value::<AuditRecord>(record) {
        Ok(r) => view! { <RecordDetail record=r/> }.into_any(),
        Err(_) => ().into_any(),
    }
}

#[component]
fn RecordDetail(record: AuditRecord) -> impl IntoView {
    let sealed = record.hash.is_some();
    let mono = |v: Option<String>| v.unwrap_or_else(|| "—".into());
    let t = text();
    view! {
        <div class="audit-record" data-testid="audit-record" data-id=record.id>
            <h3>{t.changes}</h3>
            <ChangeTable changes=record.changes.clone()/>
            <h3>{t.chain}</h3>
            {(!sealed).then(|| view! {
                <p class="muted" data-testid="audit-unsealed">{t.not_chained}</p>
            })}
            <dl class="audit-chain-fields" data-testid="audit-chain-fields">
                <dt>{t.chain_fields[0]}</dt><dd class="mono" data-key="seq">{mono(record.seq.map(|s| s.to_string()))}</dd>
                <dt>{t.chain_fields[1]}</dt><dd class="mono hash" data-key="prevHash">{mono(record.prev_hash)}</dd>
                <dt>{t.chain_fields[2]}</dt><dd class="mono hash" data-key="hash">{mono(record.hash)}</dd>
            </dl>
        </div>
    }
}
