//! One routing number's FedACH and Fedwire records, side by side, each field in words.
//! "Not in the directory" (404) is a calm answer, not an error.

use leptos::prelude::*;
use leptos_router::components::A;
use moneydesk_model::routing::{AchParticipant, WireParticipant};

use super::format as f;
use crate::api::routing::{ach, wire, Lookup};
use crate::api::ApiError;
use crate::components::error_view::ApiErrorView;
use crate::components::loading::Loading;
use crate::session::use_auth;

/// A labelled field: `<dt>` meaning, `<dd>` value (the raw code beside it when there is one).
fn field(label: &'static str, value: impl IntoView + 'static) -> impl IntoView {
    view! { <div class="routing-field"><dt>{label}</dt><dd>{value}</dd></div> }
}

fn coded(text: String, code: &str) -> impl IntoView {
    let code = code.trim().to_string();
    view! { {text} {(!code.is_empty()).then(|| view! { " " <code class="routing-code">{code}</code> })} }
}

fn ach_fields(a: AchParticipant) -> AnyView {
    let new_number = (a.record_type_code.trim() == "2").then(|| f::new_routing_number(&a.new_routing_number).map(str::to_string));
    let zip = f::zip(&a.customer_zip, &a.customer_zip_ext);
    view! {
        <dl class="routing-fields" data-testid="ach-fields">
            {field("Institution", a.customer_name.clone())}
            {field("Routing number", view! { <code>{a.routing_number.clone()}</code> })}
            {field("Office", coded(f::office(&a.office_code), &a.office_code))}
            {field("Record type", f::record_type(&a.record_type_code))}
            {new_number.map(|n| field("New routing number", match n {
                Some(n) => view! {
                    <A href=format!("/routing?number={n}") attr:class="routing-new-number">{n.clone()}</A>
                    <span class="muted">" — send ACH entries here instead"</span>
                }.into_any(),
                None => f::NOT_GIVEN.into_any(),
            }))}
            {field("Servicing Federal Reserve office", view! { <code>{a.servicing_frb_number.clone()}</code> })}
            {field("Address", if a.customer_address.trim().is_empty() { f::NOT_GIVEN.to_string() } else { a.customer_address.clone() })}
            {field("City, state, ZIP", f::place(&a.customer_city, &a.customer_state, &zip))}
            {field("Phone", f::phone(&a.customer_area_code, &a.customer_phone_prefix, &a.customer_phone_suffix))}
            {field("ACH participation", f::institution_status(&a.institution_status_code))}
            {field("Data view", f::data_view(&a.data_view_code))}
            {field("Last changed", f::ach_date(&a.change_date))}
        </dl>
    }
    .into_any()
}

fn wire_fields(w: WireParticipant) -> AnyView {
    view! {
        <dl class="routing-fields" data-testid="wire-fields">
            {field("Institution", w.customer_name.clone())}
            {field("Routing number", view! { <code>{w.routing_number.clone()}</code> })}
            {field("Telegraphic name", if w.telegraphic_name.trim().is_empty() { f::NOT_GIVEN.to_string() } else { w.telegraphic_name.clone() })}
            {field("City, state", f::place(&w.customer_city, &w.customer_state, f::NOT_GIVEN))}
            {field("Funds transfers", coded(f::funds_eligibility(&w.funds_eligibility), &w.funds_eligibility))}
            {field("Settlement-only", coded(f::settlement_only(&w.settlement_only), &w.settlement_only))}
            {field("Securities transfers", coded(f::securities_eligibility(&w.securities_eligibility), &w.securities_eligibility))}
            {field("Last changed", f::wire_date(&w.change_date))}
        </dl>
    }
    .into_any()
}

#[derive(Clone)]
enum Answer {
    Ach(AchParticipant),
    Wire(WireParticipant),
}

#[derive(Clone, Copy)]
enum Which {
    Ach,
    Wire,
}

fn not_listed(which: Which, number: &str, message: String) -> AnyView {
    let (title, testid, consequence) = match which {
        Which::Ach => ("Not in the ACH directory", "ach-not-listed", "ACH entries sent to it would be returned."),
        Which::Wire => ("Not in the wire directory", "wire-not-listed", "Fedwire funds transfers cannot be sent to it."),
    };
    view! {
        <div class="routing-calm" data-testid=testid>
            <p><strong>{title}</strong></p>
            <p class="muted">
                <code>{number.to_string()}</code> " has a valid checksum, but the directory lists no institution under it. "
                {consequence}
            </p>
            <p class="muted routing-server-says">"Server: " {message}</p>
        </div>
    }
    .into_any()
}

#[component]
fn Record(which: Which, number: String) -> impl IntoView {
    let auth = use_auth();
    let n = number.clone();
    let answer = LocalResource::new(move || {
        let client = auth.client();
        let n = n.clone();
        async move {
            Ok::<_, ApiError>(match which {
                Which::Ach => match ach(&client, &n).await? {
                    Lookup::Found(a) => Lookup::Found(Answer::Ach(a)),
                    Lookup::NotListed(m) => Lookup::NotListed(m),
                },
                Which::Wire => match wire(&client, &n).await? {
                    Lookup::Found(w) => Lookup::Found(Answer::Wire(w)),
                    Lookup::NotListed(m) => Lookup::NotListed(m),
                },
            })
        }
    });
    let retry = Callback::new(move |()| answer.refetch());
    let (title, testid) = match which {
        Which::Ach => ("FedACH directory", "ach-record"),
        Which::Wire => ("Fedwire Funds directory", "wire-record"),
    };
    view! {
        <section class="panel routing-record" data-testid=testid aria-label=title aria-live="polite">
            <h2>{title}</h2>
            <Transition fallback=|| view! { <Loading label="Looking it up…"/> }>
                {move || {
                    let number = number.clone();
                    Suspend::new(async move {
                        match answer.await {
                            Ok(Lookup::Found(Answer::Ach(a))) => ach_fields(a),
                            Ok(Lookup::Found(Answer::Wire(w))) => wire_fields(w),
                            Ok(Lookup::NotListed(message)) => not_listed(which, &number, message),
                            Err(error) => view! { <ApiErrorView error retry/> }.into_any(),
                        }
                    })
                }}
            </Transition>
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
