//! The loader against the Fed's real files (../shared/data/routing, never copied into the
//! repo): every field of every record checked against the raw text, both formats.

use std::path::PathBuf;

use moneydesk_model::routing::{DirectoryFormat, RoutingNumber};
use moneydesk_server::routing::directory::{load, Sources};
use serde_json::Value;

fn data(name: &str) -> PathBuf {
    PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or(env!("CARGO_MANIFEST_DIR").into()))
        .join("../../../shared/data/routing")
        .join(name)
}

fn raw_lines(name: &str) -> Vec<String> {
    let text = std::fs::read_to_string(data(name)).expect("real routing file present");
    text.split('\n').map(|l| l.trim_end_matches('\r').to_string()).filter(|l| !l.is_empty()).collect()
}

/// (JSON field, first column, last column, trimmed of trailing spaces) from SOURCE.md.
const ACH_COLUMNS: &[(&str, usize, usize, bool)] = &[
    ("routingNumber", 1, 9, false),
    ("officeCode", 10, 10, false),
    ("servicingFRBNumber", 11, 19, false),
    ("recordTypeCode", 20, 20, false),
    ("changeDate", 21, 26, false),
    ("newRoutingNumber", 27, 35, false),
    ("customerName", 36, 71, true),
    ("customerAddress", 72, 107, true),
    ("customerCity", 108, 127, true),
    ("customerState", 128, 129, false),
    ("customerZip", 130, 134, false),
    ("customerZipExt", 135, 138, false),
    ("customerAreaCode", 139, 141, false),
    ("customerPhonePrefix", 142, 144, false),
    ("customerPhoneSuffix", 145, 148, false),
    ("institutionStatusCode", 149, 149, false),
    ("dataViewCode", 150, 150, false),
];

const WIRE_COLUMNS: &[(&str, usize, usize, bool)] = &[
    ("routingNumber", 1, 9, false),
    ("telegraphicName", 10, 27, true),
    ("customerName", 28, 63, true),
    ("customerState", 64, 65, false),
    ("customerCity", 66, 90, true),
    ("fundsEligibility", 91, 91, false),
    ("settlementOnly", 92, 92, false),
    ("securitiesEligibility", 93, 93, false),
    ("changeDate", 94, 101, false),
];

fn expected(line: &str, columns: &[(&str, usize, usize, bool)]) -> Value {
    let mut m = serde_json::Map::new();
    for (name, from, to, trim) in columns {
        let v = &line[from - 1..*to];
        m.insert(name.to_string(), Value::from(if *trim { v.trim_end_matches(' ') } else { v }));
    }
    Value::Object(m)
}

fn rn(s: &str) -> RoutingNumber {
    RoutingNumber::parse(s).unwrap()
}

#[test]
fn fixed_width_every_field_of_every_record() {
    let dir =
        load::load(&Sources { fedach: Some(data("FedACHdir.txt")), fedwire: Some(data("fpddir.txt")) }).expect("loads");
    let ach_lines = raw_lines("FedACHdir.txt");
    let wire_lines = raw_lines("fpddir.txt");
    assert_eq!((dir.ach.len(), dir.wire.len()), (18_198, 7_693));
    assert_eq!((dir.ach_info.format, dir.wire_info.format), (DirectoryFormat::FixedWidth, DirectoryFormat::FixedWidth));
    for line in &ach_lines {
        let got = serde_json::to_value(dir.ach(&rn(&line[..9])).expect("in ACH")).unwrap();
        assert_eq!(got, expected(line, ACH_COLUMNS), "ACH line {line:?}");
    }
    for line in &wire_lines {
        let got = serde_json::to_value(dir.wire(&rn(&line[..9])).expect("in wire")).unwrap();
        assert_eq!(got, expected(line, WIRE_COLUMNS), "wire line {line:?}");
    }
    // 6,881 routing numbers are in both files (SOURCE.md).
    assert_eq!(dir.entries.len(), 18_198 + 7_693 - 6_881);
    // The newest ACH change date (the wire file's newest is 20181203): the directory's effective date.
    assert_eq!(dir.as_of().0.unwrap().to_string(), "2018-12-04");
}

#[test]
fn fixed_width_chosen_records_by_hand() {
    let dir = load::load(&Sources { fedach: Some(data("FedACHdir.txt")), fedwire: Some(data("fpddir.txt")) }).unwrap();
    let a = dir.ach(&rn("011000138")).unwrap();
    assert_eq!(a.customer_name, "BANK OF AMERICA, N.A.");
    assert_eq!(a.customer_address, "8001 VILLA PARK DRIVE");
    assert_eq!(
        (a.customer_city.as_str(), a.customer_state.as_str(), a.customer_zip.as_str()),
        ("HENRICO", "VA", "23228")
    );
    assert_eq!(
        (a.customer_area_code.as_str(), a.customer_phone_prefix.as_str(), a.customer_phone_suffix.as_str()),
        ("800", "446", "0135")
    );
    assert_eq!(
        (a.change_date.as_str(), a.record_type_code.as_str(), a.servicing_frb_number.as_str()),
        ("101310", "1", "011000015")
    );
    let frb = dir.ach(&rn("011000015")).unwrap();
    assert_eq!((frb.record_type_code.as_str(), frb.customer_address.as_str()), ("0", "1000 PEACHTREE ST N.E."));
    // Wire: a blank change date stays eight spaces; the settlement flag stays a space.
    let w = dir.wire(&rn("011000028")).unwrap();
    assert_eq!(
        (w.telegraphic_name.as_str(), w.customer_name.as_str(), w.settlement_only.as_str(), w.change_date.as_str()),
        ("STATE ST BOS", "STATE STREET BOSTON", " ", "        ")
    );
}

