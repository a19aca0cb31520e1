//! Bulk from a CSV: one personalization per row. An `email` column (and an optional `name`)
//! makes the recipient; the template's variables are taken from columns, same-named by
//! default and mapped otherwise. Shows the count and the column mapping; bulk_preview.rs
//! shows the first rows as they will be sent.

use leptos::prelude::*;
use moneydesk_model::email::{Mailbox, Personalization};
use serde_json::{Map, Value};

use crate::i18n::{email::text as words, fill};

/// A CSV read: its columns and rows (cells by column).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sheet {
    pub name: String,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl Sheet {
    /// Parses CSV text (quoted fields, commas and new lines inside quotes) with a header row.
    pub fn parse(name: &str, text: &str) -> Result<Sheet, String> {
        let mut reader = csv::ReaderBuilder::new().flexible(true).trim(csv::Trim::All).from_reader(text.as_bytes());
        let columns: Vec<String> = reader.headers().map_err(|e| e.to_string())?.iter().map(str::to_string).collect();
        if !columns.iter().any(|c| c.eq_ignore_ascii_case("email")) {
            return Err(fill(words().compose.no_email_column, &[name, &columns.join(", ")]));
        }
        let mut rows = Vec::new();
        for (i, r) in reader.records().enumerate() {
            let r = r.map_err(|e| fill(words().compose.row_error, &[&(i + 2).to_string(), &e.to_string()]))?;
            if r.iter().all(str::is_empty) {
                continue;
            }
            rows.push(r.iter().map(str::to_string).collect());
        }
        Ok(Sheet { name: name.to_string(), columns, rows })
    }

    fn column(&self, name: &str) -> Option<usize> {
        self.columns.iter().position(|c| c.eq_ignore_ascii_case(name))
    }

    /// Row `i`'s recipient: (email, name).
    pub fn recipient(&self, i: usize) -> (String, Option<String>) {
        let cell = |c: Option<usize>| c.and_then(|c| self.rows[i].get(c)).cloned().filter(|s| !s.is_empty());
        (cell(self.column("email")).unwrap_or_default(), cell(self.column("name")))
    }

    /// Row `i`'s template data: each variable from its mapped column. A row too short to have
    /// the column lacks the variable (the server then names it) rather than sending a blank;
    /// an empty cell is an empty value.
    pub fn data(&self, i: usize, mapping: &[(String, Option<String>)]) -> Map<String, Value> {
        mapping
            .iter()
            .filter_map(|(var, col)| {
                let c = self.column(col.as_deref()?)?;
                Some((var.clone(), Value::String(self.rows[i].get(c)?.clone())))
            })
            .collect()
    }

    /// Row `i` as the send carries it: its recipient and, with a template, its data. The send
    /// and the preview both build rows here, so the preview shows what is sent.
    pub fn personalization(&self, i: usize, mapping: &[(String, Option<String>)], templated: bool) -> Personalization {
        let (email, name) = self.recipient(i);
        Personalization {
            to: vec![Mailbox { email, name }],
            dynamic_template_data: templated.then(|| self.data(i, mapping)),
            ..Default::default()
        }
    }
}

/// The default mapping: each variable from the column of its name, if there is one.
pub fn default_mapping(variables: &[String], sheet: &Sheet) -> Vec<(String, Option<String>)> {
    variables.iter().map(|v| (v.clone(), sheet.column(v).map(|c| sheet.columns[c].clone()))).collect()
}

#[component]
pub fn BulkPicker(
    sheet: RwSignal<Option<Sheet>>,
    mapping: RwSignal<Vec<(String, Option<String>)>>,
    variables: Signal<Vec<String>>,
) -> impl IntoView {
    let input = NodeRef::<leptos::html::Input>::new();
    let error = RwSignal::new(None::<String>);
    Effect::new(move |_| {
        let vars = variables.get();
        if let Some(s) = sheet.get() {
            mapping.set(default_mapping(&vars, &s));
        }
    });
    let t = &words().compose;
    view! {
        <fieldset class="email-bulk">
            <legend>{t.bulk_legend}</legend>
            <label for="email-csv">{t.csv_label}</label>
            <input type="file" id="email-csv" accept=".csv,text/csv" node_ref=input on:change=move |_| {
                let Some(file) = input.get().and_then(|i| i.files()).and_then(|f| f.get(0)) else { return };
                leptos::task::spawn_local(async move {
                    let name = file.name();
                    match super::attachments::text_of(file).await.map(|t| Sheet::parse(&name, &t)) {
                        Some(Ok(s)) => { error.set(None); sheet.set(Some(s)); }
                        Some(Err(e)) => { error.set(Some(e)); sheet.set(None); }
                        None => error.set(Some(fill(words().verify.unreadable, &[&name]))),
                    }
                });
            }/>
            <p class="field-error" role="alert">{move || error.get()}</p>
            {move || sheet.get().map(|s| {
                let columns = s.columns.clone();
                view! {
                    <p id="email-bulk-count">{fill(t.bulk_count, &[&s.rows.len().to_string(), &s.name])}</p>
                    <button type="button" class="link-button" on:click=move |_| { sheet.set(None); if let Some(i) = input.get() { i.set_value(""); } }>{t.remove_csv}</button>
                    <table class="email-mapping">
                        <caption>{t.mapping_caption}</caption>
                        <thead><tr><th scope="col">{t.mapping_columns[0]}</th><th scope="col">{t.mapping_columns[1]}</th></tr></thead>
                        <tbody>
                            {move || mapping.get().into_iter().enumerate().map(|(i, (var, col))| {
                                let columns = columns.clone();
                                let id = format!("email-map-{i}");
                                view! {
                                    <tr>
                                        <td><label for=format!("{id}")>{var.clone()}</label></td>
                                        <td><select id=id on:change=move |ev| {
                                            let v = event_target_value(&ev);
                                            mapping.update(|m| if let Some(x) = m.get_mut(i) { x.1 = (!v.is_empty()).then_some(v); });
                                        }>
                                            <option value="" selected=col.is_none()>{t.none_option}</option>
                                            {columns.into_iter().map(|c| {
                                                let selected = col.as_deref() == Some(c.as_str());
                                                view! { <option value=c.clone() selected=selected>{c.clone()}</option> }
                                            }).collect_view()}
                                        </select></td>
                                    </tr>
                                }
                            }).collect_view()}
                        </tbody>
                    </table>
                }
            })}
        </fieldset>
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn a_row_becomes_its_recipient_and_its_mapped_data_and_a_short_row_lacks_the_variable() {
        let s = Sheet::parse(
            "c.csv",
            "Email,name,first\nada@x.example,\"Lovelace, Ada\",Ada\nbob@x.example,,\ncy@x.example\n",
        )
        .unwrap();
        let mapping = vec![("first_name".to_string(), Some("first".to_string())), ("unmapped".to_string(), None)];
        let ada = s.personalization(0, &mapping, true);
        assert_eq!(ada.to, [Mailbox { email: "ada@x.example".into(), name: Some("Lovelace, Ada".into()) }]);
        assert_eq!(
            ada.dynamic_template_data.unwrap(),
            serde_json::json!({"first_name": "Ada"}).as_object().unwrap().clone()
        );
        // An empty cell is an empty value; a missing cell, a missing variable.
        assert_eq!(
            s.personalization(1, &mapping, true).dynamic_template_data.unwrap(),
            serde_json::json!({"first_name": ""}).as_object().unwrap().clone()
        );
        assert!(s.personalization(2, &mapping, true).dynamic_template_data.unwrap().is_empty());
        assert_eq!(s.personalization(2, &mapping, false).dynamic_template_data, None);
    }
}
