//! Verify: one address with every check explained (the address lives in the URL:
//! `?tab=verify&address=…`, so a verification can be shared and Back returns to it), and a
//! list in bulk (verify_list.rs). The verdicts, checks and their labels are the model's.

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;
use moneydesk_model::email::validation::ValidationResult;

use super::parts::{outcome_label, verdict_badge};
use super::use_go;
use super::verify_list::VerifyList;
use crate::api::email as api;
use crate::api::request::Answer;
use crate::components::error_view::ApiErrorView;
use crate::session::use_auth;

#[component]
pub fn Verify() -> impl IntoView {
    let auth = use_auth();
    let query = use_query_map();
    let go = use_go();
    let address = Memo::new(move |_| query.with(|q| q.get_str("address").unwrap_or_default().trim().to_string()));
    let typed = RwSignal::new(address.get_untracked());
    let answer = Answer::<ValidationResult>::new();
    Effect::new(move |_| {
        let a = address.get();
        typed.set(a.clone());
        if !a.is_empty() {
            answer.load(api::verify(&auth.client(), &a));
        }
    });
    let verify = move |a: String| go.run(vec![("tab".into(), "verify".into()), ("address".into(), a)]);
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let a = typed.get_untracked().trim().to_string();
        if a == address.get_untracked() && !a.is_empty() {
            answer.load(api::verify(&auth.client(), &a)); // the same address again: ask again
        } else {
            verify(a);
        }
    };
    view! {
        <div class="email-verify">
            <form class="email-verify-one" on:submit=submit novalidate>
                <label for="verify-address">"Email address"</label>
                <div class="email-verify-row">
                    <input id="verify-address" type="text" inputmode="email" autocomplete="off" spellcheck="false"
                        placeholder="jane@bank.example"
                        prop:value=move || typed.get() on:input=move |ev| typed.set(event_target_value(&ev))/>
                    <button type="submit" class="primary" disabled=move || typed.with(|t| t.trim().is_empty())>"Verify"</button>
                </div>
            </form>
            <Show when=move || !address.with(String::is_empty)>
                {move || answer.with(|a| match a {
                    None => view! { <p class="muted" role="status">"Verifying…"</p> }.into_any(),
                    Some(Err(e)) => view! { <ApiErrorView error=e.clone()/> }.into_any(),
                    Some(Ok(r)) => view! { <VerificationCard result=r.clone() on_suggestion=Callback::new(verify)/> }.into_any(),
                })}
            </Show>
            <VerifyList/>
        </div>
    }
}

#[component]
fn VerificationCard(result: ValidationResult, on_suggestion: Callback<String>) -> impl IntoView {
    let suggestion = result.suggestion.clone();
    view! {
        <section class="email-verification" aria-labelledby="verification-title" id="verification">
            <h2 id="verification-title">
                <span class="verification-email">{result.email.clone()}</span>
                " "{verdict_badge(result.verdict)}
            </h2>
            <dl class="verification-facts">
                <dt>"Score"</dt><dd id="verification-score">{format!("{} / 100", result.score)}</dd>
                <dt>"Local part"</dt><dd>{result.local.clone().unwrap_or_else(|| "—".into())}</dd>
                <dt>"Domain"</dt><dd>{result.host.clone().unwrap_or_else(|| "—".into())}</dd>
            </dl>
            {suggestion.map(|s| {
                let again = s.clone();
                view! {
                    <p class="verification-suggestion">"Did you mean "<strong>{s.clone()}</strong>"? "
                        <button type="button" class="link-button" on:click=move |_| on_suggestion.run(again.clone())>"Verify it"</button>
                    </p>
                }
            })}
            <table class="email-table verification-checks">
                <caption>"Checks"</caption>
                <thead><tr><th scope="col">"Check"</th><th scope="col">"Result"</th><th scope="col">"What was found"</th></tr></thead>
                <tbody>
                    {result.checks.iter().map(|c| view! {
                        <tr data-check=c.name.as_str()>
                            <th scope="row">{c.name.label()}</th>
                            <td><span class=format!("badge outcome-{}", c.result.as_str())>{outcome_label(c.result)}</span></td>
                            <td>{c.detail.clone()}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
        </section>
    }
}
