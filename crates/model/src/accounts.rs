//! Unified accounts (GET /api/v1/cores/unifi/accounts, description 2.6): the record, its
//! status and type vocabularies, and the collection's query (page, sort, filters).

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::collections::{encode_query, LocalDateTime, QueryError, QueryParts, SortSpec};
use crate::page::PageRequest;
use crate::vocabulary::vocabulary;

/// One account. Every field is always present in JSON, `null` when unknown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Account {
    #[cfg_attr(feature = "openapi", schema(example = "1695352608936qwLty"))]
    pub id: String,
    pub account_name: String,
    pub account_type: AccountType,
    /// LLC, Corporation, Partnership, Sole_Proprietorship, Non_Profit, Trust; null for people.
    pub business_entity_type: Option<String>,
    pub account_email: Option<String>,
    pub sub_routing_number: Option<String>,
    pub sub_routing_name: Option<String>,
    pub parent_account_id: Option<String>,
    pub account_number: Option<String>,
    pub account_status: AccountStatus,
    /// Taxpayer identification number, masked to its last four digits (`*****4821`).
    pub tin: Option<String>,
    pub record_type_id: Option<String>,
    pub billing_street: Option<String>,
    pub billing_city: Option<String>,
    pub billing_state: Option<String>,
    pub billing_zipcode: Option<String>,
    pub billing_country: Option<String>,
    pub mailing_street: Option<String>,
    pub mailing_city: Option<String>,
    pub mailing_state: Option<String>,
    pub mailing_zipcode: Option<String>,
    pub mailing_country: Option<String>,
    /// Exact decimal US dollars, as a string.
    #[serde(with = "rust_decimal::serde::str_option")]
    #[cfg_attr(feature = "openapi", schema(value_type = Option<String>, example = "1284350.27"))]
    pub market_value: Option<Decimal>,
    pub create_time: LocalDateTime,
}

vocabulary!(
    /// Where an account is in its life.
    #[derive(PartialOrd, Ord)]
    pub enum AccountStatus {
        Active = "Active" / "Active",
        Closed = "Closed" / "Closed",
        Inactive = "Inactive" / "Inactive",
        Pending = "Pending" / "Pending",
        Suspended = "Suspended" / "Suspended",
    }
    lists: slices;
    parse: ignore_case;
);

vocabulary!(
    /// The kind of account (the description's record types, and API customers).
    #[derive(PartialOrd, Ord)]
    pub enum AccountType {
        ApiCustomer = "API_Customer" / "API customer",
        CorporateClient = "Corporate_Client" / "Corporate client",
        CorporateHolding = "Corporate_Holding" / "Corporate holding",
        Household = "Household" / "Household",
        IndividualClient = "Individual_Client" / "Individual client",
    }
    lists: slices;
    parse: ignore_case;
);

vocabulary!(
    /// The sortable fields (each backed by an index on the server).
    pub enum AccountSortField {
        CreateTime = "createTime",
        AccountName = "accountName",
        AccountStatus = "accountStatus",
        AccountType = "accountType",
        MarketValue = "marketValue",
        Id = "id",
    }
    lists: slices;
    serde: none;
    impl SortField;
);

/// The filter parameters, in their API names.
pub const ACCOUNT_FILTERS: &[&str] = &["accountStatus", "accountType", "name", "createTimeFrom", "createTimeTo"];

/// The longest `name` filter accepted.
pub const NAME_FILTER_MAX: usize = 100;

/// Filters, combined with AND. The time bounds keep the text the user gave (for the URL);
/// [`AccountFilters::create_time_range`] gives the parsed range.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AccountFilters {
    pub account_status: Option<AccountStatus>,
    pub account_type: Option<AccountType>,
    /// accountName contains this, ignoring case.
    pub name: Option<String>,
    /// createTime ≥ this (a date means the start of the day).
    pub create_time_from: Option<String>,
    /// createTime ≤ this (a date means the whole day).
    pub create_time_to: Option<String>,
}

