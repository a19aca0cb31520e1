//! The review step's form: its signals (`ReviewForm`, filled from the MICR line read) and, as
//! pure functions of plain values, what the line says of each field, the amount's note, which
//! scan can be deposited as it is, and the requests (`Entry`: what was typed, at one moment).

use base64::Engine;
use leptos::prelude::*;
use moneydesk_model::deposits::{CheckDepositFields, CheckScan, CheckScanFields, DepositRecord, MicrField, MicrRead};
use moneydesk_model::Money;

use super::super::field::{new_key, text};
use super::super::scan::percent;
use super::{Gathered, SideDone};
use crate::api::ApiError;
use crate::i18n::{deposits::text as words, fill};

/// The form's state; `Copy` (signals), handed to its parts.
#[derive(Clone, Copy)]
pub struct ReviewForm {
    pub routing: RwSignal<String>,
    pub account: RwSignal<String>,
    pub check_number: RwSignal<String>,
    pub amount: RwSignal<String>,
    pub check_date: RwSignal<String>,
    pub memo: RwSignal<String>,
    /// The deposit's `Idempotency-Key`, kept until an answer arrives.
    pub key: StoredValue<String>,
    pub busy: RwSignal<bool>,
    pub failed: RwSignal<Option<ApiError>>,
    /// The last scan made, and the deposit made from it.
    pub scan: RwSignal<Option<CheckScan>>,
    pub made: RwSignal<Option<DepositRecord>>,
}

impl ReviewForm {
    /// The form with what the line read (`micr`) typed in.
    pub fn new(micr: Option<&MicrRead>) -> Self {
        let read = |f: fn(&MicrRead) -> &Option<MicrField>| RwSignal::new(value(micr.and_then(|m| f(m).as_ref())));
        ReviewForm {
            routing: read(|m| &m.routing_number),
            account: read(|m| &m.account_number),
            check_number: read(|m| &m.check_number),
            amount: RwSignal::new(printed(micr).map(|p| p.with_cents().to_string()).unwrap_or_default()),
            check_date: RwSignal::new(String::new()),
            memo: RwSignal::new(String::new()),
            key: StoredValue::new(new_key()),
            busy: RwSignal::new(false),
            failed: RwSignal::new(None),
            scan: RwSignal::new(None),
            made: RwSignal::new(None),
        }
    }

    /// What is typed now (untracked), with the payee the first step gathered.
    pub fn entry(&self, gathered: Gathered) -> Entry {
        Entry {
            routing: text(self.routing),
            account: text(self.account),
            check_number: text(self.check_number),
            check_date: text(self.check_date),
            memo: text(self.memo),
            payee_account: text(gathered.payee_account),
            payee_user: text(gathered.payee_user),
        }
    }
}

/// The form's fields at one moment: trimmed, `None` when empty (the request leaves it out).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Entry {
    pub routing: Option<String>,
    pub account: Option<String>,
    pub check_number: Option<String>,
    pub check_date: Option<String>,
    pub memo: Option<String>,
    pub payee_account: Option<String>,
    pub payee_user: Option<String>,
}

impl Entry {
    /// The check deposit naming `scanned`, for its amount and sleeve account.
    pub fn deposit(self, scanned: &CheckScan) -> CheckDepositFields {
        CheckDepositFields {
            amount: Some(scanned.amount.with_cents().to_string()),
            bank_account_number: self.account,
            bank_routing_number: self.routing,
            check_number: self.check_number,
            check_date: self.check_date,
            payer_id: Some(scanned.sma_sfid.clone()),
            scan_id: Some(scanned.scan_id.clone()),
            memo: self.memo,
            payee_account_id: self.payee_account,
            payee_user_id: self.payee_user,
            source: Some("portal".into()),
            ..Default::default()
        }
    }
}

/// A MICR field's value when every character of it was read.
pub fn value(field: Option<&MicrField>) -> String {
    field.filter(|f| !f.value.contains('*')).map(|f| f.value.clone()).unwrap_or_default()
}

/// What the line says of a field, under it: its confidence, and whether to check it.
pub fn said(field: Option<&MicrField>) -> Option<String> {
    field.map(|f| {
        let w = &words().wizard;
        let check = if f.uncertain { w.check_against } else { "" };
        fill(w.read_value, &[&f.value, &percent(f.confidence), check])
    })
}

/// The amount the line's amount field encodes, when the check has one.
pub fn printed(micr: Option<&MicrRead>) -> Option<Money> {
    micr.and_then(|m| m.amount.as_ref()).and_then(|a| Money::parse(&a.value).ok())
}

/// Said under the amount when the amount typed is not the one the line encodes.
pub fn differs(printed: Option<Money>, typed: &str) -> Option<String> {
    match (printed, Money::parse(typed.trim()).ok()) {
        (Some(p), Some(t)) if p.with_cents() != t.with_cents() => {
            Some(fill(words().wizard.differs, &[&p.with_cents().to_string()]))
        }
        _ => None,
    }
}

