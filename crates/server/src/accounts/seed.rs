//! Demo and benchmark accounts: every status and type (people, households, companies,
//! holdings, API customers; some with parents, some without a market value). The same
//! generator builds the 1,000,000-account benchmark database.

use moneydesk_model::accounts::{Account, AccountStatus, AccountType};
use moneydesk_model::collections::LocalDateTime;
use moneydesk_model::routing::check_digit;
use rust_decimal::Decimal;

use crate::collections::seed::{slug, Rng, FIRST, LAST};

const WORD_A: &[&str] = &[
    "Harbor",
    "Summit",
    "Blue",
    "Cedar",
    "Granite",
    "Prairie",
    "Silver",
    "Maple",
    "Northwind",
    "Cobalt",
    "Redwood",
    "Lakeside",
    "Ironwood",
    "Golden",
    "Riverbend",
    "Oak",
    "Pioneer",
    "Beacon",
    "Willow",
    "Keystone",
    "Coastal",
    "Evergreen",
    "Highland",
];
const WORD_B: &[&str] = &[
    "Point", "Ridge", "Stone", "Valley", "Creek", "Bay", "Field", "Crest", "Gate", "Hollow", "Grove", "Peak", "Harbor",
    "Bridge",
];
const TRADE: &[&str] = &[
    "Dental",
    "Logistics",
    "Bakery",
    "Construction",
    "Veterinary Clinic",
    "Design Studio",
    "Law Group",
    "Realty",
    "Brewing",
    "Auto Repair",
    "Pharmacy",
    "Landscaping",
    "Consulting",
    "Software",
    "Medical Group",
    "Outfitters",
    "Catering",
    "Freight",
];
const CITIES: &[(&str, &str, &str)] = &[
    ("Portland", "ME", "041"),
    ("Boston", "MA", "021"),
    ("Hartford", "CT", "061"),
    ("Albany", "NY", "122"),
    ("Brooklyn", "NY", "112"),
    ("Newark", "NJ", "071"),
    ("Philadelphia", "PA", "191"),
    ("Baltimore", "MD", "212"),
    ("Richmond", "VA", "232"),
    ("Raleigh", "NC", "276"),
    ("Charleston", "SC", "294"),
    ("Atlanta", "GA", "303"),
    ("Tampa", "FL", "336"),
    ("Nashville", "TN", "372"),
    ("Louisville", "KY", "402"),
    ("Columbus", "OH", "432"),
    ("Detroit", "MI", "482"),
    ("Chicago", "IL", "606"),
    ("Madison", "WI", "537"),
    ("Minneapolis", "MN", "554"),
    ("Des Moines", "IA", "503"),
    ("St. Louis", "MO", "631"),
    ("Omaha", "NE", "681"),
    ("Dallas", "TX", "752"),
    ("Austin", "TX", "787"),
    ("Denver", "CO", "802"),
    ("Salt Lake City", "UT", "841"),
    ("Phoenix", "AZ", "850"),
    ("Albuquerque", "NM", "871"),
    ("Boise", "ID", "837"),
    ("Seattle", "WA", "981"),
    ("Portland", "OR", "972"),
    ("Sacramento", "CA", "958"),
    ("San Diego", "CA", "921"),
    ("Honolulu", "HI", "968"),
    ("Anchorage", "AK", "995"),
];
const STREETS: &[&str] = &[
    "Main", "Oak", "Wharf", "Elm", "Maple", "Commerce", "Market", "Lincoln", "Harbor", "Mill", "Park", "Church",
    "Bridge", "Union",
];
const SUFFIX: &[&str] = &["St", "Ave", "Blvd", "Rd", "Ln", "Way", "Dr", "Ct"];

/// Salesforce-style record type ids, one per account type (the first is the description's).
fn record_type_id(t: AccountType) -> &'static str {
    match t {
        AccountType::ApiCustomer => "0125f000000qDHNAA2",
        AccountType::CorporateClient => "0125f000000qDHOAA2",
        AccountType::CorporateHolding => "0125f000000qDHPAA2",
        AccountType::Household => "0125f000000qDHQAA2",
        AccountType::IndividualClient => "0125f000000qDHRAA2",
    }
}

