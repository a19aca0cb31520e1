//! The caller's own credential, as the `AUTH_ME` extension answers it.

use serde::{Deserialize, Serialize};

use crate::Scope;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Session {
    /// The token's name as given when it was created.
    pub name: String,
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<String>))]
    pub scopes: Vec<Scope>,
    /// ISO 8601 UTC, or null for a token that does not expire.
    pub expires_at: Option<String>,
    /// The user the token belongs to: whose document vault it reaches (`admin` reaches any).
    #[serde(default)]
    pub user_id: Option<String>,
}

impl Session {
    pub fn can(&self, scope: Scope) -> bool {
        scope.granted_by(&self.scopes)
    }
}
