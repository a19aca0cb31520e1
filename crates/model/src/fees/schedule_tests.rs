use proptest::prelude::*;

use super::*;
use crate::fees::FeeAmount;

fn default_schedule() -> FeeSchedule {
    let file: ScheduleFile = toml::from_str(DEFAULT_SCHEDULE_TOML).expect("the default schedule parses");
    FeeSchedule::from_file(&file).expect("the default schedule is valid")
}

fn amount(s: &str) -> FeeAmount {
    FeeAmount::parse(s).unwrap()
}

fn quoted(schedule: &FeeSchedule, t: TransferType, a: &str) -> Vec<(String, String)> {
    schedule.quote(t, amount(a)).into_iter().map(|q| (q.entry.fee_type, q.entry.fee_amount.to_string())).collect()
}

fn pairs(v: &[(&str, &str)]) -> Vec<(String, String)> {
    v.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
}

#[test]
fn the_default_schedule_prices_every_transfer_type_with_standard_and_express() {
    let s = default_schedule();
    assert_eq!(s.effective_from, "2026-01-01T00:00:00Z");
    for t in TransferType::ALL {
        assert_eq!(s.fee_types(t), ["standard", "express"], "{t}");
    }
}

#[test]
fn the_tier_description_names_rail_fee_type_range_and_formula() {
    let s = default_schedule();
    let q = s.quote(TransferType::Eft, amount("5000"));
    assert_eq!(q[0].entry.description, "ACH standard, 1,000.00 to 9,999.99: 0.25 + 0.10 %, max 25.00");
    assert_eq!(q[0].entry.fee_amount.to_string(), "5.25");
    let open = s.quote(TransferType::Eft, amount("20000"));
    assert_eq!(open[0].entry.description, "ACH standard, 10,000.00 and above: 0.05 %, min 10.00, max 50.00");
    let wire = s.quote(TransferType::DomesticWire, amount("1"));
    assert_eq!(wire[1].entry.description, "Wire express, any amount: 35.00");
}

#[test]
fn a_tier_includes_its_lower_edge_and_excludes_its_upper_edge() {
    let s = default_schedule();
    // [0, 1000): flat 0.25; [1000, 10000): 0.25 + 0.10 %.
    assert_eq!(quoted(&s, TransferType::Eft, "999.99")[0].1, "0.25");
    assert_eq!(quoted(&s, TransferType::Eft, "1000.00")[0].1, "1.25");
    assert_eq!(quoted(&s, TransferType::Eft, "9999.99")[0].1, "10.25");
    // [10000, ...): 0.05 % with a 10.00 minimum.
    assert_eq!(quoted(&s, TransferType::Eft, "10000")[0].1, "10.00");
    // Every tier edge of the default schedule, generically: the last cent below `to` is priced
    // by the tier, `to` itself by the next one.
    for t in &s.tiers {
        let Some(to) = t.to else { continue };
        let below = amount(&(to.decimal() - rust_decimal::Decimal::new(1, 2)).to_string());
        assert!(t.contains(below.decimal()) && !t.contains(to.decimal()), "{t:?}");
        let next =
            s.tiers.iter().find(|u| u.transfer_type == t.transfer_type && u.fee_type == t.fee_type && u.from == to);
        assert!(next.is_some_and(|n| n.contains(to.decimal())), "no tier starts at {to} after {t:?}");
    }
}

#[test]
fn rounding_is_half_even_at_the_cent_and_happens_once() {
    let s = default_schedule();
    // 0.25 + 0.10 % of 1005.00 = 1.255 -> 1.26 (5 is odd: up); of 1015.00 = 1.265 -> 1.26.
    assert_eq!(quoted(&s, TransferType::Eft, "1005.00")[0].1, "1.26");
    assert_eq!(quoted(&s, TransferType::Eft, "1015.00")[0].1, "1.26");
    // Not a midpoint: 0.25 + 1.00005 = 1.25005 -> 1.25.
    assert_eq!(quoted(&s, TransferType::Eft, "1000.05")[0].1, "1.25");
    // 1.00 + 0.05 % of 1010.00 = 1.505 -> 1.50 (0 is even: down); of 1030.00 = 1.515 -> 1.52.
    assert_eq!(quoted(&s, TransferType::SameDayAch, "1010.00")[0].1, "1.50");
    assert_eq!(quoted(&s, TransferType::SameDayAch, "1030.00")[0].1, "1.52");
    // Always two decimals.
    assert_eq!(quoted(&s, TransferType::DomesticWire, "5"), pairs(&[("standard", "15.00"), ("express", "35.00")]));
}

