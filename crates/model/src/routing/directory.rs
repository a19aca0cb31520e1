//! The Fed's directory records as its validate endpoints answer them (CONTRACT.md point 9),
//! and the routing extensions' status and search types.

use serde::{Deserialize, Serialize};

use crate::vocabulary::vocabulary;

/// A FedACH participant exactly as the ACH validate endpoint answers it (description 2.3).
/// Values are kept as the Fed writes them: codes and dates as strings, names trimmed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AchParticipant {
    pub routing_number: String,
    /// `O` main office, `B` branch.
    pub office_code: String,
    #[serde(rename = "servicingFRBNumber", alias = "servicingFrbNumber")]
    pub servicing_frb_number: String,
    /// `0` a Federal Reserve Bank, `1` send to the customer's routing number, `2` send to
    /// `newRoutingNumber`.
    pub record_type_code: String,
    /// MMDDYY.
    pub change_date: String,
    pub new_routing_number: String,
    pub customer_name: String,
    pub customer_address: String,
    pub customer_city: String,
    pub customer_state: String,
    pub customer_zip: String,
    pub customer_zip_ext: String,
    pub customer_area_code: String,
    pub customer_phone_prefix: String,
    pub customer_phone_suffix: String,
    /// `1` receives gov/commercial ACH.
    #[serde(alias = "statusCode")]
    pub institution_status_code: String,
    /// `1` current address.
    pub data_view_code: String,
}

/// A Fedwire Funds participant exactly as the wire validate endpoint answers it (2.2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct WireParticipant {
    pub routing_number: String,
    pub telegraphic_name: String,
    pub customer_name: String,
    pub customer_state: String,
    pub customer_city: String,
    /// `Y` eligible, `N` ineligible.
    pub funds_eligibility: String,
    /// `S` settlement-only, or a single space: never trimmed to empty.
    #[serde(alias = "fundsSettlementOnlyStatus")]
    pub settlement_only: String,
    pub securities_eligibility: String,
    /// YYYYMMDD, or blank.
    pub change_date: String,
}

/// Where the directory in service came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum DirectorySource {
    /// The operator's Fed files (`MONEYDESK_FEDACH_FILE`, `MONEYDESK_FEDWIRE_FILE`).
    Files,
    /// The embedded directory of fictional institutions.
    Demo,
}

/// How one directory was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum DirectoryFormat {
    /// 155 (FedACH) or 101 (Fedwire) characters a record.
    FixedWidth,
    /// The Fed's JSON download.
    Json,
    Demo,
    /// Not configured: the directory is empty.
    None,
}

/// What `asOf` was taken from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum AsOfSource {
    /// The newest `changeDate` over both directories.
    NewestChangeDate,
    /// No record carries a date: the newest file modification time.
    FileModified,
    None,
}

/// One directory (FedACH or Fedwire) inside [`DirectoryStatus`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DirectoryPart {
    pub records: u64,
    pub format: DirectoryFormat,
    /// The file name only (never its full path); null for the demo directory.
    pub file: Option<String>,
    /// YYYY-MM-DD.
    pub newest_change_date: Option<String>,
    /// The first 16 hex digits of the SHA-256 of the bytes loaded (the file, or the demo
    /// directory's text); null when there is none. Instances behind one load balancer that
    /// serve the same directory show the same.
    pub sha256: Option<String>,
}

/// A refresh that failed (the previous directory stayed in service).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RefreshFailure {
    /// RFC 3339.
    pub at: String,
    /// Names the directory, the file, the line and what is wrong.
    pub message: String,
}

/// Extension: the status of the routing directory in service.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct DirectoryStatus {
    pub source: DirectorySource,
    /// YYYY-MM-DD: the newest change date in the directory (see `asOfSource`).
    pub as_of: Option<String>,
    pub as_of_source: AsOfSource,
    /// RFC 3339: when the directory in service was loaded (the last successful refresh).
    pub loaded_at: String,
    /// The last successful refresh is older than `staleAfterHours`.
    pub stale: bool,
    pub stale_after_hours: u32,
    /// Distinct routing numbers across both directories.
    pub institutions: u64,
    pub ach: DirectoryPart,
    pub wire: DirectoryPart,
    /// e.g. `06:30 America/New_York`; null when the scheduled refresh is off.
    pub refresh_schedule: Option<String>,
    /// RFC 3339; null when the scheduled refresh is off.
    pub next_refresh_at: Option<String>,
    /// RFC 3339: the last load attempt, successful or not.
    pub last_attempt_at: String,
    /// The last attempt's failure, cleared by the next success.
    pub last_error: Option<RefreshFailure>,
}

