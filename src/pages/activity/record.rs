//! A record in the table's drawer: what it changed, each field before → after, and its place
//! in its day's chain (seq, the previous record's hash, its own). `ChangeTable` also shows
//! the records of an object's Activity tab (tab.rs).

use leptos::either::Either;
use leptos::prelude::*;
use moneydesk_model::audit::{AuditChange, AuditRecord};
use serde_json::Value;

use super::state::value_text;

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
    view! {
        <div class="audit-record" data-testid="audit-record" data-id=record.id>
            <h3>"Changes"</h3>
            <ChangeTable changes=record.changes.clone()/>
            <h3>"Chain"</h3>
            {(!sealed).then(|| view! {
                <p class="muted" data-testid="audit-unsealed">"Not chained yet: the sealer chains a record within a second or so."</p>
            })}
            <dl class="audit-chain-fields" data-testid="audit-chain-fields">
                <dt>"Seq"</dt><dd class="mono" data-key="seq">{mono(record.seq.map(|s| s.to_string()))}</dd>
                <dt>"Previous hash"</dt><dd class="mono hash" data-key="prevHash">{mono(record.prev_hash)}</dd>
                <dt>"Hash"</dt><dd class="mono hash" data-key="hash">{mono(record.hash)}</dd>
            </dl>
        </div>
    }
}

/// The fields a record changed, before → after; a sentence when it changed none (a refused
/// write, a download).
#[component]
pub fn ChangeTable(changes: Vec<AuditChange>) -> impl IntoView {
    if changes.is_empty() {
        return Either::Left(view! { <p class="muted" data-testid="audit-no-changes">"No fields changed."</p> });
    }
    let rows = changes
        .into_iter()
        .map(|c| {
            view! {
                <tr data-field=c.field.clone()>
                    <th scope="row">{c.field.clone()}</th>
                    <td class="audit-before">{value_text(c.before.as_deref())}</td>
                    <td class="audit-after">{value_text(c.after.as_deref())}</td>
                </tr>
            }
        })
        .collect_view();
    Either::Right(view! {
        <table class="audit-changes" data-testid="audit-changes">
            <thead>
                <tr>
                    <th scope="col">"Field"</th>
                    <th scope="col">"Before"</th>
                    <th scope="col">"After"</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
    })
}
