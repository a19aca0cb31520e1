//! Every label of the model has its Spanish. The model's labelled vocabularies are listed
//! here, in [`VOCABULARIES`] (a test-only list, so no bundle carries every `OPTIONS`); a
//! vocabulary the list lacks is caught by [`the_model_has_no_labelled_list_left_out`], which
//! reads the labels out of the model's sources (the files named in [`SOURCES`]: a vocabulary in
//! a new model file needs its file added there, and the native `tests/i18n/vocab_sources.rs`,
//! which walks the whole model, fails until it is).

use moneydesk_model::accounts::{AccountStatus, AccountType};
use moneydesk_model::audit::AuditOutcome;
use moneydesk_model::bulk::BulkOutcome;
use moneydesk_model::deposits::{DepositStatus, ServiceType};
use moneydesk_model::email::bounces::{BounceKind, BounceReportState, DeliverabilityFlag};
use moneydesk_model::email::domains::{DomainState, RecordPurpose, RecordStatus};
use moneydesk_model::email::inbound::InboundState;
use moneydesk_model::email::suppressions::{BatchState, SuppressionReason};
use moneydesk_model::email::validation::{CheckName, Verdict};
use moneydesk_model::fees::{Rail, TransferType};
use moneydesk_model::ledger::{LedgerAccountKind, PostingKind, ReturnItemState, ReturnSource};
use moneydesk_model::search::{MatchKind, QueryShape, SearchGroup};
use moneydesk_model::{MessageState, Scope};
use wasm_bindgen_test::wasm_bindgen_test;

use super::*;
use crate::i18n::{set_for_test, shell};

type Options = &'static [(&'static str, &'static str)];

/// Every vocabulary of the model with labels, by name: `(name, OPTIONS)`.
const VOCABULARIES: &[(&str, Options)] = &[
    ("Rail", &Rail::OPTIONS),
    ("TransferType", &TransferType::OPTIONS),
    ("SearchGroup", &SearchGroup::OPTIONS),
    ("QueryShape", &QueryShape::OPTIONS),
    ("MatchKind", &MatchKind::OPTIONS),
    ("DepositStatus", &DepositStatus::OPTIONS),
    ("ServiceType", &ServiceType::OPTIONS),
    ("AuditOutcome", &AuditOutcome::OPTIONS),
    ("LedgerAccountKind", &LedgerAccountKind::OPTIONS),
    ("PostingKind", &PostingKind::OPTIONS),
    ("ReturnSource", &ReturnSource::OPTIONS),
    ("ReturnItemState", &ReturnItemState::OPTIONS),
    ("Scope", &Scope::OPTIONS),
    ("MessageState", &MessageState::OPTIONS),
    ("Verdict", &Verdict::OPTIONS),
    ("CheckName", &CheckName::OPTIONS),
    ("SuppressionReason", &SuppressionReason::OPTIONS),
    ("BatchState", &BatchState::OPTIONS),
    ("BounceKind", &BounceKind::OPTIONS),
    ("BounceReportState", &BounceReportState::OPTIONS),
    ("DeliverabilityFlag", &DeliverabilityFlag::OPTIONS),
    ("DomainState", &DomainState::OPTIONS),
    ("RecordPurpose", &RecordPurpose::OPTIONS),
    ("RecordStatus", &RecordStatus::OPTIONS),
    ("InboundState", &InboundState::OPTIONS),
    ("AccountStatus", AccountStatus::OPTIONS),
    ("AccountType", AccountType::OPTIONS),
    ("BulkOutcome", &BulkOutcome::OPTIONS),
];

/// The vocabularies whose labels are names, the same in every language (no Spanish entry).
const SAME_IN_EVERY_LANGUAGE: &[&str] = &["Scope"];

