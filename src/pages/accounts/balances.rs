//! A page of account records joined with their ledger balances: pure functions, so the join
//! is tested without a server. The records stay JSON (the data table shows them by field).

use moneydesk_model::ledger::Balances;
use serde_json::Value;

/// The field a row's available balance is shown from.
pub const AVAILABLE: &str = "availableBalance";
/// The field that marks an available balance below zero (a badge, with its words).
pub const FLAG: &str = "availableBelowZero";

/// The ids of the rows on screen, in order, for one batch request.
pub fn ids(rows: &[Value]) -> Vec<String> {
    rows.iter().filter_map(|r| r.get("id").and_then(Value::as_str)).map(str::to_string).collect()
}

/// Each row gets its account's available balance, and the flag when it is below zero; a row
/// the answer leaves out (an account with no books yet) gets neither.
pub fn merge(rows: &mut [Value], found: &[Balances]) {
    for row in rows {
        let id = row.get("id").and_then(Value::as_str).unwrap_or_default();
        let Some(b) = found.iter().find(|b| b.account_id == id) else { continue };
        if let Some(obj) = row.as_object_mut() {
            obj.insert(AVAILABLE.into(), Value::String(b.available.to_string()));
            if b.negative_available {
                obj.insert(FLAG.into(), Value::String("below_zero".into()));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use moneydesk_model::Money;
    use serde_json::json;
    use wasm_bindgen_test::wasm_bindgen_test;

    use super::*;

    fn balances(id: &str, available: &str) -> Balances {
        let m = |s: &str| Money::parse(s).unwrap();
        Balances {
            account_id: id.into(),
            as_of: "2026-11-28T12:00:00.000Z".into(),
            currency: "USD".into(),
            posted: m("10.00"),
            pending: m("10.00"),
            available: m(available),
            held: m("0.00"),
            negative_available: available.starts_with('-'),
        }
    }

    #[wasm_bindgen_test]
    fn rows_get_their_own_balances_and_the_flag_only_below_zero() {
        let mut rows = vec![json!({"id": "a"}), json!({"id": "b"}), json!({"id": "c"})];
        assert_eq!(ids(&rows), ["a", "b", "c"]);
        merge(&mut rows, &[balances("b", "-25.00"), balances("a", "12.50")]);
        assert_eq!(rows[0], json!({"id": "a", AVAILABLE: "12.50"}));
        assert_eq!(rows[1], json!({"id": "b", AVAILABLE: "-25.00", FLAG: "below_zero"}));
        assert_eq!(rows[2], json!({"id": "c"}), "no answer, no balance");
    }
}
