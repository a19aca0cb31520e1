//! The Activity page in English.

use super::Activity;

pub const TEXT: Activity = Activity {
    heading: "Activity",
    intro: "Every change made through the API, newest first: who made it, when, from where, and what it changed. Select a record to see its changes, before and after.",
    noun: ("record", "records"),
    columns: [
        "Time", "Who", "Operation", "Target", "Outcome", "Request id", "Record", "Method", "Route", "Client address",
        "User agent",
    ],
    from: "From",
    user: "User",
    to: "To",
    target_type: "Target type",
    target_id: "Target id",
    operation_hint: "e.g. createCheckDeposit",
    target_type_hint: "e.g. deposit",
    export_csv: "Export CSV",
    day: "Day",
    download_day: "Download the day (signed JSON lines)",
    verifying: "Verifying the chain…",
    verify_again: "Verify again",
    one_unsealed: " 1 record made in the last second is not chained yet.",
    unsealed: " {} records made in the last second are not chained yet.",
    broken: "The chain is broken at record {} ({}, seq {}): {}.{}",
    on_day: " on {}",
    from_to: " from {} to {}",
    purged: " {} earlier days were removed under the retention setting.",
    one_day: "1 day",
    days: "{} days",
    holds: "The chain holds: {} records over {}{} verified.{}{}",
    changes: "Changes",
    chain: "Chain",
    not_chained: "Not chained yet: the sealer chains a record within a second or so.",
    chain_fields: ["Seq", "Previous hash", "Hash"],
};
