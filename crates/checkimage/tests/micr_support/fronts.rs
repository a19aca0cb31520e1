//! The check fronts of `shared/data/checks/full` and what their MICR lines say (its SOURCE.md):
//! no dependencies, so the capture benchmark (tests/perf/capture.rs) includes this file too and
//! holds pictures taken by the camera to the same truth.

/// A full check front of `full/` and what its MICR line says (SOURCE.md), with its fields:
/// (file, raw line, routing, routing passes ABA, account, check number).
pub struct Front {
    pub file: &'static str,
    pub raw: &'static str,
    pub routing: Option<&'static str>,
    pub aba: bool,
    pub account: Option<&'static str>,
    pub check: Option<&'static str>,
    /// A modern US line (the others are read and reported, not held to the same bar).
    pub modern: bool,
}

/// 04's account is partly blacked out in the source: the expected line stands a `*` for it.
pub const FRONTS: [Front; 8] = [
    Front {
        file: "01_moov_x9_check_front.tif",
        raw: "⑆122000661⑆1211⑉1234⑉56789⑈",
        routing: Some("122000661"),
        aba: true,
        account: Some("1211-1234-56789"),
        check: None,
        modern: true,
    },
    Front {
        file: "02_finos_sample_check.png",
        raw: "⑆011234567⑆001234567⑈243",
        routing: Some("011234567"),
        aba: false,
        account: Some("001234567"),
        check: Some("243"),
        modern: true,
    },
    Front {
        file: "03_wikimedia_canadian_cheque.png",
        raw: "⑈243⑈⑆00005⑉123⑆123⑉456⑉7⑈",
        routing: Some("00005-123"),
        aba: false,
        account: Some("123-456-7"),
        check: Some("243"),
        modern: false,
    },
    Front {
        file: "04_wikimedia_check1005_calfed.jpg",
        raw: "⑆322271779⑆1005⑈*4192580⑈⑇0000000419⑇",
        routing: Some("322271779"),
        aba: true,
        account: None,
        check: Some("1005"),
        modern: true,
    },
    // [T58], the 1958 transit symbol, is not an E-13B character: the expected line has ⑆.
    Front {
        file: "05_wikimedia_sri_check_with_micr_1958.jpg",
        raw: "⑆1211⑉1161⑆8939⑉6403⑈9⑇0000001000⑇",
        routing: None,
        aba: false,
        account: None,
        check: None,
        modern: false,
    },
    Front {
        file: "06_wikimedia_ford_check_1975.png",
        raw: "⑆0540⑉0004⑆⑈1406116⑈⑇0000002500⑇",
        routing: Some("0540-0004"),
        aba: false,
        account: Some("1406116"),
        check: None,
        modern: false,
    },
    Front {
        file: "07_tmannherz_check1_deluxe_sample.jpg",
        raw: "⑆000067894⑆12345678⑈0101",
        routing: Some("000067894"),
        aba: true,
        account: Some("12345678"),
        check: Some("0101"),
        modern: true,
    },
    Front {
        file: "08_tmannherz_check2_blank.jpg",
        raw: "⑆000000186⑆000000529⑈1000",
        routing: Some("000000186"),
        aba: false,
        account: Some("000000529"),
        check: Some("1000"),
        modern: true,
    },
];

impl Front {
    /// Whether a line read says what this front's does: a modern US line its routing number,
    /// account (where not blacked out) and check number; the others the whole line.
    pub fn read_exactly(&self, raw: &str, routing: Option<&str>, account: Option<&str>, check: Option<&str>) -> bool {
        if self.modern {
            routing == self.routing && (self.account.is_none() || account == self.account) && check == self.check
        } else {
            raw == self.raw
        }
    }
}
