//! Suppressions: a sender domain's suppression list (the addresses its mail no longer goes to,
//! and why), filtered by reason and address prefix, paged; manual entries added (a list of
//! addresses, optionally for one category) and, by an administrator, removed. The domain, the
//! filters and the page live in the URL (`?tab=suppressions&domain=…&reason=…&prefix=…`);
//! with no domain named, the first sender identity's.

use leptos::prelude::*;
use leptos_router::hooks::use_query_map;
use leptos_router::params::ParamsMap;
use moneydesk_model::email::suppressions::{NewSuppression, NewSuppressions, Suppression, SuppressionReason};
use moneydesk_model::email::SenderIdentity;
use moneydesk_model::{Page, Scope};

use super::parts::when;
use super::use_go;
use crate::api::email as api;
use crate::api::request::{submit, Answer};
use crate::api::ApiError;
use crate::components::error_view::ApiErrorView;
use crate::format::group;
use crate::i18n::{email::text as words, fill, vocab::say};
use crate::session::use_auth;

/// The list's place as the URL holds it.
#[derive(Clone, Debug, Default, PartialEq)]
struct Place {
    domain: String,
    reasons: Vec<SuppressionReason>,
    prefix: String,
    page: u32,
}

impl Place {
    fn from_query(q: &ParamsMap) -> Place {
        Place {
            domain: q.get_str("domain").unwrap_or_default().trim().to_string(),
            reasons: q
                .get_all("reason")
                .unwrap_or_default()
                .iter()
                .filter_map(|r| SuppressionReason::parse(r))
                .collect(),
            prefix: q.get_str("prefix").unwrap_or_default().to_string(),
            page: q.get_str("page").and_then(|p| p.parse().ok()).filter(|p| *p >= 1).unwrap_or(1),
        }
    }

    fn pairs(&self) -> Vec<(String, String)> {
        let mut p = vec![("tab".to_string(), "suppressions".to_string()), ("domain".into(), self.domain.clone())];
        p.extend(self.reasons.iter().map(|r| ("reason".to_string(), r.as_str().to_string())));
        p.push(("prefix".into(), self.prefix.clone()));
        if self.page > 1 {
            p.push(("page".into(), self.page.to_string()));
        }
        p
    }

    fn filters(&self) -> Vec<(String, String)> {
        let mut f: Vec<(String, String)> = self.reasons.iter().map(|r| ("reason".into(), r.as_str().into())).collect();
        if !self.prefix.is_empty() {
            f.push(("prefix".into(), self.prefix.clone()));
        }
        f.push(("page".into(), self.page.to_string()));
        f.push(("size".into(), "25".into()));
        f
    }
}

/// The domain of the first sender identity (`ops@bank.example`, `@bank.example`).
fn first_domain(senders: &[SenderIdentity]) -> String {
    senders.first().and_then(|s| s.address.rsplit_once('@')).map(|(_, d)| d.to_string()).unwrap_or_default()
}

/// The addresses typed: one a line, or separated by commas, semicolons or spaces.
fn addresses(typed: &str) -> Vec<String> {
    typed
        .split(|c: char| c == ',' || c == ';' || c.is_whitespace())
        .filter(|a| !a.is_empty())
        .map(str::to_string)
        .collect()
}

#[component]
pub fn Suppressions() -> impl IntoView {
    let auth = use_auth();
    let query = use_query_map();
    let go = use_go();
    let place = Memo::new(move |_| query.with(Place::from_query));
    let senders = Answer::<Vec<SenderIdentity>>::new();
    senders.load(api::senders(&auth.client()));
    let domain = Memo::new(move |_| {
        let named = place.with(|p| p.domain.clone());
        if named.is_empty() {
            senders.with(|s| s.as_ref().and_then(|s| s.as_ref().ok()).map(|s| first_domain(s)).unwrap_or_default())
        } else {
            named
        }
    });
    let list = Answer::<Page<Suppression>>::new();
    let tick = RwSignal::new(0u32);
    Effect::new(move |_| {
        tick.track();
        let d = domain.get();
        if !d.is_empty() {
            list.load(api::suppressions(&auth.client(), &d, &place.with(Place::filters)));
        }
    });
    let said = RwSignal::new(None::<String>);
    let move_to = Callback::new(move |f: Box<dyn Fn(&mut Place)>| {
        let mut p = place.get_untracked();
        p.domain = domain.get_untracked();
        f(&mut p);
        go.run(p.pairs());
    });
    view! {
        <div class="email-suppressions">
            <Filters place domain move_to/>
            <Add domain tick said/>
            <p class="muted" role="status" id="suppressions-said">{move || said.get()}</p>
            <List list tick said domain move_to/>
        </div>
    }
}

