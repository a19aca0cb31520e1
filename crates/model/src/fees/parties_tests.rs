use super::*;
use crate::fees::{ScheduleFile, DEFAULT_SCHEDULE_TOML};

/// The default schedule with `extra` TOML after it (payer schedules, waivers).
fn with(extra: &str) -> Result<FeeSchedule, String> {
    let file: ScheduleFile = toml::from_str(&format!("{DEFAULT_SCHEDULE_TOML}\n{extra}")).map_err(|e| e.to_string())?;
    FeeSchedule::from_file(&file).map_err(|e| e.to_string())
}

const PARTIES: &str = r#"
[[payer_schedules]]
payer_id = "acme-payroll"
[[payer_schedules.fees]]
rail = "ach"
transfer_type = "EFT"
fee_type = "standard"
from = "0.00"
flat = "0.10"

[[waivers]]
payer_id = "city-food-bank"
reason = "Non-profit"

[[waivers]]
payee_bank_id = "021000021"
"#;

fn payer(id: &str) -> FeeParties<'_> {
    FeeParties { payer_id: Some(id), ..Default::default() }
}

fn fees(answer: &(Vec<FeeEntry>, Option<FeePricing>)) -> Vec<(&str, String)> {
    answer.0.iter().map(|e| (e.fee_type.as_str(), e.fee_amount.to_string())).collect()
}

#[test]
fn a_payer_schedule_prices_its_transfer_types_and_leaves_the_others_to_the_schedule() {
    let s = with(PARTIES).unwrap();
    let a = FeeAmount::parse("5000").unwrap();
    let acme = s.quote_for(&payer("acme-payroll"), TransferType::Eft, a);
    assert_eq!(fees(&acme), [("standard", "0.10".to_string())]);
    assert_eq!(acme.0[0].description, "ACH standard, any amount: 0.10 (schedule of payerId acme-payroll)");
    assert_eq!(acme.1.unwrap().basis, "payer_schedule");
    let same_day = s.quote_for(&payer("acme-payroll"), TransferType::SameDayAch, a);
    assert_eq!(same_day.1, None, "acme's schedule lists no same-day tiers");
    assert_eq!(same_day.0, s.quote(TransferType::SameDayAch, a).into_iter().map(|q| q.entry).collect::<Vec<_>>());
    let unknown = s.quote_for(&payer("somebody-else"), TransferType::Eft, a);
    assert_eq!(
        (fees(&unknown), unknown.1.clone()),
        (vec![("standard", "5.25".into()), ("express", "2.00".into())], None)
    );
}

#[test]
fn a_waiver_makes_every_fee_type_zero_and_says_why() {
    let s = with(PARTIES).unwrap();
    let a = FeeAmount::parse("5000").unwrap();
    let waived = s.quote_for(&payer("city-food-bank"), TransferType::Eft, a);
    assert_eq!(fees(&waived), [("standard", "0.00".to_string()), ("express", "0.00".to_string())]);
    assert_eq!(
        waived.0[0].description,
        "ACH standard, 1,000.00 to 9,999.99: waived for payerId city-food-bank (Non-profit)"
    );
    let pricing = waived.1.unwrap();
    assert_eq!((pricing.basis.as_str(), pricing.field.as_str()), ("waiver", "payerId"));
    let on_us = FeeParties { payer_id: Some("acme-payroll"), payee_bank_id: Some("021000021"), ..Default::default() };
    let (entries, pricing) = s.entries_for(&on_us, TransferType::DomesticWire);
    assert!(entries.iter().all(|e| e.fee_amount.to_string() == "0.00"), "{entries:?}");
    assert_eq!(pricing.unwrap().field, "payeeBankId", "a waiver beats the payer's schedule");
    assert_eq!(serde_json::to_value(&s).unwrap()["waivers"][1], serde_json::json!({"payee_bank_id": "021000021"}));
}

#[test]
fn bad_payer_schedules_and_waivers_are_named_at_their_place() {
    let bad = r#"
[[payer_schedules]]
payer_id = "acme"
[[payer_schedules.fees]]
rail = "ach"
transfer_type = "EFT"
fee_type = "standard"
from = "5.00"
flat = "-1"

[[payer_schedules]]
payer_id = "acme"
fees = []

[[payer_schedules]]
payer_id = "gift"
[[payer_schedules.fees]]
rail = "wire"
transfer_type = "DOMESTIC_WIRE"
fee_type = "standard"
from = "0"
flat = "1"

[[waivers]]
payer_id = "gift"
payee_id = "x"

[[waivers]]
payer_id = "gift"
reason = "a\nb"

[[waivers]]
payee_id = " p"
"#;
    let message = with(bad).unwrap_err();
    for needle in [
        "payer_schedules[0].fees[0].flat",
        "payer_schedules[1].payer_id: payer acme has a schedule already",
        "payer_schedules[1].fees: a payer schedule needs at least one tier",
        "waivers[0]: a waiver names exactly one of payer_id, payee_id, payee_bank_id",
        "waivers[1].reason: reason has a control character",
        "waivers[2].payee_id: payee_id has spaces around it",
    ] {
        assert!(message.contains(needle), "{needle:?} missing: {message}");
    }
    let gap = "[[payer_schedules]]\npayer_id = \"p\"\n[[payer_schedules.fees]]\nrail = \"ach\"\ntransfer_type = \"EFT\"\nfee_type = \"standard\"\nfrom = \"0\"\nto = \"10\"\nflat = \"1\"\n";
    let message = with(gap).unwrap_err();
    assert!(message.contains("payer_schedules[0].fees[0]: ach EFT standard: the last tier ends at 10"), "{message}");
    let waived_payer = "[[waivers]]\npayer_id = \"gift\"\n[[payer_schedules]]\npayer_id = \"gift\"\n[[payer_schedules.fees]]\nrail = \"ach\"\ntransfer_type = \"EFT\"\nfee_type = \"standard\"\nfrom = \"0\"\nflat = \"1\"\n";
    assert!(with(waived_payer).unwrap_err().contains("payer gift is waived; its schedule would never price"));
}

#[test]
fn a_version_stored_before_payers_existed_reads_with_none() {
    let s = with("").unwrap();
    let mut stored = serde_json::to_value(&s).unwrap();
    let object = stored.as_object_mut().unwrap();
    object.remove("payer_schedules");
    object.remove("waivers");
    let read: FeeSchedule = serde_json::from_value(stored).unwrap();
    assert_eq!(read, s);
}
