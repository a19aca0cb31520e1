//! Who a cash letter is from and to, and how it is bundled (environment only).

use anyhow::Context;
use moneydesk_x9::Encoding;

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
    /// The files' character set: `MONEYDESK_CASH_LETTER_ENCODING`, `ascii` (default) or `ebcdic`
    /// (code page 037, which the Federal Reserve and many banks still ask for). Images are
    /// binary either way.
    pub encoding: Encoding,
}

impl Default for CashLetterConfig {
    fn default() -> Self {
        CashLetterConfig {
            destination: "011000015".into(),
            destination_name: "FRB BOSTON".into(),
            origin: "021090028".into(),
            origin_name: "MONEYDESK".into(),
            bundle_items: 200,
            encoding: Encoding::Ascii,
        }
    }
}

impl CashLetterConfig {
    pub fn from_env(var: &impl Fn(&str) -> Option<String>) -> anyhow::Result<CashLetterConfig> {
        let mut c = CashLetterConfig::default();
        for (name, slot) in
            [("MONEYDESK_CASH_LETTER_DESTINATION", &mut c.destination), ("MONEYDESK_CASH_LETTER_ORIGIN", &mut c.origin)]
        {
            if let Some(v) = var(name) {
                let v = v.trim().to_string();
                if !moneydesk_x9::is_valid_routing_number(&v) {
                    anyhow::bail!("{name} must be a nine-digit routing number with its ABA check digit, got {v:?}");
                }
                *slot = v;
            }
        }
        if let Some(v) = var("MONEYDESK_CASH_LETTER_BUNDLE_ITEMS") {
            c.bundle_items =
                v.trim().parse::<u32>().ok().filter(|n| (1..=9999).contains(n)).with_context(|| {
                    format!("MONEYDESK_CASH_LETTER_BUNDLE_ITEMS must be 1 to 9999 items, got {v:?}")
                })?;
        }
        if let Some(v) = var("MONEYDESK_CASH_LETTER_ENCODING") {
            c.encoding = match v.trim().to_ascii_lowercase().as_str() {
                "ascii" => Encoding::Ascii,
                "ebcdic" => Encoding::Ebcdic,
                _ => anyhow::bail!("MONEYDESK_CASH_LETTER_ENCODING must be ascii or ebcdic, got {v:?}"),
            };
        }
        Ok(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from(pairs: &[(&str, &str)]) -> anyhow::Result<CashLetterConfig> {
        CashLetterConfig::from_env(&|name: &str| pairs.iter().find(|(k, _)| *k == name).map(|(_, v)| v.to_string()))
    }

    #[test]
    fn the_encoding_is_ascii_unless_ebcdic_is_asked_for_and_anything_else_is_refused_by_name() {
        assert_eq!(from(&[]).unwrap().encoding, Encoding::Ascii);
        assert_eq!(from(&[("MONEYDESK_CASH_LETTER_ENCODING", " EBCDIC ")]).unwrap().encoding, Encoding::Ebcdic);
        let e = from(&[("MONEYDESK_CASH_LETTER_ENCODING", "utf-8")]).unwrap_err().to_string();
        assert!(e.contains("MONEYDESK_CASH_LETTER_ENCODING must be ascii or ebcdic"), "{e}");
    }
}
