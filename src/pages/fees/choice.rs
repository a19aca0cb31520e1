//! What the page shows, as the URL holds it (`Choice`: the transfer type and the amount), and
//! the changes made to it, as pure functions: a rail picked, a transfer type, an amount typed,
//! a payer named.

use moneydesk_model::fees::{Rail, TransferType};

use super::amount::{dollars, tidy};
use crate::i18n::fees::text;
use crate::i18n::fill;

/// The page's URL state: `/fees?rail=wire&type=DOMESTIC_WIRE&amount=1250.00&payer=acme`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    pub transfer_type: TransferType,
    pub amount: Option<String>,
    /// The payerId to quote for (its waiver or its own schedule), when one is given.
    pub payer: Option<String>,
}

/// The choice the query names; a rail or a type it does not know falls back to ACH and the
/// rail's first type, an amount that is not one to none, a blank payer to none.
pub fn choice_from(rail: Option<&str>, t: Option<&str>, amount: Option<&str>, payer: Option<&str>) -> Choice {
    let rail = rail.and_then(Rail::parse).unwrap_or(Rail::Ach);
    let transfer_type =
        t.and_then(TransferType::parse).filter(|t| t.rail() == rail).unwrap_or(rail.transfer_types()[0]);
    let amount = amount.map(tidy).and_then(|t| t.amount);
    Choice { transfer_type, amount, payer: payer_of(payer.unwrap_or("")) }
}

/// A payer as typed: spaces around it dropped (the API refuses them), blank is none.
pub fn payer_of(typed: &str) -> Option<String> {
    Some(typed.trim()).filter(|p| !p.is_empty()).map(str::to_string)
}

pub fn href(c: &Choice) -> String {
    let rail = c.transfer_type.rail();
    let mut q = format!("/fees?rail={}&type={}", rail, c.transfer_type);
    if let Some(a) = &c.amount {
        q.push_str(&format!("&amount={a}"));
    }
    if let Some(p) = &c.payer {
        let encoded: String = js_sys::encode_uri_component(p).into();
        q.push_str(&format!("&payer={encoded}"));
    }
    q
}

impl Choice {
    /// Another rail picked: its first transfer type, the amount kept; `None` when it is the
    /// rail shown.
    pub fn with_rail(&self, rail: Rail) -> Option<Choice> {
        (self.transfer_type.rail() != rail).then(|| Choice { transfer_type: rail.transfer_types()[0], ..self.clone() })
    }

    /// An amount typed (as the API takes it); `None` when it is the amount shown.
    pub fn with_amount(&self, amount: Option<String>) -> Option<Choice> {
        (amount != self.amount).then(|| Choice { amount, ..self.clone() })
    }

    /// A payer typed; `None` when it is the payer shown.
    pub fn with_payer(&self, payer: Option<String>) -> Option<Choice> {
        (payer != self.payer).then(|| Choice { payer, ..self.clone() })
    }
}

/// Under the field: the amount quoted, or what to type (`typed_nothing`: the field is empty).
pub fn parsed(amount: Option<&str>, typed_nothing: bool) -> String {
    match amount {
        Some(a) => fill(text().quoting, &[&dollars(a)]),
        None if typed_nothing => text().type_an_amount.into(),
        None => text().above_zero.into(),
    }
}

#[cfg(test)]
mod tests {
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    #[wasm_bindgen_test]
    fn the_url_names_rail_type_and_amount_and_nonsense_falls_back() {
        let c = choice_from(Some("wire"), Some("INTERNATIONAL_WIRE"), Some("1250.5"), None);
        assert_eq!(
            c,
            Choice { transfer_type: TransferType::InternationalWire, amount: Some("1250.5".into()), payer: None }
        );
        assert_eq!(href(&c), "/fees?rail=wire&type=INTERNATIONAL_WIRE&amount=1250.5");
        assert_eq!(choice_from(Some("wire"), Some("EFT"), None, None).transfer_type, TransferType::DomesticWire);
        assert_eq!(
            choice_from(None, None, Some("abc"), Some("  ")),
            Choice { transfer_type: TransferType::Eft, amount: None, payer: None }
        );
        let payer = choice_from(None, None, None, Some(" acme & co "));
        assert_eq!(payer.payer.as_deref(), Some("acme & co"));
        assert_eq!(href(&payer), "/fees?rail=ach&type=EFT&payer=acme%20%26%20co");
    }

    #[wasm_bindgen_test]
    fn a_rail_or_an_amount_changes_the_choice_only_when_it_differs() {
        let c = Choice { transfer_type: TransferType::SameDayAch, amount: Some("5".into()), payer: Some("p".into()) };
        assert_eq!(c.with_rail(Rail::Ach), None);
        assert_eq!(
            c.with_rail(Rail::Wire),
            Some(Choice {
                transfer_type: TransferType::DomesticWire,
                amount: Some("5".into()),
                payer: Some("p".into())
            })
        );
        assert_eq!(c.with_amount(Some("5".into())), None);
        assert_eq!(c.with_amount(None), Some(Choice { amount: None, ..c.clone() }));
        assert_eq!(c.with_payer(Some("p".into())), None);
        assert_eq!(c.with_payer(None), Some(Choice { payer: None, ..c.clone() }));
    }

    #[wasm_bindgen_test]
    fn under_the_field() {
        assert_eq!(parsed(Some("1250.5"), false), "Quoting $1,250.50");
        assert_eq!(parsed(None, true), "Type an amount in US dollars to quote its fees.");
        assert_eq!(parsed(None, false), "Enter an amount above zero.");
    }
}
