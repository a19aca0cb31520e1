//! Company user permissions (GET /api/v2/services/company/users/permissions). The description
//! leaves the record open; here a permission is one API scope granted to one user of one
//! company, with who granted it and when.

use serde::{Deserialize, Serialize};

use crate::collections::{encode_query, LocalDateTime, QueryError, QueryParts, SortSpec};
use crate::page::PageRequest;
use crate::vocabulary::vocabulary;
use crate::Scope;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Permission {
    /// Assigned by the server.
    pub id: i64,
    #[cfg_attr(feature = "openapi", schema(example = "usr_0042"))]
    pub user_id: String,
    pub user_name: String,
    pub user_email: Option<String>,
    #[cfg_attr(feature = "openapi", schema(example = "cmp_003"))]
    pub company_id: String,
    pub company_name: String,
    /// The API scope granted (fees:read, vault:read, vault:write, email:send, email:verify,
    /// routing:read, deposits:read, deposits:write, accounts:read, permissions:read, ledger:read, audit:read, webhooks:write, admin).
    #[cfg_attr(feature = "openapi", schema(value_type = String, example = "deposits:write"))]
    pub scope: Scope,
    /// Who granted it (a person's name or an administrator's user id).
    pub granted_by: String,
    pub granted_at: LocalDateTime,
}

vocabulary!(
    pub enum PermissionSortField {
        Id = "id",
        UserName = "userName",
        UserId = "userId",
        CompanyName = "companyName",
        Scope = "scope",
        GrantedAt = "grantedAt",
        GrantedBy = "grantedBy",
    }
    lists: slices;
    serde: none;
    impl SortField;
);

pub const PERMISSION_FILTERS: &[&str] = &["user", "scope", "companyId"];

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PermissionFilters {
    /// userId equal to this, or userName / userEmail containing it (ignoring case).
    pub user: Option<String>,
    pub scope: Option<Scope>,
    pub company_id: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PermissionQuery {
    pub page: PageRequest,
    pub sort: Option<SortSpec<PermissionSortField>>,
    pub filters: PermissionFilters,
}

impl PermissionQuery {
    pub fn from_query<I, K, V>(pairs: I) -> Result<Self, QueryError>
    where
        I: IntoIterator<Item = (K, V)>,
        K: AsRef<str>,
        V: AsRef<str>,
    {
        let parts = QueryParts::split(pairs, PERMISSION_FILTERS)?;
        let scope = match parts.get("scope") {
            Some(v) => Some(v.parse::<Scope>().map_err(|e| QueryError::new("scope", e.to_string()))?),
            None => None,
        };
        let user = parts.get("user").map(str::to_string);
        if user.as_ref().is_some_and(|u| u.chars().count() > 100) {
            return Err(QueryError::new("user", "user filter is at most 100 characters"));
        }
        let filters = PermissionFilters { user, scope, company_id: parts.get("companyId").map(str::to_string) };
        Ok(PermissionQuery { page: parts.page, sort: parts.sort, filters })
    }

    pub fn to_query(&self) -> String {
        let f = &self.filters;
        encode_query(&[
            ("page", (self.page.index + 1).to_string()),
            ("size", self.page.size.to_string()),
            ("sort", self.sort.map(|s| s.to_param()).unwrap_or_default()),
            ("user", f.user.clone().unwrap_or_default()),
            ("scope", f.scope.map(|s| s.as_str().to_string()).unwrap_or_default()),
            ("companyId", f.company_id.clone().unwrap_or_default()),
        ])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_round_trips() {
        let q = PermissionQuery::from_query([
            ("scope", "deposits:write"),
            ("user", "dana"),
            ("sort", "grantedAt,desc"),
            ("limit", "50"),
        ])
        .unwrap();
        assert_eq!(q.filters.scope, Some(Scope::DepositsWrite));
        assert_eq!(q.to_query(), "page=1&size=50&sort=grantedAt,desc&user=dana&scope=deposits:write");
        let again = PermissionQuery::from_query(url_pairs(&q.to_query())).unwrap();
        assert_eq!(again, q);
    }

    #[test]
    fn errors_name_the_parameter() {
        assert_eq!(PermissionQuery::from_query([("scope", "root")]).unwrap_err().param(), "scope");
        assert_eq!(PermissionQuery::from_query([("sort", "password")]).unwrap_err().param(), "sort");
        assert_eq!(PermissionQuery::from_query([("role", "x")]).unwrap_err().param(), "role");
    }

    #[test]
    fn record_json() {
        let p = Permission {
            id: 17,
            user_id: "usr_0042".into(),
            user_name: "Dana Whitfield".into(),
            user_email: Some("dana@northwind.example".into()),
            company_id: "cmp_003".into(),
            company_name: "Northwind Treasury LLC".into(),
            scope: Scope::DepositsWrite,
            granted_by: "Morgan Lee".into(),
            granted_at: LocalDateTime::parse("2024-03-11T14:02:55.120").unwrap(),
        };
        let v = serde_json::to_value(&p).unwrap();
        assert_eq!(v["scope"], "deposits:write");
        assert_eq!(v["grantedAt"], "2024-03-11T14:02:55.120");
        assert_eq!(serde_json::from_value::<Permission>(v).unwrap(), p);
    }

    // Enough of a query-string reader for the round-trip test (values here need no decoding).
    fn url_pairs(q: &str) -> Vec<(String, String)> {
        q.split('&').filter_map(|kv| kv.split_once('=')).map(|(k, v)| (k.to_string(), v.to_string())).collect()
    }
}