#[test]
fn percentage_fees_stop_at_their_minimum_and_their_cap() {
    let s = default_schedule();
    // 0.05 % of 12,000.00 = 6.00 < min 10.00; of 30,000 = 15.00; of 500,000 = 250 > max 50.
    assert_eq!(quoted(&s, TransferType::Eft, "12000")[0].1, "10.00");
    assert_eq!(quoted(&s, TransferType::Eft, "30000")[0].1, "15.00");
    assert_eq!(quoted(&s, TransferType::Eft, "500000")[0].1, "50.00");
    assert_eq!(quoted(&s, TransferType::Eft, "999999999999999.99")[0].1, "50.00");
    // The cap clamps the whole fee, flat part included: 45 + 0.10 % of 200,000 = 245 -> 150.
    assert_eq!(quoted(&s, TransferType::InternationalWire, "200000")[0].1, "150.00");
}

#[test]
fn without_an_amount_every_tier_is_listed_with_its_range_and_least_fee() {
    let s = default_schedule();
    let entries = s.entries(TransferType::Eft);
    let text: Vec<(&str, String, &str)> =
        entries.iter().map(|e| (e.fee_type.as_str(), e.fee_amount.to_string(), e.description.as_str())).collect();
    assert_eq!(
        text,
        [
            ("standard", "0.25".to_string(), "ACH standard, 0.00 to 999.99: 0.25"),
            ("standard", "1.25".to_string(), "ACH standard, 1,000.00 to 9,999.99: 0.25 + 0.10 %, max 25.00"),
            ("standard", "10.00".to_string(), "ACH standard, 10,000.00 and above: 0.05 %, min 10.00, max 50.00"),
            ("express", "2.00".to_string(), "ACH express, 0.00 to 9,999.99: 2.00"),
            ("express", "4.00".to_string(), "ACH express, 10,000.00 and above: 2.00 + 0.02 %, max 15.00"),
        ]
    );
}

#[test]
fn a_bad_schedule_file_is_refused_whole_with_every_problem_at_its_place() {
    let file = r#"{"effective_from":"2026-02-30","fees":[
        {"rail":"ach","transfer_type":"EFT","fee_type":"standard","from":"0","to":"100","flat":"-1"},
        {"rail":"ach","transfer_type":"EFT","fee_type":"standard","from":"150","to":"120","flat":"1","fee_min":"2"},
        {"rail":"ach","transfer_type":"EFT","fee_type":"standard","from":"120","percent":"101"},
        {"rail":"ach","transfer_type":"DOMESTIC_WIRE","fee_type":"express","from":"0","flat":"1"},
        {"rail":"sepa","transfer_type":"EFT","fee_type":"Standard","from":"0"},
        {"rail":"wire","transfer_type":"DOMESTIC_WIRE","fee_type":"standard","from":"0","to":"50","flat":"1"},
        {"rail":"wire","transfer_type":"DOMESTIC_WIRE","fee_type":"standard","from":"40","flat":"1"}
    ]}"#;
    let problems = FeeSchedule::from_json(file).unwrap_err().0;
    let places: Vec<&str> = problems.iter().map(|p| p.place.as_str()).collect();
    let expected = [
        "effective_from",
        "fees[0].flat",
        "fees[1].fee_min",
        "fees[1].to",
        "fees[2].percent",
        "fees[3].transfer_type",
        "fees[4].rail",
        "fees[4].fee_type",
        "fees[4].flat",
        "fees",
        "fees",
        "fees[6]",
    ];
    assert_eq!(places, expected, "{problems:#?}");
    let all = ScheduleProblems(problems).to_string();
    for needle in [
        "2026-02-30",
        "must not be negative",
        "to 120 must be above from 150",
        "between 0 and 100",
        "not an ach transfer type",
        "\"sepa\" is not known",
        "transfer type SAME_DAY_ACH (ach rail) has no tiers",
        "overlaps the tier up to 50",
    ] {
        assert!(all.contains(needle), "{needle:?} missing from:\n{all}");
    }
}