/// The domain and the prefix (on submit), the reasons (at once).
#[component]
fn Filters(place: Memo<Place>, domain: Memo<String>, move_to: Callback<Box<dyn Fn(&mut Place)>>) -> impl IntoView {
    let t = &words().suppressions;
    let typed_domain = RwSignal::new(String::new());
    let typed_prefix = RwSignal::new(String::new());
    Effect::new(move |_| typed_domain.set(domain.get()));
    Effect::new(move |_| typed_prefix.set(place.with(|p| p.prefix.clone())));
    view! {
        <form class="email-filters" role="search" on:submit=move |ev| {
            ev.prevent_default();
            let (d, p) = (typed_domain.get_untracked().trim().to_string(), typed_prefix.get_untracked());
            move_to.run(Box::new(move |pl| { pl.domain = d.clone(); pl.prefix = p.clone(); pl.page = 1; }));
        }>
            <label for="suppressions-domain">{t.domain}</label>
            <input id="suppressions-domain" type="text" spellcheck="false" prop:value=move || typed_domain.get()
                on:input=move |ev| typed_domain.set(event_target_value(&ev))/>
            <fieldset>
                <legend>{t.reason}</legend>
                {SuppressionReason::ALL.into_iter().map(|r| {
                    let (id, for_id) = (format!("suppressions-reason-{}", r.as_str()), format!("suppressions-reason-{}", r.as_str()));
                    view! {
                        <label for=for_id>
                            <input type="checkbox" id=id prop:checked=move || place.with(|p| p.reasons.contains(&r))
                                on:change=move |_| move_to.run(Box::new(move |p| {
                                    if let Some(i) = p.reasons.iter().position(|x| *x == r) { p.reasons.remove(i); } else { p.reasons.push(r); }
                                    p.page = 1;
                                }))/>
                            {format!(" {}", say(r.label()))}
                        </label>
                    }
                }).collect_view()}
            </fieldset>
            <label for="suppressions-prefix">{t.prefix}</label>
            <input id="suppressions-prefix" type="search" placeholder=t.prefix_hint prop:value=move || typed_prefix.get()
                on:input=move |ev| typed_prefix.set(event_target_value(&ev))/>
            <button type="submit" class="button">{t.show}</button>
        </form>
    }
}

/// Manual entries: the addresses typed, for every send or one category.
#[component]
fn Add(domain: Memo<String>, tick: RwSignal<u32>, said: RwSignal<Option<String>>) -> impl IntoView {
    let auth = use_auth();
    let owner = Owner::current();
    let t = &words().suppressions;
    let (typed, category, busy, problem) = (
        RwSignal::new(String::new()),
        RwSignal::new(String::new()),
        RwSignal::new(false),
        RwSignal::new(None::<String>),
    );
    let add = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let c = Some(category.get_untracked().trim().to_string()).filter(|c| !c.is_empty());
        let entries: Vec<NewSuppression> = addresses(&typed.get_untracked())
            .into_iter()
            .map(|email| NewSuppression { email, category: c.clone() })
            .collect();
        if entries.is_empty() {
            problem.set(Some(t.type_addresses.into()));
            return;
        }
        let (d, new) = (domain.get_untracked(), NewSuppressions { entries });
        submit(
            busy,
            &owner,
            || api::add_suppressions(&auth.client(), &d, &new),
            move |r: Result<Vec<Suppression>, ApiError>| match r {
                Ok(added) => {
                    problem.set(None);
                    typed.set(String::new());
                    said.set(Some(fill(t.added, &[&added.len().to_string()])));
                    tick.update(|n| *n += 1);
                }
                Err(e) => problem.set(Some(e.to_string())),
            },
        );
    };
    view! {
        <form class="email-suppression-new" on:submit=add novalidate>
            <fieldset>
                <legend>{t.add_legend}</legend>
                <label for="suppressions-addresses">{t.addresses}</label>
                <textarea id="suppressions-addresses" rows="3" spellcheck="false" placeholder=t.addresses_hint
                    prop:value=move || typed.get() on:input=move |ev| typed.set(event_target_value(&ev))></textarea>
                <label for="suppressions-category">{t.category}</label>
                <input id="suppressions-category" type="text" placeholder=t.category_hint prop:value=move || category.get()
                    on:input=move |ev| category.set(event_target_value(&ev))/>
                <button type="submit" class="button primary" id="suppressions-add" disabled=move || busy.get()>{t.add}</button>
                <p class="field-error" role="alert">{move || problem.get()}</p>
            </fieldset>
        </form>
    }
}

