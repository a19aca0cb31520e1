//! One routing number's FedACH and Fedwire records, side by side, each field in words.
//! "Not in the directory" (404) is a calm answer, not an error.

use leptos::prelude::*;
use serde_json::Value;

use super::format as f;
use super::Loaded;
use crate::api::routing::{ach, wire};
use crate::api::ApiError;
use crate::components::error_view::ApiErrorView;
use crate::components::loading::Loading;
use crate::config::AppConfig;
use crate::i18n::routing::text as words;
use crate::session::use_auth;

/// A record's field as the API wrote it (names as in `moneydesk_model::routing`), "" if absent.
pub fn text<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

fn or_not_given(s: &str) -> String {
    if s.trim().is_empty() {
        f::not_given().into()
    } else {
        s.trim().to_string()
    }
}

/// One labelled field: what it means, the value in words, the raw code (or "").
pub type Row = (&'static str, String, String);

/// The ACH record's fields in words; the new routing number (record type 2) is [`new_number`].
pub fn ach_rows(a: &Value) -> Vec<Row> {
    let t = |k| text(a, k);
    let zip = f::zip(t("customerZip"), t("customerZipExt"));
    let l = words().ach_fields;
    vec![
        (l[0], or_not_given(t("customerName")), String::new()),
        (l[1], t("routingNumber").into(), String::new()),
        (l[2], f::office(t("officeCode")), t("officeCode").trim().into()),
        (l[3], f::record_type(t("recordTypeCode")), String::new()),
        (l[4], or_not_given(t("servicingFRBNumber")), String::new()),
        (l[5], or_not_given(t("customerAddress")), String::new()),
        (l[6], f::place(t("customerCity"), t("customerState"), &zip), String::new()),
        (l[7], f::phone(t("customerAreaCode"), t("customerPhonePrefix"), t("customerPhoneSuffix")), String::new()),
        (l[8], f::institution_status(t("institutionStatusCode")), String::new()),
        (l[9], f::data_view(t("dataViewCode")), String::new()),
        (l[10], f::ach_date(t("changeDate")), String::new()),
    ]
}

/// Record type 2: the number to use instead (`Some("")` when the record names none).
pub fn new_number(a: &Value) -> Option<String> {
    (text(a, "recordTypeCode").trim() == "2")
        .then(|| f::new_routing_number(text(a, "newRoutingNumber")).unwrap_or("").to_string())
}

pub fn wire_rows(w: &Value) -> Vec<Row> {
    let t = |k| text(w, k);
    let code = |k| t(k).trim().to_string();
    let l = words().wire_fields;
    vec![
        (l[0], or_not_given(t("customerName")), String::new()),
        (l[1], t("routingNumber").into(), String::new()),
        (l[2], or_not_given(t("telegraphicName")), String::new()),
        (l[3], f::place(t("customerCity"), t("customerState"), f::not_given()), String::new()),
        (l[4], f::funds_eligibility(t("fundsEligibility")), code("fundsEligibility")),
        (l[5], f::settlement_only(t("settlementOnly")), code("settlementOnly")),
        (l[6], f::securities_eligibility(t("securitiesEligibility")), code("securitiesEligibility")),
        (l[7], f::wire_date(t("changeDate")), String::new()),
    ]
}

fn field_list(testid: &'static str, rows: Vec<Row>, extra: Option<AnyView>) -> AnyView {
    let rows = rows
        .into_iter()
        .map(|(label, value, code)| {
            let code = (!code.is_empty()).then(|| view! { " " <code class="routing-code">{code}</code> });
            view! { <div class="routing-field"><dt>{label}</dt><dd>{value}{code}</dd></div> }
        })
        .collect_view();
    view! { <dl class="routing-fields" data-testid=testid>{rows}{extra}</dl> }.into_any()
}

fn ach_view(a: &Value) -> AnyView {
    // A plain link: the router handles same-origin clicks itself (no `<A>` code for one link).
    let base = use_context::<AppConfig>().unwrap_or_default();
    let w = words();
    let extra = new_number(a).map(|n| {
        let value = if n.is_empty() {
            f::not_given().into_any()
        } else {
            view! {
                <a href=base.href(&format!("/routing?number={n}")) class="routing-new-number">{n.clone()}</a>
                <span class="muted">{w.send_here}</span>
            }
            .into_any()
        };
        view! { <div class="routing-field"><dt>{w.new_routing_number}</dt><dd>{value}</dd></div> }.into_any()
    });
    field_list("ach-fields", ach_rows(a), extra)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Which {
    Ach,
    Wire,
}

fn not_listed(which: Which, number: &str, message: &str) -> AnyView {
    let w = words();
    let (i, testid) = match which {
        Which::Ach => (0, "ach-not-listed"),
        Which::Wire => (1, "wire-not-listed"),
    };
    let (title, consequence) = (w.not_listed[i], w.consequences[i]);
    view! {
        <div class="routing-calm" data-testid=testid>
            <p><strong>{title}</strong></p>
            <p class="muted">
                <code>{number.to_string()}</code> {w.not_listed_body}
                {consequence}
            </p>
            <p class="muted routing-server-says">{w.server} {message.to_string()}</p>
        </div>
    }
    .into_any()
}

#[component]
fn Record(which: Which, number: String) -> impl IntoView {
    let auth = use_auth();
    let owner = Owner::current();
    let answer = Loaded::new();
    let n = number.clone();
    // Created inside the component's owner: leaving the page (or the number) aborts it.
    let fetch = move || {
        let start = || match which {
            Which::Ach => ach(&auth.client(), &n),
            Which::Wire => wire(&auth.client(), &n),
        };
        answer.load(owner.as_ref().map(|o| o.with(start)).unwrap_or_else(start));
    };
    fetch();
    let retry = Callback::new(move |()| fetch());
    let w = words();
    let (title, testid) = match which {
        Which::Ach => (w.directories[0], "ach-record"),
        Which::Wire => (w.directories[1], "wire-record"),
    };
    view! {
        <section class="panel routing-record" data-testid=testid aria-label=title aria-live="polite">
            <h2>{title}</h2>
            {move || answer.with(|a| match a {
                None => view! { <Loading label=w.looking_up/> }.into_any(),
                Some(Ok(v)) if which == Which::Ach => ach_view(v),
                Some(Ok(v)) => field_list("wire-fields", wire_rows(v), None),
                Some(Err(ApiError::NotFound { message })) => not_listed(which, &number, message),
                Some(Err(e)) => view! { <ApiErrorView error=e.clone() retry/> }.into_any(),
            })}
        </section>
    }
}

/// Both records of a valid routing number.
#[component]
pub fn Records(number: String) -> impl IntoView {
    view! {
        <div class="routing-records">
            <Record which=Which::Ach number=number.clone()/>
            <Record which=Which::Wire number/>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use moneydesk_model::routing::{AchParticipant, WireParticipant};
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn ach_record(kind: &str, new: &str) -> Value {
        // Built from the model type, so the field names here are the contract's.
        serde_json::to_value(AchParticipant {
            routing_number: "073090995".into(),
            office_code: "O".into(),
            servicing_frb_number: "021090015".into(),
            record_type_code: kind.into(),
            change_date: "100125".into(),
            new_routing_number: new.into(),
            customer_name: "PRAIRIE STATE BANK & TRUST".into(),
            customer_address: "800 WALNUT ST".into(),
            customer_city: "DES MOINES".into(),
            customer_state: "IA".into(),
            customer_zip: "50309".into(),
            customer_zip_ext: "0001".into(),
            customer_area_code: "515".into(),
            customer_phone_prefix: "555".into(),
            customer_phone_suffix: "0199".into(),
            institution_status_code: "1".into(),
            data_view_code: "1".into(),
        })
        .unwrap()
    }

    fn value_of<'a>(rows: &'a [Row], label: &str) -> &'a str {
        rows.iter().find(|r| r.0 == label).map(|r| r.1.as_str()).unwrap_or_else(|| panic!("no {label}"))
    }

    #[wasm_bindgen_test]
    fn ach_fields_in_words() {
        let a = ach_record("2", "073090063");
        let rows = ach_rows(&a);
        assert_eq!(value_of(&rows, "Office"), "Main office");
        assert_eq!(value_of(&rows, "Servicing Federal Reserve office"), "021090015", "servicingFRBNumber is read");
        assert_eq!(value_of(&rows, "City, state, ZIP"), "DES MOINES, IA 50309-0001");
        assert_eq!(value_of(&rows, "Phone"), "(515) 555-0199");
        assert_eq!(value_of(&rows, "Last changed"), "Oct 1, 2025");
        assert!(value_of(&rows, "Record type").contains("new routing number"));
        assert_eq!(new_number(&a).as_deref(), Some("073090063"));
        assert_eq!(new_number(&ach_record("2", "000000000")).as_deref(), Some(""));
        assert_eq!(new_number(&ach_record("1", "000000000")), None);
    }

    #[wasm_bindgen_test]
    fn wire_fields_in_words() {
        let w = serde_json::to_value(WireParticipant {
            routing_number: "026090269".into(),
            telegraphic_name: "DEMO SETTLEMENT".into(),
            customer_name: "DEMO SETTLEMENT SERVICES".into(),
            customer_state: "NY".into(),
            customer_city: "NEW YORK".into(),
            funds_eligibility: "Y".into(),
            settlement_only: "S".into(),
            securities_eligibility: "N".into(),
            change_date: "".into(),
        })
        .unwrap();
        let rows = wire_rows(&w);
        assert_eq!(value_of(&rows, "City, state"), "NEW YORK, NY");
        assert!(value_of(&rows, "Settlement-only").starts_with("Settlement only"));
        assert!(value_of(&rows, "Funds transfers").starts_with("Eligible"));
        assert!(value_of(&rows, "Securities transfers").starts_with("Not eligible"));
        assert_eq!(value_of(&rows, "Last changed"), f::not_given());
    }
}