#[test]
fn settlement_only_flag_is_s_or_a_space_never_empty() {
    let dir = load::load(&Sources { fedach: None, fedwire: Some(data("fpddir.txt")) }).unwrap();
    let s = dir.wire.iter().filter(|w| w.settlement_only == "S").count();
    let space = dir.wire.iter().filter(|w| w.settlement_only == " ").count();
    assert_eq!((s, space), (818, 6_875));
    let raw = raw_lines("fpddir.txt");
    let line = raw.iter().find(|l| &l[91..92] == "S").unwrap();
    let w = dir.wire(&rn(&line[..9])).unwrap();
    assert_eq!(serde_json::to_value(w).unwrap()["settlementOnly"], "S");
    assert!(dir.ach.is_empty(), "an unset FedACH file is an empty directory");
}

/// A JSON record's fields under the response's names (the file's quirks undone).
fn json_expected(rec: &Value) -> Value {
    let mut m = rec.as_object().unwrap().clone();
    if let Some(v) = m.remove("statusCode") {
        m.insert("institutionStatusCode".into(), v);
    }
    if let Some(v) = m.remove("fundsSettlementOnlyStatus") {
        m.insert("settlementOnly".into(), v);
    }
    Value::Object(m)
}

#[test]
fn json_every_field_and_the_status_code_quirk() {
    let dir =
        load::load(&Sources { fedach: Some(data("fedachdir.json")), fedwire: Some(data("fpddir.json")) }).unwrap();
    assert_eq!((dir.ach_info.format, dir.wire_info.format), (DirectoryFormat::Json, DirectoryFormat::Json));
    let ach: Value = serde_json::from_str(&std::fs::read_to_string(data("fedachdir.json")).unwrap()).unwrap();
    let ach = ach["fedACHParticipants"]["fedACHParticipants"].as_array().unwrap();
    assert_eq!(dir.ach.len(), ach.len());
    let mut quirky = 0;
    for rec in ach {
        quirky += usize::from(rec.get("statusCode").is_some());
        let got = serde_json::to_value(dir.ach(&rn(rec["routingNumber"].as_str().unwrap())).unwrap()).unwrap();
        assert_eq!(got, json_expected(rec));
        assert!(got.get("statusCode").is_none() && got.get("institutionStatusCode").is_some());
    }
    assert_eq!(quirky, 3, "records 4-6 spell it statusCode");
    let wire: Value = serde_json::from_str(&std::fs::read_to_string(data("fpddir.json")).unwrap()).unwrap();
    let wire = wire["fedwireParticipants"]["fedwireParticipants"].as_array().unwrap();
    assert_eq!(dir.wire.len(), wire.len());
    for rec in wire {
        let got = serde_json::to_value(dir.wire(&rn(rec["routingNumber"].as_str().unwrap())).unwrap()).unwrap();
        assert_eq!(got, json_expected(rec));
        assert_eq!(got["settlementOnly"].as_str().unwrap().len(), 1);
    }
}

#[test]
fn both_formats_agree_on_shared_records() {
    let fixed =
        load::load(&Sources { fedach: Some(data("FedACHdir.txt")), fedwire: Some(data("fpddir.txt")) }).unwrap();
    let json =
        load::load(&Sources { fedach: Some(data("fedachdir.json")), fedwire: Some(data("fpddir.json")) }).unwrap();
    let a = json.ach(&rn("011000015")).unwrap();
    assert_eq!(fixed.ach(&rn("011000015")).unwrap().customer_name, a.customer_name);
    let w = json.wire(&rn("011000015")).unwrap();
    assert_eq!(fixed.wire(&rn("011000015")).unwrap(), w);
}

#[test]
fn demo_numbers_are_valid_and_none_is_real() {
    let demo = load::load_demo();
    let real = load::load(&Sources { fedach: Some(data("FedACHdir.txt")), fedwire: Some(data("fpddir.txt")) }).unwrap();
    assert_eq!((demo.ach.len(), demo.wire.len()), (27, 19));
    for e in &demo.entries {
        let n = rn(&format!("{:09}", e.key));
        assert!(real.ach(&n).is_none() && real.wire(&n).is_none(), "demo number {n} is a real one");
    }
    assert!(demo.ach.iter().any(|a| a.record_type_code == "0") && demo.ach.iter().any(|a| a.record_type_code == "2"));
    assert!(
        demo.wire.iter().any(|w| w.settlement_only == "S") && demo.wire.iter().any(|w| w.change_date == "        ")
    );
}