/// The page of entries (each removable by an administrator) and the pager.
#[component]
fn List(
    list: Answer<Page<Suppression>>,
    tick: RwSignal<u32>,
    said: RwSignal<Option<String>>,
    domain: Memo<String>,
    move_to: Callback<Box<dyn Fn(&mut Place)>>,
) -> impl IntoView {
    let auth = use_auth();
    let owner = Owner::current();
    let busy = RwSignal::new(false);
    let (all, t) = (words(), &words().suppressions);
    let admin = move || auth.may(Scope::Admin) == Some(true);
    let remove = move |s: Suppression| {
        let d = domain.get_untracked();
        submit(
            busy,
            &owner,
            || api::remove_suppression(&auth.client(), &d, &s.id),
            move |r: Result<(), ApiError>| {
                said.set(Some(match r {
                    Ok(()) => fill(t.removed, &[&s.email]),
                    Err(e) => e.to_string(),
                }));
                tick.update(|n| *n += 1);
            },
        );
    };
    let remove = StoredValue::new(remove);
    move || {
        list.with(|l| match l {
            None => view! { <p class="muted" aria-busy="true">{all.loading}</p> }.into_any(),
            Some(Err(e)) => view! { <ApiErrorView error=e.clone()/> }.into_any(),
            Some(Ok(shown)) if shown.content.is_empty() => view! { <p class="muted" id="suppressions-empty">{t.none}</p> }.into_any(),
            Some(Ok(shown)) => {
                let (number, total, last) = (shown.number + 1, shown.total_elements, shown.last);
                let c = &t.columns;
                view! {
                    <table class="table email-table" id="suppressions-table">
                        <caption class="sr-only">{t.caption}</caption>
                        <thead><tr>
                            <th scope="col">{c[0]}</th><th scope="col">{c[1]}</th><th scope="col">{c[2]}</th>
                            <th scope="col">{c[3]}</th><th scope="col">{c[4]}</th>
                            {admin().then(|| view! { <th scope="col"><span class="sr-only">{c[5]}</span></th> })}
                        </tr></thead>
                        <tbody>
                            {shown.content.iter().map(|s| {
                                let entry = s.clone();
                                let label = fill(t.remove, &[&s.email]);
                                view! {
                                    <tr data-id=s.id.clone()>
                                        <td>{s.email.clone()}</td>
                                        <td>{say(s.reason.label())}</td>
                                        <td>{s.category.clone().unwrap_or_else(|| t.every_send.into())}</td>
                                        <td class="muted">{s.source.clone()}</td>
                                        <td>{when(&s.created_at)}</td>
                                        {admin().then(|| view! {
                                            <td><button type="button" class="button suppression-remove" aria-label=label
                                                disabled=move || busy.get() on:click=move |_| remove.with_value(|r| r(entry.clone()))>{c[5]}</button></td>
                                        })}
                                    </tr>
                                }
                            }).collect_view()}
                        </tbody>
                    </table>
                    <nav class="pager" aria-label=all.outbox.pages>
                        <button type="button" class="button" disabled=number <= 1
                            on:click=move |_| move_to.run(Box::new(|p| p.page -= 1))>{all.previous}</button>
                        <span>{fill(t.page_total, &[&number.to_string(), &group(total)])}</span>
                        <button type="button" class="button" disabled=last
                            on:click=move |_| move_to.run(Box::new(|p| p.page += 1))>{all.next}</button>
                    </nav>
                }.into_any()
            }
        })
    }
}