vocabulary!(
    /// Which directory a search looks in.
    #[derive(Default)]
    pub enum SearchDirectory {
        Ach = "ach",
        Wire = "wire",
        #[default]
        Both = "both",
    }
    receiver: ref;
    parse: by_hand;
);

impl SearchDirectory {
    pub fn parse(s: &str) -> Option<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "ach" => Some(SearchDirectory::Ach),
            "wire" => Some(SearchDirectory::Wire),
            "both" | "all" | "" => Some(SearchDirectory::Both),
            _ => None,
        }
    }
}

/// Extension: one search result, one per routing number. The summary fields come from the
/// record that matched the query (the ACH record when both matched equally well).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct RoutingSearchHit {
    pub routing_number: String,
    pub customer_name: String,
    pub customer_city: String,
    pub customer_state: String,
    /// Empty when only a wire record is shown (the wire directory has no ZIP codes).
    pub customer_zip: String,
    /// Name relevance 0-100, higher is better (100 = every word exact and no other words in the
    /// name); null without `name`.
    pub score: Option<f32>,
    pub in_ach: bool,
    pub in_wire: bool,
    /// Null when not in the FedACH directory or when searching the wire directory only.
    pub ach: Option<AchParticipant>,
    /// Null when not in the Fedwire directory or when searching the ACH directory only.
    pub wire: Option<WireParticipant>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ach_reads_both_spellings_and_writes_the_contract_one() {
        let json = r#"{"routingNumber":"011000015","officeCode":"O","servicingFrbNumber":"011000015","recordTypeCode":"0","changeDate":"122415","newRoutingNumber":"000000000","customerName":"FEDERAL RESERVE BANK","customerAddress":"1000 PEACHTREE ST N.E.","customerCity":"ATLANTA","customerState":"GA","customerZip":"30309","customerZipExt":"4470","customerAreaCode":"877","customerPhonePrefix":"372","customerPhoneSuffix":"2457","statusCode":"1","dataViewCode":"1"}"#;
        let a: AchParticipant = serde_json::from_str(json).unwrap();
        let out = serde_json::to_value(&a).unwrap();
        assert_eq!(out["servicingFRBNumber"], "011000015");
        assert_eq!(out["institutionStatusCode"], "1");
        assert!(out.get("servicingFrbNumber").is_none());
    }

    #[test]
    fn wire_keeps_the_space_settlement_flag() {
        let json = r#"{"routingNumber":"011000015","telegraphicName":"FRB-BOS","customerName":"FEDERAL RESERVE BANK OF BOSTON","customerState":"MA","customerCity":"BOSTON","fundsEligibility":"Y","fundsSettlementOnlyStatus":" ","securitiesEligibility":"Y","changeDate":"20040910"}"#;
        let w: WireParticipant = serde_json::from_str(json).unwrap();
        assert_eq!(w.settlement_only, " ");
        assert_eq!(serde_json::to_value(&w).unwrap()["settlementOnly"], " ");
    }

    #[test]
    fn extension_types_use_the_documented_names() {
        assert_eq!(SearchDirectory::parse(" ACH "), Some(SearchDirectory::Ach));
        assert_eq!(SearchDirectory::parse(""), Some(SearchDirectory::Both));
        assert_eq!(SearchDirectory::parse("fed"), None);
        let part = DirectoryPart {
            records: 1,
            format: DirectoryFormat::FixedWidth,
            file: None,
            newest_change_date: None,
            sha256: None,
        };
        let status = DirectoryStatus {
            source: DirectorySource::Demo,
            as_of: None,
            as_of_source: AsOfSource::NewestChangeDate,
            loaded_at: "2025-01-01T00:00:00+00:00".into(),
            stale: false,
            stale_after_hours: 48,
            institutions: 1,
            ach: part.clone(),
            wire: part,
            refresh_schedule: None,
            next_refresh_at: None,
            last_attempt_at: "2025-01-01T00:00:00+00:00".into(),
            last_error: None,
        };
        let v = serde_json::to_value(&status).unwrap();
        assert_eq!(
            (v["source"].as_str(), v["asOfSource"].as_str(), v["ach"]["format"].as_str()),
            (Some("demo"), Some("newestChangeDate"), Some("fixedWidth"))
        );
        for k in
            ["asOf", "loadedAt", "staleAfterHours", "refreshSchedule", "nextRefreshAt", "lastAttemptAt", "lastError"]
        {
            assert!(v.get(k).is_some(), "{k}");
        }
        assert_eq!(serde_json::from_value::<DirectoryStatus>(v).unwrap(), status);
    }
}
