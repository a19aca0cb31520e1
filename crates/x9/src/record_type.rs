//! The standard's names of the record types: below both the errors and the records, which
//! name them.

/// The standard's name of a record type ("25" → "check detail").
pub fn type_name(record_type: &str) -> &'static str {
    match record_type {
        "01" => "file header",
        "10" => "cash letter header",
        "20" => "bundle header",
        "25" => "check detail",
        "26" => "check detail addendum A",
        "27" => "check detail addendum B",
        "28" => "check detail addendum C",
        "31" => "return",
        "32" => "return addendum A",
        "33" => "return addendum B",
        "34" => "return addendum C",
        "35" => "return addendum D",
        "40" => "account totals detail",
        "41" => "non-hit total detail",
        "50" => "image view detail",
        "52" => "image view data",
        "54" => "image view analysis",
        "61" => "credit reconciliation",
        "62" => "credit",
        "68" => "user record",
        "70" => "bundle control",
        "75" => "box summary",
        "85" => "routing number summary",
        "90" => "cash letter control",
        "99" => "file control",
        _ => "unknown record type",
    }
}
