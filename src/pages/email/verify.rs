//! Verify: one address with every check explained (the address lives in the URL:
//! `?tab=verify&address=…`, so a verification can be shared and Back returns to it), and a
//! list in bulk (verify_list.rs). The verdicts, checks and their labels are the model's.

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;
use moneydesk_model::email::validation::ValidationResult;

use super::parts::{outcome_class, outcome_label, verdict_badge};
use super::use_go;
use super::verify_list::VerifyList;
use crate::api::email as api;
use crate::api::request::Answer;
use crate::components::error_view::ApiErrorView;
use crate::i18n::email::text;
use crate::i18n::vocab::say;
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
    let t = &text().verify;
    view! {
        <div class="email-verify">
            <form class="email-verify-one" on:submit=submit novalidate>
                <label for="verify-address">{t.address}</label>
                <div class="email-verify-row">
                    <input id="verify-address" type="text" inputmode="email" autocomplete="off" spellcheck="false"
                        placeholder=t.example
                        prop:value=move || typed.get() on:input=move |ev| typed.set(event_target_value(&ev))/>
                    <button type="submit" class="primary" disabled=move || typed.with(|a| a.trim().is_empty())>{t.verify}</button>
                </div>
            </form>
            <Show when=move || !address.with(String::is_empty)>
                {move || answer.with(|a| match a {
                    None => view! { <p class="muted" role="status">{t.verifying}</p> }.into_any(),
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
    let t = &text().verify;
    let c = &t.check_columns;
    view! {
        <section class="email-verification" aria-labelledby="verification-title" id="verification">
            <h2 id="verification-title">
                <span class="verification-email">{result.email.clone()}</span>
                " "{verdict_badge(result.verdict)}
            </h2>
            <dl class="verification-facts">
                <dt>{t.score}</dt><dd id="verification-score">{format!("{} / 100", result.score)}</dd>
                <dt>{t.local}</dt><dd>{result.local.clone().unwrap_or_else(|| "—".into())}</dd>
                <dt>{t.domain}</dt><dd>{result.host.clone().unwrap_or_else(|| "—".into())}</dd>
            </dl>
            {suggestion.map(|s| {
                let again = s.clone();
                view! {
                    <p class="verification-suggestion">{t.did_you_mean.0}<strong>{s.clone()}</strong>{t.did_you_mean.1}
                        <button type="button" class="link-button" on:click=move |_| on_suggestion.run(again.clone())>{t.verify_it}</button>
                    </p>
                }
            })}
            <table class="email-table verification-checks">
                <caption>{t.checks}</caption>
                <thead><tr><th scope="col">{c[0]}</th><th scope="col">{c[1]}</th><th scope="col">{c[2]}</th></tr></thead>
                <tbody>
                    {result.checks.iter().map(|c| view! {
                        <tr data-check=c.name.as_str()>
                            <th scope="row">{say(c.name.label())}</th>
                            <td><span class=outcome_class(c.result)>{outcome_label(c.result)}</span></td>
                            <td>{c.detail.clone()}</td>
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
        </section>
    }
}
