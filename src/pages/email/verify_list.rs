//! Verify in bulk: addresses pasted (one a line, or separated by commas or spaces) or read
//! from a CSV or text file (its `email` column, else its first), up to 1000 a request; the
//! results as a table filtered by verdict, with the counts, exported as CSV.

use leptos::prelude::*;
use moneydesk_model::email::validation::{
    BulkValidationResult, CheckName, CheckOutcome, ValidationResult, Verdict, MAX_BULK_ADDRESSES,
};

use super::parts::{outcome_label, verdict_badge};
use crate::api::email as api;
use crate::api::request::submit;
use crate::api::ApiError;
use crate::components::download::{csv_cell, dated_name, save, CSV};
use crate::i18n::{email::text as words, fill, vocab::say};
use crate::session::use_auth;

/// The addresses in pasted text: split at new lines, commas, semicolons and spaces, blanks
/// and repeats dropped, in order.
pub fn addresses_in(text: &str) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    text.split(|c: char| c == '\n' || c == '\r' || c == ',' || c == ';' || c.is_whitespace())
        .map(|s| s.trim_matches(|c| c == '"' || c == '<' || c == '>').to_string())
        .filter(|s| !s.is_empty() && seen.insert(s.to_ascii_lowercase()))
        .collect()
}

/// The addresses of a file: a CSV's `email` column when it has one, else every cell that
/// holds an `@` (a plain list, one a line, is such a file too).
pub fn addresses_in_file(text: &str) -> Vec<String> {
    let mut reader =
        csv::ReaderBuilder::new().has_headers(false).flexible(true).trim(csv::Trim::All).from_reader(text.as_bytes());
    let rows: Vec<Vec<String>> =
        reader.records().filter_map(Result::ok).map(|r| r.iter().map(str::to_string).collect()).collect();
    let column = rows.first().and_then(|h| h.iter().position(|c| c.eq_ignore_ascii_case("email")));
    let cells: Vec<String> = match column {
        Some(c) => rows.iter().skip(1).filter_map(|r| r.get(c).cloned()).collect(),
        None => rows.into_iter().flatten().filter(|c| c.contains('@')).collect(),
    };
    addresses_in(&cells.join("\n"))
}

/// Why a result is what it is: the first check that did not pass, or the mail server's.
fn reason(r: &ValidationResult) -> String {
    let notable =
        r.checks.iter().find(|c| matches!(c.result, CheckOutcome::Fail | CheckOutcome::Warn | CheckOutcome::Unknown));
    notable.or_else(|| r.check(CheckName::MailServer)).map(|c| c.detail.clone()).unwrap_or_default()
}

/// The results as CSV: the address, verdict, score, domain, suggestion, each check's result,
/// and the reason.
pub fn results_csv(results: &[ValidationResult]) -> String {
    let mut header = vec!["email".to_string(), "verdict".into(), "score".into(), "domain".into(), "suggestion".into()];
    header.extend(CheckName::ALL.iter().map(|c| c.as_str().to_string()));
    header.push("reason".into());
    let mut out = header.join(",") + "\r\n";
    for r in results {
        let mut row = vec![
            csv_cell(&r.email),
            r.verdict.as_str().into(),
            r.score.to_string(),
            csv_cell(r.host.as_deref().unwrap_or("")),
            csv_cell(r.suggestion.as_deref().unwrap_or("")),
        ];
        row.extend(CheckName::ALL.iter().map(|n| r.check(*n).map(|c| c.result.as_str()).unwrap_or("").to_string()));
        row.push(csv_cell(&reason(r)));
        out += &(row.join(",") + "\r\n");
    }
    out
}