impl AccountFilters {
    /// `[from, to)` in milliseconds: the end is exclusive (one past the inclusive bound).
    pub fn create_time_range(&self) -> Result<(Option<LocalDateTime>, Option<LocalDateTime>), QueryError> {
        let from = match &self.create_time_from {
            Some(s) => Some(
                LocalDateTime::parse_bound(s, false).map_err(|e| QueryError::new("createTimeFrom", e.to_string()))?,
            ),
            None => None,
        };
        let to = match &self.create_time_to {
            Some(s) if s.trim().len() == 10 => {
                Some(LocalDateTime::parse_bound(s, true).map_err(|e| QueryError::new("createTimeTo", e.to_string()))?)
            }
            Some(s) => {
                let t = LocalDateTime::parse(s).map_err(|e| QueryError::new("createTimeTo", e.to_string()))?;
                Some(LocalDateTime::from_millis(t.millis() + 1))
            }
            None => None,
        };
        if let (Some(f), Some(t)) = (from, to) {
            if t <= f {
                return Err(QueryError::new("createTimeTo", "createTimeTo must not be before createTimeFrom"));
            }
        }
        Ok((from, to))
    }

    pub fn is_empty(&self) -> bool {
        *self == AccountFilters::default()
    }
}

/// A validated accounts query.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AccountQuery {
    pub page: PageRequest,
    pub sort: Option<SortSpec<AccountSortField>>,
    pub filters: AccountFilters,
}

impl AccountQuery {
    /// Parses query pairs; unknown parameters, sort fields and filter values are errors
    /// naming the parameter.
    pub fn from_query<I, K, V>(pairs: I) -> Result<Self, QueryError>
    where
        I: IntoIterator<Item = (K, V)>,
        K: AsRef<str>,
        V: AsRef<str>,
    {
        let parts = QueryParts::split(pairs, ACCOUNT_FILTERS)?;
        let account_status = match parts.get("accountStatus") {
            Some(v) => Some(AccountStatus::parse(v).ok_or_else(|| {
                QueryError::new(
                    "accountStatus",
                    format!("unknown account status {v:?}; one of {}", AccountStatus::known()),
                )
            })?),
            None => None,
        };
        let account_type = match parts.get("accountType") {
            Some(v) => Some(AccountType::parse(v).ok_or_else(|| {
                QueryError::new("accountType", format!("unknown account type {v:?}; one of {}", AccountType::known()))
            })?),
            None => None,
        };
        let name = parts.get("name").map(str::to_string);
        if let Some(n) = &name {
            if n.chars().count() > NAME_FILTER_MAX {
                return Err(QueryError::new("name", format!("name filter is at most {NAME_FILTER_MAX} characters")));
            }
        }
        let filters = AccountFilters {
            account_status,
            account_type,
            name,
            create_time_from: parts.get("createTimeFrom").map(str::to_string),
            create_time_to: parts.get("createTimeTo").map(str::to_string),
        };
        filters.create_time_range()?;
        Ok(AccountQuery { page: parts.page, sort: parts.sort, filters })
    }

    /// The canonical query string (API names, empty filters left out).
    pub fn to_query(&self) -> String {
        let f = &self.filters;
        let pairs = [
            ("page", (self.page.index + 1).to_string()),
            ("size", self.page.size.to_string()),
            ("sort", self.sort.map(|s| s.to_param()).unwrap_or_default()),
            ("accountStatus", f.account_status.map(|s| s.as_str().to_string()).unwrap_or_default()),
            ("accountType", f.account_type.map(|s| s.as_str().to_string()).unwrap_or_default()),
            ("name", f.name.clone().unwrap_or_default()),
            ("createTimeFrom", f.create_time_from.clone().unwrap_or_default()),
            ("createTimeTo", f.create_time_to.clone().unwrap_or_default()),
        ];
        encode_query(&pairs)
    }
}

