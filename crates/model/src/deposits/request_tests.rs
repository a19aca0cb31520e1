use serde_json::json;

use super::*;

fn today() -> Date {
    Date::parse("2026-11-24").unwrap()
}

fn good() -> serde_json::Value {
    json!({
        "amount": "125.50",
        "bankAccountNumber": "000123456789",
        "bankRoutingNumber": "021000021",
        "checkFrontImage": "iVBORw0KGgo=",
        "checkBackImage": "iVBORw0KGgo=",
        "checkNumber": "1001",
        "payeeAccountId": "acc-1",
        "payeeUserId": "usr-1",
        "checkDate": "2026-11-20",
        "scheduleDate": "2026-11-25",
    })
}

fn check(v: serde_json::Value) -> Result<CheckDeposit, Vec<FieldError>> {
    serde_json::from_value::<CheckDepositFields>(v).unwrap().check(today())
}

fn fields_of(errors: &[FieldError]) -> Vec<&str> {
    errors.iter().map(|e| e.field.as_str()).collect()
}

#[test]
fn a_good_request_passes_with_exact_amounts() {
    let d = check(good()).unwrap();
    assert_eq!(d.amount.map(|a| a.to_string()).as_deref(), Some("125.50"));
    assert_eq!(d.bank_routing_number.to_string(), "021000021");
    assert_eq!(d.schedule_date, Date::parse("2026-11-25").ok());
}

#[test]
fn amounts_as_numbers_or_strings_keep_their_digits() {
    for (given, want) in
        [(json!(0.10), "0.10"), (json!("0.1"), "0.10"), (json!(9999999999.99), "9999999999.99"), (json!(3), "3.00")]
    {
        let mut v = good();
        v["amount"] = given.clone();
        assert_eq!(check(v).unwrap().amount.map(|a| a.to_string()).as_deref(), Some(want), "{given}");
    }
    let text = r#"{"amount":0.30000000000000004}"#;
    let f: CheckDepositFields = serde_json::from_str(text).unwrap();
    assert_eq!(f.amount.as_deref(), Some("0.30000000000000004"), "read from the text, not a float");
}

#[test]
fn the_examples_names_are_aliases_and_only_they_still_miss_every_required_field() {
    let example = json!({"amount": "10.00", "memo": "m", "payeeBankId": "bank-1", "payeeId": "usr-9",
        "payerId": "sma-1", "scheduledDate": "2026-12-01", "transferType": "EFT"});
    let errors = check(example).unwrap_err();
    assert_eq!(
        fields_of(&errors),
        [
            "bankRoutingNumber",
            "bankAccountNumber",
            "checkNumber",
            "checkFrontImage",
            "checkBackImage",
            "payeeAccountId"
        ]
    );
    let mut v = good();
    v.as_object_mut().unwrap().remove("scheduleDate");
    v.as_object_mut().unwrap().remove("payeeUserId");
    v["scheduledDate"] = json!("2026-12-01");
    v["payeeId"] = json!("usr-9");
    v["payeeBankId"] = json!("bank-1");
    let d = check(v).unwrap();
    assert_eq!((d.payee_user_id.as_str(), d.bank_info_id.as_ref().map(Text140::as_str)), ("usr-9", Some("bank-1")));
    assert_eq!(d.schedule_date, Date::parse("2026-12-01").ok());
}

