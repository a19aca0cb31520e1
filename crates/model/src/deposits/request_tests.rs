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
    assert_eq!(d.amount.to_string(), "125.50");
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
        assert_eq!(check(v).unwrap().amount.to_string(), want, "{given}");
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
        ("bankAccountNumber", json!("12-34"), "digits"),
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
        assert!(errors[0].message.contains(why), "{field} = {value}: {}", errors[0].message);
    }
    // An exponent, as a client might write it (json! would write 1000.0).
    let mut f: CheckDepositFields = serde_json::from_value(good()).unwrap();
    f.amount = serde_json::from_str::<CheckDepositFields>(r#"{"amount":1e3}"#).unwrap().amount;
    let errors = f.check(today()).unwrap_err();
    assert!(errors[0].field == "amount" && errors[0].message.contains("plain decimal"), "{errors:?}");
    // 180 days ago is still fine; the day before is stale.
    let mut v = good();
    v["checkDate"] = json!("2026-05-28");
    assert!(check(v).is_ok());
}