/// Masks a taxpayer id to its last four digits; `None` when it has no digits.
pub fn mask_tin(tin: &str) -> Option<String> {
    let digits: Vec<char> = tin.chars().filter(|c| c.is_ascii_digit()).collect();
    if digits.is_empty() {
        return None;
    }
    let tail: String = digits[digits.len().saturating_sub(4)..].iter().collect();
    Some(format!("*****{tail}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::collections::SortDir;

    fn q(pairs: &[(&str, &str)]) -> Result<AccountQuery, QueryError> {
        AccountQuery::from_query(pairs.iter().copied())
    }

    /// The document lists exactly what the JSON carries (the description's spelling).
    #[cfg(feature = "openapi")]
    #[test]
    fn the_documented_vocabularies_are_the_serialized_ones() {
        use utoipa::PartialSchema;
        let documented = serde_json::to_value(AccountType::schema()).unwrap();
        let serialized: Vec<_> = AccountType::ALL.iter().map(|t| serde_json::to_value(t).unwrap()).collect();
        assert_eq!(documented["enum"], serde_json::Value::Array(serialized));
        assert_eq!(documented["enum"][0], "API_Customer");
        let documented = serde_json::to_value(AccountStatus::schema()).unwrap();
        assert_eq!(documented["enum"].as_array().unwrap().len(), AccountStatus::ALL.len());
        assert_eq!(documented["description"], "Where an account is in its life.");
    }

    #[test]
    fn parses_sort_and_filters() {
        let a = q(&[
            ("page", "3"),
            ("per", "25"),
            ("sort", "marketValue,desc"),
            ("accountStatus", "active"),
            ("name", "dental"),
        ])
        .unwrap();
        assert_eq!(a.page, PageRequest { index: 2, size: 25 });
        assert_eq!(a.sort.unwrap().field, AccountSortField::MarketValue);
        assert_eq!(a.sort.unwrap().dir, SortDir::Desc);
        assert_eq!(a.filters.account_status, Some(AccountStatus::Active));
        assert_eq!(a.to_query(), "page=3&size=25&sort=marketValue,desc&accountStatus=Active&name=dental");
        assert_eq!(q(&[]).unwrap().to_query(), "page=1&size=10");
    }

    #[test]
    fn errors_name_the_parameter() {
        for (pairs, param) in [
            (vec![("sort", "balance")], "sort"),
            (vec![("accountStatus", "Open")], "accountStatus"),
            (vec![("accountType", "x")], "accountType"),
            (vec![("createTimeFrom", "yesterday")], "createTimeFrom"),
            (vec![("createTimeFrom", "2024-02-01"), ("createTimeTo", "2024-01-01")], "createTimeTo"),
            (vec![("status", "Active")], "status"),
            (vec![("limit", "-3")], "limit"),
        ] {
            assert_eq!(q(&pairs).unwrap_err().param(), param, "{pairs:?}");
        }
        let long = "x".repeat(101);
        assert_eq!(q(&[("name", long.as_str())]).unwrap_err().param(), "name");
    }

    #[test]
    fn time_range_is_half_open() {
        let a = q(&[("createTimeFrom", "2024-01-01"), ("createTimeTo", "2024-01-31")]).unwrap();
        let (f, t) = a.filters.create_time_range().unwrap();
        assert_eq!(f.unwrap().to_string(), "2024-01-01T00:00:00.000");
        assert_eq!(t.unwrap().to_string(), "2024-02-01T00:00:00.000");
        let b = q(&[("createTimeTo", "2024-01-31T10:00:00")]).unwrap();
        assert_eq!(b.filters.create_time_range().unwrap().1.unwrap().to_string(), "2024-01-31T10:00:00.001");
    }

    #[test]
    fn record_json_has_every_field() {
        let a = Account {
            id: "1695352608936qwLty".into(),
            account_name: "Alex Test Account".into(),
            account_type: AccountType::ApiCustomer,
            business_entity_type: None,
            account_email: None,
            sub_routing_number: None,
            sub_routing_name: None,
            parent_account_id: None,
            account_number: None,
            account_status: AccountStatus::Active,
            tin: mask_tin("12-3454821"),
            record_type_id: Some("0125f000000qDHNAA2".into()),
            billing_street: None,
            billing_city: None,
            billing_state: None,
            billing_zipcode: None,
            billing_country: None,
            mailing_street: None,
            mailing_city: None,
            mailing_state: None,
            mailing_zipcode: None,
            mailing_country: None,
            market_value: Some("1284350.20".parse().unwrap()),
            create_time: LocalDateTime::parse("2023-09-22T03:16:48.936").unwrap(),
        };
        let v = serde_json::to_value(&a).unwrap();
        assert_eq!(v.as_object().unwrap().len(), 24);
        assert_eq!(v["accountType"], "API_Customer");
        assert_eq!(v["marketValue"], "1284350.20");
        assert_eq!(v["createTime"], "2023-09-22T03:16:48.936");
        assert_eq!(v["tin"], "*****4821");
        assert!(v["billingZipcode"].is_null() && v["mailingCountry"].is_null());
        let back: Account = serde_json::from_value(v).unwrap();
        assert_eq!(back, a);
    }
}
