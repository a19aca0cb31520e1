//! Query parameter schemas whose rules `#[param(...)]` attributes cannot state alone: the
//! paging integers (no `format`, which would promise a range the server does not enforce:
//! larger numbers are answered, clamped) and the patterns shared by several operations. An
//! empty value counts as absent on the collections, so the patterns accept it.

use utoipa::openapi::schema::{ObjectBuilder, Type};

/// `page`: 1-based; 0 or missing is the first page; any larger whole number is answered (a
/// page past the end has empty `content`).
pub fn page() -> ObjectBuilder {
    ObjectBuilder::new().schema_type(Type::Integer).minimum(Some(0)).examples([1])
}

/// `size` and its aliases `per`, `limit`: at least 1; larger than 500 is clamped to 500.
pub fn size() -> ObjectBuilder {
    ObjectBuilder::new().schema_type(Type::Integer).minimum(Some(1)).examples([10])
}

/// `sort=field[,asc|desc]` over `fields` (direction in any case), or empty.
pub fn sort(fields: &[&str]) -> ObjectBuilder {
    let pattern = format!("^$|^({})(,([Aa][Ss][Cc]|[Dd][Ee][Ss][Cc]))?$", fields.join("|"));
    ObjectBuilder::new().schema_type(Type::String).pattern(Some(pattern))
}

/// A date `YYYY-MM-DD` or a date-time `YYYY-MM-DDTHH:MM[:SS[.fff]]` with an optional `Z` or
/// `±HH:MM` offset (converted to UTC), or empty. The day must exist.
pub fn date_or_date_time() -> ObjectBuilder {
    // Year 0001-9999; every month's days (29 February is left out: only leap years have it).
    const DAY: &str = "([1-9][0-9]{3}|0[1-9][0-9]{2}|00[1-9][0-9]|000[1-9])-\
        ((0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])|(0[13-9]|1[0-2])-(29|30)|(0[13578]|1[02])-31)";
    const TIME: &str = "([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\\.[0-9]{1,9})?)?";
    const ZONE: &str = "(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])?";
    ObjectBuilder::new().schema_type(Type::String).pattern(Some(format!("^$|^{DAY}(T{TIME}{ZONE})?$")))
}

/// One of `values` (the server also takes them in any case), or empty.
fn one_of<'a>(values: impl IntoIterator<Item = &'a str>) -> ObjectBuilder {
    let values: Vec<&str> = values.into_iter().chain([""]).collect();
    ObjectBuilder::new().schema_type(Type::String).enum_values(Some(values))
}

pub fn account_status() -> ObjectBuilder {
    one_of(moneydesk_model::accounts::AccountStatus::ALL.iter().map(|v| v.as_str()))
}

pub fn account_type() -> ObjectBuilder {
    one_of(moneydesk_model::accounts::AccountType::ALL.iter().map(|v| v.as_str()))
}

/// An API scope name (exactly), or empty.
pub fn scope() -> ObjectBuilder {
    one_of(moneydesk_model::Scope::ALL.iter().map(|s| s.as_str()))
}

pub fn account_sort() -> ObjectBuilder {
    sort(&["createTime", "accountName", "accountStatus", "accountType", "marketValue", "id"])
}

pub fn permission_sort() -> ObjectBuilder {
    sort(&["id", "userName", "userId", "companyName", "scope", "grantedAt", "grantedBy"])
}