/// A valid-checksum routing number in a Federal Reserve district (01–12).
fn routing_number(rng: &mut Rng) -> String {
    let mut d = [0u8; 8];
    let district = 1 + rng.below(12) as u8;
    d[0] = district / 10;
    d[1] = district % 10;
    for x in d.iter_mut().skip(2) {
        *x = rng.below(10) as u8;
    }
    let check = check_digit(&d);
    d.iter().chain(std::iter::once(&check)).map(|x| char::from(b'0' + x)).collect()
}
/// Generates accounts one at a time; `Accounts::new(n, seed)` yields `n` of them, with
/// createTime rising from 2022-01-03 over about three years.
pub struct Accounts {
    rng: Rng,
    i: usize,
    n: usize,
    households: Vec<String>,
    holdings: Vec<String>,
}

const START_MS: i64 = 1_641_168_000_000; // 2022-01-03T00:00:00
const SPAN_MS: i64 = 1_080 * 86_400_000; // ~three years

impl Accounts {
    pub fn new(n: usize, seed: u64) -> Self {
        Accounts { rng: Rng::new(seed), i: 0, n, households: Vec::new(), holdings: Vec::new() }
    }

    fn make(&mut self) -> Account {
        let r = &mut self.rng;
        let step = SPAN_MS / self.n.max(1) as i64;
        let ms = START_MS + self.i as i64 * step + r.below(step.max(1) as u64) as i64;
        let id = format!("{ms}{}", r.letters(5));
        let account_type = [
            AccountType::IndividualClient,
            AccountType::Household,
            AccountType::CorporateClient,
            AccountType::CorporateHolding,
            AccountType::ApiCustomer,
        ][r.weighted(&[40, 15, 30, 5, 10])];
        let account_status = [
            AccountStatus::Active,
            AccountStatus::Pending,
            AccountStatus::Suspended,
            AccountStatus::Inactive,
            AccountStatus::Closed,
        ][r.weighted(&[70, 8, 4, 10, 8])];
        let (first, last) = (*r.pick(FIRST), *r.pick(LAST));
        let brand = format!("{} {}", r.pick(WORD_A), r.pick(WORD_B));
        let (name, entity, domain, email_local) = match account_type {
            AccountType::IndividualClient => (
                format!("{first} {last}"),
                None,
                *r.pick(&["example.com", "example.net", "example.org"]),
                format!("{}.{}", slug(first), slug(last)),
            ),
            AccountType::Household => {
                (format!("{last} Family Household"), None, "example.com", format!("{}.family", slug(last)))
            }
            AccountType::CorporateClient => {
                let entity = *r.pick(&["LLC", "Corporation", "Partnership", "Sole_Proprietorship", "Non_Profit"]);
                let suffix = match entity {
                    "LLC" => " LLC",
                    "Corporation" => " Inc.",
                    "Partnership" => " & Partners",
                    "Non_Profit" => " Foundation",
                    _ => "",
                };
                (format!("{brand} {}{suffix}", r.pick(TRADE)), Some(entity), "", "ap".to_string())
            }
            AccountType::CorporateHolding => {
                let entity = *r.pick(&["Corporation", "LLC", "Trust"]);
                (
                    format!("{brand} Holdings{}", if entity == "Trust" { " Trust" } else { " Inc." }),
                    Some(entity),
                    "",
                    "treasury".to_string(),
                )
            }
            AccountType::ApiCustomer => (
                format!("{brand} {}", r.pick(&["Pay", "Labs", "Ledger", "Wallet", "Platform"])),
                Some("Corporation"),
                "",
                "api".to_string(),
            ),
        };
        let domain = if domain.is_empty() { format!("{}.example", slug(&brand)) } else { domain.to_string() };
        let (city, state, zip3) = *r.pick(CITIES);
        let zip = format!("{zip3}{}", r.digits(2));
        let street = format!("{} {} {}", 1 + r.below(9_800), r.pick(STREETS), r.pick(SUFFIX));
        let mailing = match r.weighted(&[70, 20, 10]) {
            0 => Some((street.clone(), zip.clone())),
            1 => Some((format!("PO Box {}", 10 + r.below(9_000)), format!("{zip3}{}", r.digits(2)))),
            _ => None,
        };
        let parent = match account_type {
            AccountType::IndividualClient if r.chance(15) => {
                self.households.get(r.below(self.households.len() as u64) as usize).cloned()
            }
            AccountType::CorporateClient if r.chance(12) => {
                self.holdings.get(r.below(self.holdings.len() as u64) as usize).cloned()
            }
            _ => None,
        };
        let corporate = entity.is_some();
        let market_value = match account_status {
            AccountStatus::Pending if r.chance(70) => None,
            AccountStatus::Closed => Some(Decimal::new(0, 2)),
            _ if r.chance(5) => None,
            _ => {
                // Roughly log-uniform: people from $100 to ~$2M, companies up to ~$200M.
                let exp = if corporate { 4 + r.below(5) } else { 2 + r.below(5) };
                let cents =
                    (1 + r.below(9)) as i64 * 10i64.pow(exp as u32 + 2) + r.below(10u64.pow(exp as u32 + 2)) as i64;
                Some(Decimal::new(cents, 2))
            }
        };
        let pending = account_status == AccountStatus::Pending;
        let sub_routing = (!pending && r.chance(60)).then(|| routing_number(r));
        let account = Account {
            id: id.clone(),
            sub_routing_name: sub_routing.as_ref().map(|_| {
                format!(
                    "{} {}",
                    name.split(' ').next().unwrap_or("Main"),
                    r.pick(&["Operating", "Checking", "Reserve", "Payroll"])
                )
            }),
            sub_routing_number: sub_routing,
            account_name: name,
            account_type,
            business_entity_type: entity.map(str::to_string),
            account_email: r.chance(90).then(|| format!("{email_local}@{domain}")),
            parent_account_id: parent,
            account_number: (!pending || r.chance(30)).then(|| r.digits(10)),
            account_status,
            tin: r.chance(85).then(|| format!("*****{}", r.digits(4))),
            record_type_id: Some(record_type_id(account_type).to_string()),
            billing_street: Some(street),
            billing_city: Some(city.to_string()),
            billing_state: Some(state.to_string()),
            billing_zipcode: Some(zip),
            billing_country: Some("US".into()),
            mailing_city: mailing.as_ref().map(|_| city.to_string()),
            mailing_state: mailing.as_ref().map(|_| state.to_string()),
            mailing_country: mailing.as_ref().map(|_| "US".to_string()),
            mailing_street: mailing.as_ref().map(|m| m.0.clone()),
            mailing_zipcode: mailing.map(|m| m.1),
            market_value,
            create_time: LocalDateTime::from_millis(ms),
        };
        match account_type {
            AccountType::Household => self.households.push(id),
            AccountType::CorporateHolding => self.holdings.push(id),
            _ => {}
        }
        account
    }
}

