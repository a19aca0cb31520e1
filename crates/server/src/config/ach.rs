//! Who the day's ACH file is from and to (`MONEYDESK_ACH_*`), read with the rest of the
//! configuration; the file itself is `deposits::electronic`.

/// Who the day's ACH file is from and to (environment only).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AchConfig {
    /// `MONEYDESK_ACH_DESTINATION` (default `011000015`): the ACH operator or ODFI receiving it.
    pub destination: String,
    /// `MONEYDESK_ACH_ODFI` (default `021090028`): our bank, which originates the pulls.
    pub odfi: String,
    /// `MONEYDESK_ACH_COMPANY_ID` (default `1234567890`) and `MONEYDESK_ACH_COMPANY_NAME`
    /// (default `MONEYDESK`): the originator as the vendors' statements show it.
    pub company_id: String,
    pub company_name: String,
}

impl Default for AchConfig {
    fn default() -> Self {
        AchConfig {
            destination: "011000015".into(),
            odfi: "021090028".into(),
            company_id: "1234567890".into(),
            company_name: "MONEYDESK".into(),
        }
    }
}

impl AchConfig {
    pub fn from_env(var: &impl Fn(&str) -> Option<String>) -> anyhow::Result<AchConfig> {
        let mut c = AchConfig::default();
        for (name, slot) in [("MONEYDESK_ACH_DESTINATION", &mut c.destination), ("MONEYDESK_ACH_ODFI", &mut c.odfi)] {
            if let Some(v) = var(name) {
                let v = v.trim().to_string();
                if moneydesk_model::RoutingNumber::parse(&v).is_err() {
                    anyhow::bail!("{name} must be a nine-digit routing number with its ABA check digit, got {v:?}");
                }
                *slot = v;
            }
        }
        if let Some(v) = var("MONEYDESK_ACH_COMPANY_ID") {
            anyhow::ensure!((1..=10).contains(&v.trim().len()), "MONEYDESK_ACH_COMPANY_ID must be 1 to 10 characters");
            c.company_id = v.trim().into();
        }
        if let Some(v) = var("MONEYDESK_ACH_COMPANY_NAME") {
            anyhow::ensure!(
                (1..=16).contains(&v.trim().len()),
                "MONEYDESK_ACH_COMPANY_NAME must be 1 to 16 characters"
            );
            c.company_name = v.trim().into();
        }
        Ok(c)
    }
}