#[test]
fn gaps_and_unpriced_amounts_are_problems() {
    let base = |extra: &str| {
        format!(
            r#"{{"effective_from":"2026-01-01","fees":[{extra}
            {{"rail":"ach","transfer_type":"SAME_DAY_ACH","fee_type":"standard","from":"0","flat":"1"}},
            {{"rail":"wire","transfer_type":"DOMESTIC_WIRE","fee_type":"standard","from":"0","flat":"1"}},
            {{"rail":"wire","transfer_type":"INTERNATIONAL_WIRE","fee_type":"standard","from":"0","flat":"1"}}]}}"#
        )
    };
    let gap = base(
        r#"{"rail":"ach","transfer_type":"EFT","fee_type":"standard","from":"0","to":"100","flat":"1"},
           {"rail":"ach","transfer_type":"EFT","fee_type":"standard","from":"200","flat":"1"},"#,
    );
    let msg = FeeSchedule::from_json(&gap).unwrap_err().to_string();
    assert!(msg.contains("fees[1]: ach EFT standard: gap between 100 and 200"), "{msg}");
    let closed =
        base(r#"{"rail":"ach","transfer_type":"EFT","fee_type":"standard","from":"0","to":"100","flat":"1"},"#);
    let msg = FeeSchedule::from_json(&closed).unwrap_err().to_string();
    assert!(msg.contains("the last tier ends at 100"), "{msg}");
    let late = base(r#"{"rail":"ach","transfer_type":"EFT","fee_type":"standard","from":"5","flat":"1"},"#);
    let msg = FeeSchedule::from_json(&late).unwrap_err().to_string();
    assert!(msg.contains("starts at 5; it must start at 0.00"), "{msg}");
    let good = base(r#"{"rail":"ach","transfer_type":"EFT","fee_type":"standard","from":"0","flat":"1"},"#);
    assert!(FeeSchedule::from_json(&good).is_ok());
}

#[test]
fn an_unknown_field_or_a_float_amount_is_refused_with_its_line() {
    let err =
        FeeSchedule::from_json("{\"effective_from\":\"2026-01-01\",\n\"fees\":[{\"rail\":\"ach\",\"surprise\":1}]}")
            .unwrap_err();
    assert!(err.0[0].place.starts_with("line 2"), "{err}");
    assert!(err.to_string().contains("surprise"), "{err}");
    let float = toml::from_str::<ScheduleFile>(
        "effective_from = \"2026-01-01\"\n[[fees]]\nrail=\"ach\"\ntransfer_type=\"EFT\"\nfee_type=\"standard\"\nfrom=0.1\n",
    );
    assert!(float.is_err(), "a TOML float is not an amount");
}

#[test]
fn the_returned_item_fee_is_optional_at_least_zero_with_two_decimals() {
    let with = |fee: &str| {
        let text = DEFAULT_SCHEDULE_TOML.replace("returned_item_fee = \"15.00\"\n", "").replacen(
            "effective_from",
            &format!("returned_item_fee = {fee:?}\neffective_from"),
            1,
        );
        FeeSchedule::from_file(&toml::from_str::<ScheduleFile>(&text).unwrap())
    };
    assert_eq!(default_schedule().returned_item_fee_cents(), Some(1_500), "the default schedule's");
    let left_out = DEFAULT_SCHEDULE_TOML.replace("returned_item_fee = \"15.00\"\n", "");
    let left_out = FeeSchedule::from_file(&toml::from_str::<ScheduleFile>(&left_out).unwrap()).unwrap();
    assert_eq!(left_out.returned_item_fee, None, "left out: the server's setting applies");
    assert_eq!(with("22.50").unwrap().returned_item_fee_cents(), Some(2_250));
    assert_eq!(with("0").unwrap().returned_item_fee_cents(), Some(0));
    for bad in ["-1.00", "1.005", "ten", "1000000000.00"] {
        let problems = with(bad).unwrap_err().0;
        assert_eq!(problems[0].place, "returned_item_fee", "{bad}: {problems:?}");
    }
    let json = serde_json::to_string(&with("20.00").unwrap()).unwrap();
    assert!(json.contains(r#","returned_item_fee":20.00,"#), "shown with the version: {json}");
    let stored_before: FeeSchedule =
        serde_json::from_str(r#"{"effective_from":"2026-01-01T00:00:00Z","tiers":[]}"#).unwrap();
    assert_eq!(stored_before.returned_item_fee, None, "a version stored before the field reads");
}

proptest! {
    /// For any amount in range, exactly one tier of each fee type applies.
    #[test]
    fn exactly_one_tier_per_fee_type_prices_any_amount(cents in 1u64..=99_999_999_999_999_999u64, t in 0usize..4) {
        let s = default_schedule();
        let transfer_type = TransferType::ALL[t];
        let a = rust_decimal::Decimal::new(cents as i64, 2);
        for fee_type in s.fee_types(transfer_type) {
            let n = s.tiers_for(transfer_type).filter(|x| x.fee_type == fee_type && x.contains(a)).count();
            prop_assert_eq!(n, 1, "{} {} {}", transfer_type, fee_type, a);
        }
        let q = s.quote(transfer_type, FeeAmount::parse(&a.to_string()).unwrap());
        prop_assert_eq!(q.len(), s.fee_types(transfer_type).len());
        for fee in q {
            prop_assert_eq!(fee.entry.fee_amount.decimal().scale(), 2);
            prop_assert!(!fee.entry.fee_amount.decimal().is_sign_negative());
        }
    }
}
