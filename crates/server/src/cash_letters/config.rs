//! Who a cash letter is from and to, and how it is bundled (environment only).

use anyhow::Context;

/// The cash letters' settings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CashLetterConfig {
    /// The routing number the files are sent to (the collecting bank or the Federal Reserve
    /// office): `MONEYDESK_CASH_LETTER_DESTINATION`, default `011000015` (FRB Boston).
    pub destination: String,
    pub destination_name: String,
    /// Ours as the ECE institution and bank of first deposit: `MONEYDESK_CASH_LETTER_ORIGIN`,
    /// default `021090028`.
    pub origin: String,
    pub origin_name: String,
    /// Items per bundle at most: `MONEYDESK_CASH_LETTER_BUNDLE_ITEMS`, default 200 (banks
    /// commonly accept up to 300).
    pub bundle_items: u32,
}

impl Default for CashLetterConfig {
    fn default() -> Self {
        CashLetterConfig {
            destination: "011000015".into(),
            destination_name: "FRB BOSTON".into(),
            origin: "021090028".into(),
            origin_name: "MONEYDESK".into(),
            bundle_items: 200,
        }
    }
}

impl CashLetterConfig {
    pub fn from_env(var: &impl Fn(&str) -> Option<String>) -> anyhow::Result<CashLetterConfig> {
        let mut c = CashLetterConfig::default();
        for (name, slot) in [("MONEYDESK_CASH_LETTER_DESTINATION", &mut c.destination), ("MONEYDESK_CASH_LETTER_ORIGIN", &mut c.origin)] {
            if let Some(v) = var(name) {
                let v = v.trim().to_string();
                if !moneydesk_x9::is_valid_routing_number(&v) {
                    anyhow::bail!("{name} must be a nine-digit routing number with its ABA check digit, got {v:?}");
                }
                *slot = v;
            }
        }
        if let Some(v) = var("MONEYDESK_CASH_LETTER_BUNDLE_ITEMS") {
            c.bundle_items = v
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|n| (1..=9999).contains(n))
                .with_context(|| format!("MONEYDESK_CASH_LETTER_BUNDLE_ITEMS must be 1 to 9999 items, got {v:?}"))?;
        }
        Ok(c)
    }
}