/// The model's files that write labelled vocabularies (`Variant = "wire" / "Label"`).
const SOURCES: &[(&str, &str)] = &[
    ("accounts.rs", include_str!("../../../crates/model/src/accounts.rs")),
    ("audit.rs", include_str!("../../../crates/model/src/audit.rs")),
    ("bulk.rs", include_str!("../../../crates/model/src/bulk.rs")),
    ("deposits/mod.rs", include_str!("../../../crates/model/src/deposits/mod.rs")),
    ("deposits/state.rs", include_str!("../../../crates/model/src/deposits/state.rs")),
    ("email/bounces.rs", include_str!("../../../crates/model/src/email/bounces.rs")),
    ("email/domains.rs", include_str!("../../../crates/model/src/email/domains.rs")),
    ("email/inbound.rs", include_str!("../../../crates/model/src/email/inbound.rs")),
    ("email/messages.rs", include_str!("../../../crates/model/src/email/messages.rs")),
    ("email/suppressions.rs", include_str!("../../../crates/model/src/email/suppressions.rs")),
    ("email/validation.rs", include_str!("../../../crates/model/src/email/validation.rs")),
    ("fees/mod.rs", include_str!("../../../crates/model/src/fees/mod.rs")),
    ("ledger/mod.rs", include_str!("../../../crates/model/src/ledger/mod.rs")),
    ("ledger/returns.rs", include_str!("../../../crates/model/src/ledger/returns.rs")),
    ("scopes.rs", include_str!("../../../crates/model/src/scopes.rs")),
    ("search.rs", include_str!("../../../crates/model/src/search.rs")),
];

/// The labels a model source writes: the `"Label"` of each `Variant = "wire" / "Label"` line.
fn written_labels(source: &str) -> Vec<&str> {
    let code = source.lines().map(str::trim).filter(|l| !l.starts_with("//"));
    code.filter_map(|l| {
        let (_, after) = l.split_once("= \"")?;
        let (_, label) = after.split_once("\" / \"")?;
        label.split_once('"').map(|(label, _)| label)
    })
    .collect()
}

#[wasm_bindgen_test]
fn every_label_of_every_vocabulary_has_its_spanish() {
    let mut missing = Vec::new();
    for (name, options) in VOCABULARIES.iter().filter(|(n, _)| !SAME_IN_EVERY_LANGUAGE.contains(n)) {
        missing.extend(options.iter().filter(|(_, l)| find(es::TABLE, l).is_none()).map(|(_, l)| (*name, *l)));
    }
    assert_eq!(missing, [], "labels with no Spanish in i18n/vocab/es.rs");
    for (name, options) in VOCABULARIES.iter().filter(|(n, _)| SAME_IN_EVERY_LANGUAGE.contains(n)) {
        let translated: Vec<_> = options.iter().filter(|(_, l)| find(es::TABLE, l).is_some()).collect();
        assert_eq!(translated, [] as [&(&str, &str); 0], "{name}'s labels are the same in every language");
    }
}

#[wasm_bindgen_test]
fn the_spanish_table_has_one_entry_per_label_and_none_stale() {
    let labels: Vec<&str> = VOCABULARIES.iter().flat_map(|(_, o)| o.iter().map(|(_, l)| *l)).collect();
    let mut seen = Vec::new();
    for (en, es) in es::TABLE {
        assert!(!seen.contains(en), "{en:?} twice: a label has one Spanish");
        assert!(labels.contains(en), "{en:?} is no model label (renamed or removed?)");
        assert!(!es.trim().is_empty() && es.trim() == *es, "{en:?}: {es:?}");
        seen.push(*en);
    }
}

#[wasm_bindgen_test]
fn the_model_has_no_labelled_list_left_out() {
    let listed: Vec<&str> = VOCABULARIES.iter().flat_map(|(_, o)| o.iter().map(|(_, l)| *l)).collect();
    let mut written = 0;
    for (file, source) in SOURCES {
        for label in written_labels(source) {
            written += 1;
            assert!(listed.contains(&label), "{file} writes the label {label:?}: list its vocabulary here");
        }
    }
    let count: usize = VOCABULARIES.iter().map(|(_, o)| o.len()).sum();
    assert_eq!(written, count, "the sources write as many labels as the listed vocabularies have");
}

#[wasm_bindgen_test]
async fn labels_are_said_in_the_chosen_language() {
    shell::load_spanish().await.unwrap();
    set_for_test(Lang::Es);
    let spanish = [say(DepositStatus::Settled.label()), say(Scope::LedgerRead.label()), say("Cualquiera")];
    set_for_test(Lang::En);
    assert_eq!(spanish, ["Liquidado", "ledger:read", "Cualquiera"], "a label with no entry is said as it is");
    assert_eq!(say(DepositStatus::Settled.label()), "Settled");
}
