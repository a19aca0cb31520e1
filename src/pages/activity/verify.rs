//! The chain's verification as a banner above the table: it holds (and how much it covered),
//! or the first broken link (its record, seq and why), and the records not chained yet. It
//! walks the days of the view's `from`/`to` filters, the server's default range without them.

use leptos::either::EitherOf3;
use leptos::prelude::*;
use moneydesk_model::audit::AuditVerification;

use super::state::{verdict, ActivityView};
use crate::api;
use crate::api::request::Answer;
use crate::components::error_view::ApiErrorView;
use crate::i18n::activity::text;
use crate::session::use_auth;

/// The banner's classes for a verdict's class.
fn banner_class(class: &str) -> String {
    format!("chain-banner chain-{class}")
}

#[component]
pub fn ChainStatus(view: Memo<ActivityView>) -> impl IntoView {
    let auth = use_auth();
    let answer = Answer::<AuditVerification>::new();
    let range = Memo::new(move |_| view.with(ActivityView::verify_range));
    let again = RwSignal::new(0u32);
    Effect::new(move |_| {
        again.track();
        let (from, to) = range.get();
        answer.load(api::audit::verify(&auth.client(), from.as_deref(), to.as_deref()));
    });
    let t = text();
    view! {
        <div class="audit-chain" data-testid="audit-chain">
            <div class="audit-chain-verdict" role="status">
                {move || answer.with(|a| match a {
                    None => EitherOf3::A(view! { <p class="muted">{t.verifying}</p> }),
                    Some(Err(e)) => EitherOf3::B(view! { <ApiErrorView error=e.clone()/> }),
                    Some(Ok(v)) => {
                        let (class, text) = verdict(v);
                        EitherOf3::C(view! {
                            <p class=banner_class(class) data-verdict=class>{text}</p>
                        })
                    }
                })}
            </div>
            <button type="button" class="button small" id="audit-verify-again"
                disabled=move || answer.with(Option::is_none)
                on:click=move |_| again.update(|n| *n += 1)>{t.verify_again}</button>
        </div>
    }
}
