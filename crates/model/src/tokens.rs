//! Tokens and sign-in links (extension): an admin lists, creates and revokes tokens and makes
//! sign-in links; any token lists and revokes its own user's tokens. A token's text (`mdk_…`)
//! and a link's secret are answered once, when made: the server keeps only their SHA-256.

use serde::{Deserialize, Serialize};

use crate::auth::Session;
use crate::Scope;

/// How long a sign-in link can be exchanged, in minutes.
pub const LINK_MINUTES: i64 = 15;
/// How long the session token a sign-in link is exchanged for lasts, in hours.
pub const SESSION_HOURS: i64 = 12;
/// What a sign-in link's URL opens: the portal's sign-in page with the secret
/// (`/signin?link=<secret>`), which exchanges it.
pub const SIGN_IN_LINK_ROUTE: &str = "/signin?link=";

/// A token as listed (never its text nor its hash).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct TokenInfo {
    pub id: i64,
    pub name: String,
    /// The user the token belongs to (whose document vault it reaches).
    pub user_id: String,
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<String>))]
    pub scopes: Vec<Scope>,
    /// RFC 3339 UTC.
    pub created_at: String,
    /// RFC 3339 UTC; null: it does not expire.
    pub expires_at: Option<String>,
    /// When it was last presented (written at most once a minute); null: never.
    pub last_used_at: Option<String>,
    /// When it was revoked; null: it was not.
    pub revoked_at: Option<String>,
}

/// A new token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewToken {
    /// 1 to 100 characters, not all spaces.
    #[cfg_attr(feature = "openapi", schema(min_length = 1, max_length = 100, pattern = "\\S"))]
    pub name: String,
    /// The user it belongs to; default: the user named like the token.
    #[serde(default)]
    #[cfg_attr(feature = "openapi", schema(pattern = "^[A-Za-z0-9._@-]{1,128}$"))]
    pub user_id: Option<String>,
    /// At least one scope name (`fees:read`, …, `admin`).
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<Scope>, min_items = 1))]
    pub scopes: Vec<String>,
    /// Days until it expires (1 to 3650); absent or null: it does not expire.
    #[serde(default, deserialize_with = "whole_days")]
    #[cfg_attr(feature = "openapi", schema(minimum = 1, maximum = 3650))]
    pub expires_in_days: Option<u32>,
}

/// JSON has one number type: `30.0` is the integer 30 (JSON Schema says so too), which
/// serde's `u32` alone refuses. A fraction or a number out of range stays an error.
fn whole_days<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<u32>, D::Error> {
    let raw: Option<serde_json::Number> = Option::deserialize(d)?;
    raw.map(|n| {
        n.as_u64()
            .or_else(|| n.as_f64().filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f < 1.0e10).map(|f| f as u64))
            .and_then(|v| u32::try_from(v).ok())
            .ok_or_else(|| serde::de::Error::custom(format!("expiresInDays: {n} is not a whole number of days")))
    })
    .transpose()
}

#[cfg(test)]
mod whole_days_tests {
    use super::NewToken;

    #[test]
    fn thirty_point_zero_days_is_thirty_days_and_a_fraction_is_refused() {
        let read = |days: &str| {
            serde_json::from_str::<NewToken>(&format!(r#"{{"name":"n","scopes":["admin"],"expiresInDays":{days}}}"#))
        };
        assert_eq!(read("30.0").unwrap().expires_in_days, Some(30));
        assert_eq!(read("30").unwrap().expires_in_days, Some(30));
        assert_eq!(read("null").unwrap().expires_in_days, None);
        assert!(read("1.5").is_err());
        assert!(read("-1").is_err());
    }
}

/// A token just made: its text, shown this once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CreatedToken {
    /// `mdk_` and 43 base64url characters. Not shown again.
    pub token: String,
    pub record: TokenInfo,
}

/// A sign-in link as listed (never its secret).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SignInLink {
    pub id: i64,
    /// The user it signs in.
    pub user_id: String,
    /// The scopes of the session token it is exchanged for.
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<String>))]
    pub scopes: Vec<Scope>,
    /// The admin's user who made it.
    pub created_by: String,
    pub created_at: String,
    /// 15 minutes after it was made.
    pub expires_at: String,
    pub used_at: Option<String>,
    pub revoked_at: Option<String>,
}

/// A new sign-in link.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewSignInLink {
    #[cfg_attr(feature = "openapi", schema(pattern = "^[A-Za-z0-9._@-]{1,128}$"))]
    pub user_id: String,
    /// At least one scope name: what the session token holds.
    #[cfg_attr(feature = "openapi", schema(value_type = Vec<Scope>, min_items = 1))]
    pub scopes: Vec<String>,
}

/// A sign-in link just made: its URL (carrying the secret), shown this once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CreatedSignInLink {
    /// The portal's address with `/signin?link=<secret>`. Not shown again.
    pub url: String,
    /// The secret alone (`mdl_…`), for a client that builds its own URL.
    pub secret: String,
    pub link: SignInLink,
}

/// The secret of a sign-in link, exchanged for a session token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SignInLinkExchange {
    pub secret: String,
}

/// What a sign-in link is exchanged for: a session token (12 hours) and what it may do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SignInSession {
    /// `mdk_…`: the bearer token of the session.
    pub token: String,
    pub session: Session,
}

/// Why a sign-in link can no longer be used: the `reason` of its 410 answer.
pub const LINK_EXPIRED: &str = "link_expired";
pub const LINK_USED: &str = "link_used";
pub const LINK_REVOKED: &str = "link_revoked";