/// The amount as the scan endpoint takes it: `$1,250.00` is `1250.00`.
pub fn plain_amount(typed: Option<String>) -> Option<String> {
    typed.map(|a| a.replace([',', '$'], ""))
}

/// The scan already made for the amount typed, when it can be deposited as it is (a scan is
/// deposited once: the same amount again deposits the same scan).
pub fn reusable(scan: Option<&CheckScan>, typed: Option<&str>) -> Option<CheckScan> {
    let typed = typed.and_then(|t| Money::parse(t).ok())?;
    scan.filter(|s| typed.with_cents() == s.amount.with_cents() && s.problems.is_empty()).cloned()
}

/// The scan endpoint's request: the amount and the straightened sides.
pub fn scan_fields(amount: Option<String>, front: Option<&SideDone>, back: Option<&SideDone>) -> CheckScanFields {
    let b64 = |side: Option<&SideDone>| side.map(|s| base64::engine::general_purpose::STANDARD.encode(&s.jpeg));
    CheckScanFields { amount, frontimage: b64(front), rearimage: b64(back) }
}

#[cfg(test)]
mod tests {
    use moneydesk_model::deposits::{ScanSide, SideMillis, SideRead};
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn field(value: &str, uncertain: bool) -> MicrField {
        MicrField { value: value.into(), confidence: 0.934, uncertain }
    }

    fn scan(amount: &str, problems: &[&str]) -> CheckScan {
        let side = |id: &str| ScanSide {
            image_id: id.into(),
            width: 1200,
            height: 540,
            grayscale_bytes: 1,
            bitonal_bytes: 1,
            findings: Vec::new(),
        };
        CheckScan {
            scan_id: "scn_1".into(),
            sma_sfid: "sma_1".into(),
            amount: Money::parse(amount).unwrap(),
            front: side("scn_1-front"),
            rear: side("scn_1-rear"),
            micr: None,
            problems: problems.iter().map(|p| p.to_string()).collect(),
        }
    }

    #[wasm_bindgen_test]
    fn a_field_read_in_part_is_left_to_type() {
        assert_eq!(value(Some(&field("011000015", false))), "011000015");
        assert_eq!(value(Some(&field("0110*0015", true))), "");
        assert_eq!(value(None), "");
        assert_eq!(
            said(Some(&field("0110*0015", true))).as_deref(),
            Some("Read 0110*0015 (93 %, check it against the check)")
        );
        assert_eq!(said(Some(&field("123", false))).as_deref(), Some("Read 123 (93 %)"));
        assert_eq!(said(None), None);
    }

    #[wasm_bindgen_test]
    fn the_amount_typed_is_compared_with_the_printed_one() {
        let p = Money::parse("1250").ok();
        assert_eq!(differs(p, " 1250.00 "), None);
        assert_eq!(differs(p, "125.00").as_deref(), Some("The check's MICR line encodes 1250.00: the amounts differ"));
        assert_eq!(differs(p, "abc"), None, "nothing to compare");
        assert_eq!(differs(None, "125.00"), None);
        assert_eq!(plain_amount(Some("$1,250.00".into())).as_deref(), Some("1250.00"));
    }

    #[wasm_bindgen_test]
    fn a_scan_is_deposited_again_for_the_same_amount_only() {
        let s = scan("1250.00", &[]);
        assert_eq!(reusable(Some(&s), Some("1250")), Some(s.clone()));
        assert_eq!(reusable(Some(&s), Some("1250.01")), None);
        assert_eq!(reusable(Some(&s), None), None);
        assert_eq!(reusable(Some(&scan("1250.00", &["No MICR line"])), Some("1250")), None, "a scan with problems");
        assert_eq!(reusable(None, Some("1250")), None);
    }

    #[wasm_bindgen_test]
    fn the_deposit_names_the_scan_and_carries_what_was_typed() {
        let entry = Entry { routing: Some("011000015".into()), payee_user: Some("u1".into()), ..Default::default() };
        let f = entry.deposit(&scan("1250.5", &[]));
        assert_eq!(f.amount.as_deref(), Some("1250.50"));
        assert_eq!(f.scan_id.as_deref(), Some("scn_1"));
        assert_eq!(f.payer_id.as_deref(), Some("sma_1"));
        assert_eq!(f.bank_routing_number.as_deref(), Some("011000015"));
        assert_eq!(f.payee_user_id.as_deref(), Some("u1"));
        assert_eq!(f.memo, None);
        assert_eq!(f.source.as_deref(), Some("portal"));
        let read = SideRead {
            width: 1,
            height: 1,
            corners: None,
            straightened_width: 1,
            straightened_height: 1,
            findings: Vec::new(),
            micr: None,
            millis: SideMillis::default(),
        };
        let side = SideDone { jpeg: b"jpeg".to_vec(), read };
        let s = scan_fields(Some("1".into()), Some(&side), None);
        assert_eq!(s.frontimage.as_deref(), Some("anBlZw=="));
        assert_eq!(s.rearimage, None);
    }
}