impl Iterator for Accounts {
    type Item = Account;
    fn next(&mut self) -> Option<Account> {
        if self.i >= self.n {
            return None;
        }
        let a = self.make();
        self.i += 1;
        Some(a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collections::seed::DEMO_ACCOUNTS;

    #[test]
    fn demo_accounts_are_deterministic_and_varied() {
        let a: Vec<Account> = Accounts::new(DEMO_ACCOUNTS, 1).collect();
        let b: Vec<Account> = Accounts::new(DEMO_ACCOUNTS, 1).collect();
        assert_eq!(a, b);
        let ids: std::collections::HashSet<_> = a.iter().map(|x| &x.id).collect();
        assert_eq!(ids.len(), a.len());
        for s in AccountStatus::ALL {
            assert!(a.iter().filter(|x| x.account_status == *s).count() >= 20, "{s}");
        }
        for t in AccountType::ALL {
            assert!(a.iter().filter(|x| x.account_type == *t).count() >= 20, "{t}");
        }
        assert!(a.iter().any(|x| x.market_value.is_none()) && a.iter().any(|x| x.parent_account_id.is_some()));
        for x in &a {
            if let Some(rn) = &x.sub_routing_number {
                moneydesk_model::RoutingNumber::parse(rn).unwrap();
            }
            if let Some(e) = &x.account_email {
                moneydesk_model::EmailAddress::parse(e).unwrap();
            }
        }
    }
}