#[component]
pub fn VerifyList() -> impl IntoView {
    let auth = use_auth();
    let owner = Owner::current();
    let text = RwSignal::new(String::new());
    let busy = RwSignal::new(false);
    let problem = RwSignal::new(None::<String>);
    let results = RwSignal::new(None::<BulkValidationResult>);
    let shown = RwSignal::new(None::<Verdict>);
    let input = NodeRef::<leptos::html::Input>::new();
    let count = Memo::new(move |_| text.with(|t| addresses_in(t).len()));
    let t = &words().verify;
    let most = MAX_BULK_ADDRESSES.to_string();

    let run = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let emails = addresses_in(&text.get_untracked());
        if emails.is_empty() {
            problem.set(Some(t.nothing.into()));
            return;
        }
        if emails.len() > MAX_BULK_ADDRESSES {
            problem.set(Some(fill(t.too_many, &[&emails.len().to_string(), &MAX_BULK_ADDRESSES.to_string()])));
            return;
        }
        problem.set(None);
        submit(
            busy,
            &owner,
            || api::verify_all(&auth.client(), emails),
            move |r: Result<BulkValidationResult, ApiError>| match r {
                Ok(b) => {
                    shown.set(None);
                    results.set(Some(b));
                }
                Err(e) => problem.set(Some(e.to_string())),
            },
        );
    };
    let export = move |_| {
        let Some(b) = results.get_untracked() else { return };
        let parts = js_sys::Array::of1(&results_csv(&b.results).into());
        if let Err(e) = save(&parts, &dated_name("email-verification", "csv"), CSV) {
            problem.set(Some(fill(t.export_failed, &[&format!("{e:?}")])));
        }
    };

    view! {
        <form class="email-verify-list" on:submit=run novalidate>
            <h2>{t.list_heading}</h2>
            <label for="verify-list">{t.list_label}</label>
            <textarea id="verify-list" rows="6" spellcheck="false" prop:value=move || text.get()
                on:input=move |ev| text.set(event_target_value(&ev))></textarea>
            <div class="email-verify-row">
                <label for="verify-file">{t.file_label}</label>
                <input type="file" id="verify-file" accept=".csv,.txt,text/csv,text/plain" node_ref=input on:change=move |_| {
                    let Some(file) = input.get().and_then(|i| i.files()).and_then(|f| f.get(0)) else { return };
                    leptos::task::spawn_local(async move {
                        let name = file.name();
                        match super::attachments::text_of(file).await {
                            Some(read) => {
                                let found = addresses_in_file(&read);
                                problem.set(found.is_empty().then(|| fill(t.no_addresses, &[&name])));
                                text.set(found.join("\n"));
                            }
                            None => problem.set(Some(fill(t.unreadable, &[&name]))),
                        }
                    });
                }/>
            </div>
            <p class="muted" id="verify-list-count">{move || fill(t.count, &[&count.get().to_string(), &most])}</p>
            <p class="field-error" role="alert">{move || problem.get()}</p>
            <button type="submit" class="primary" disabled=move || busy.get()>{move || if busy.get() { t.verifying } else { t.verify_all }}</button>
        </form>
        {move || results.get().map(|b| {
            let counts = [(Verdict::Valid, b.valid), (Verdict::Risky, b.risky), (Verdict::Invalid, b.invalid), (Verdict::Unknown, b.unknown)];
            let all = b.results.len();
            let rows = b.results.clone();
            let c = &t.result_columns;
            view! {
                <section class="email-verify-results" aria-labelledby="verify-results-title">
                    <h2 id="verify-results-title">{fill(t.verified, &[&all.to_string(), &b.domains.to_string()])}</h2>
                    <div class="email-verify-row" role="group" aria-label=t.show>
                        <button type="button" class="chip" aria-pressed=move || shown.get().is_none().to_string() on:click=move |_| shown.set(None)>{fill(t.all, &[&all.to_string()])}</button>
                        {counts.into_iter().map(|(v, n)| view! {
                            <button type="button" class="chip" id=format!("verify-show-{}", v.as_str())
                                aria-pressed=move || (shown.get() == Some(v)).to_string() on:click=move |_| shown.set(Some(v))>{format!("{} {}", say(v.label()), n)}</button>
                        }).collect_view()}
                        <button type="button" class="secondary" on:click=export>{t.export}</button>
                    </div>
                    <table class="email-table" id="verify-results">
                        <thead><tr>
                            <th scope="col">{c[0]}</th><th scope="col">{c[1]}</th><th scope="col">{c[2]}</th>
                            <th scope="col">{c[3]}</th><th scope="col">{c[4]}</th>
                        </tr></thead>
                        <tbody>
                            {move || {
                                let only = shown.get();
                                rows.iter().filter(|r| match only { Some(v) => r.verdict == v, None => true }).map(|r| view! {
                                    <tr>
                                        <td>{r.email.clone()}</td>
                                        <td>{verdict_badge(r.verdict)}</td>
                                        <td>{r.score}</td>
                                        <td>{r.suggestion.clone().unwrap_or_default()}</td>
                                        <td title=outcome_label(r.check(CheckName::MailServer).map(|c| c.result).unwrap_or(CheckOutcome::Skipped))>{reason(r)}</td>
                                    </tr>
                                }).collect_view()
                            }}
                        </tbody>
                    </table>
                </section>
            }
        })}
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn pasted_addresses_are_split_and_deduplicated() {
        assert_eq!(
            addresses_in("a@x.example, b@x.example\nA@X.example;  c@x.example\n\n\"d@x.example\""),
            ["a@x.example", "b@x.example", "c@x.example", "d@x.example"]
        );
    }

    #[wasm_bindgen_test]
    fn a_csv_gives_its_email_column_and_a_plain_list_its_addresses() {
        assert_eq!(
            addresses_in_file("name,Email\nAda,ada@x.example\n\"Lovelace, A\",al@x.example\n"),
            ["ada@x.example", "al@x.example"]
        );
        assert_eq!(addresses_in_file("ada@x.example\nnot one\nbob@x.example\n"), ["ada@x.example", "bob@x.example"]);
    }

    #[wasm_bindgen_test]
    fn the_export_has_a_column_per_check_and_defuses_formulas() {
        let r = ValidationResult {
            email: "=cmd@x.example".into(),
            verdict: Verdict::Invalid,
            score: 0,
            local: None,
            host: Some("x.example".into()),
            suggestion: None,
            checks: vec![],
        };
        let csv = results_csv(&[r]);
        let mut lines = csv.lines();
        assert_eq!(
            lines.next(),
            Some("email,verdict,score,domain,suggestion,syntax,mail_server,disposable,role,typo,reason")
        );
        assert!(lines.next().unwrap().starts_with("'=cmd@x.example,invalid,0,x.example,"));
    }
}