#[test]
fn every_rule_names_its_field() {
    let cases: Vec<(&str, serde_json::Value, &str)> = vec![
        ("amount", json!("0"), "greater than zero"),
        ("amount", json!("-5"), "negative"),
        ("amount", json!("1.234"), "3 decimal places"),
        ("amount", json!("10000000000.00"), "too large"),
        ("bankRoutingNumber", json!("021000022"), "checksum"),
        ("bankRoutingNumber", json!("02100002"), "9 digits"),
        ("bankAccountNumber", json!("12a4"), "as printed"),
        ("bankAccountNumber", json!("-1234"), "as printed"),
        ("bankAccountNumber", json!("1234 "), "as printed"),
        ("bankAccountNumber", json!("1234-5678-9012-3456"), "at most 17"),
        ("checkNumber", json!(""), "must not be empty"),
        ("checkDate", json!("2026-11-25"), "in the future"),
        ("checkDate", json!("2026-05-27"), "stale"),
        ("checkDate", json!("2026-02-30"), "not a day"),
        ("scheduleDate", json!("2026-11-23"), "in the past"),
        ("memo", json!("a\u{7}b"), "control character"),
        ("fee", json!("-1"), "negative"),
        ("payerId", json!(" "), "1 to 140"),
    ];
    for (field, value, why) in cases {
        let mut v = good();
        v[field] = value.clone();
        let errors = check(v).unwrap_err();
        assert_eq!(fields_of(&errors), [field], "{field} = {value}: {errors:?}");
        assert!(errors[0].problem.contains(why), "{field} = {value}: {}", errors[0].problem);
    }
    // An exponent, as a client might write it (json! would write 1000.0).
    let mut f: CheckDepositFields = serde_json::from_value(good()).unwrap();
    f.amount = serde_json::from_str::<CheckDepositFields>(r#"{"amount":1e3}"#).unwrap().amount;
    let errors = f.check(today()).unwrap_err();
    assert!(errors[0].field == "amount" && errors[0].problem.contains("plain decimal"), "{errors:?}");
    // 180 days ago is still fine; the day before is stale.
    let mut v = good();
    v["checkDate"] = json!("2026-05-28");
    assert!(check(v).is_ok());
}

#[test]
fn an_account_is_kept_as_printed_and_compared_by_its_digits() {
    for printed in ["1211-1234-56789", "4820 0012 34", "7", "12345678901234567", "1 - 2"] {
        let mut v = good();
        v["bankAccountNumber"] = json!(printed);
        let d = check(v).unwrap_or_else(|e| panic!("{printed}: {e:?}"));
        assert_eq!(d.bank_account_number, printed, "kept as printed");
        assert_eq!(d.account_digits(), printed.replace(['-', ' '], ""));
    }
}

proptest::proptest! {
    /// The OpenAPI pattern (with maxLength 17) and the parser accept exactly the same accounts.
    #[test]
    fn the_documented_account_pattern_is_what_the_parser_accepts(s in "[0-9 a-]{0,19}") {
        let pattern = regex::Regex::new("^[0-9]+([ -]+[0-9]+)*$").unwrap();
        let documented = pattern.is_match(&s) && s.chars().count() <= 17;
        let mut v = good();
        v["bankAccountNumber"] = json!(s);
        let parsed = check(v).is_ok();
        // An empty or blank value is "required"/"must not be empty": refused either way.
        proptest::prop_assert_eq!(documented, parsed, "{:?}", s);
    }
}

#[test]
fn with_a_scan_the_amount_and_the_check_number_may_be_left_to_the_scan() {
    let scan = "scn_0123456789abcdef0123456789abcdef";
    let mut v = good();
    for field in ["amount", "checkNumber", "checkFrontImage", "checkBackImage"] {
        v.as_object_mut().unwrap().remove(field);
    }
    v["scanId"] = json!(scan);
    let d = check(v.clone()).unwrap();
    assert_eq!((d.amount, d.check_number), (None, None), "the server takes them from the scan");
    assert_eq!(d.images, CheckImages::Scan(scan.into()));
    // Without a scan, both are required, and the amount's problem says how to do without it.
    v.as_object_mut().unwrap().remove("scanId");
    v["checkFrontImage"] = json!("iVBORw0KGgo=");
    v["checkBackImage"] = json!("iVBORw0KGgo=");
    let errors = check(v).unwrap_err();
    assert_eq!(fields_of(&errors), ["amount", "checkNumber"]);
    assert!(errors[0].problem.contains("required without a scanId"), "{errors:?}");
}
