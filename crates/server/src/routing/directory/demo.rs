//! The embedded default directory: fictional institutions with valid checksums, written in
//! the Fed's fixed-width layouts and read by the same parser as real files. It shows every
//! case the portal explains: a Federal Reserve Bank (record type 0), a replaced number
//! (type 2 with its new number), branches, a settlement-only wire participant, a blank wire
//! change date, ACH-only and wire-only institutions. Phone numbers are in the fictional
//! 555-01xx range. Point the server at the Fed's files with MONEYDESK_FEDACH_FILE and
//! MONEYDESK_FEDWIRE_FILE (see the README).

use moneydesk_model::routing::check_digit;

struct Inst {
    /// The first eight digits; the ninth is computed.
    first8: &'static str,
    name: &'static str,
    telegraphic: &'static str,
    address: &'static str,
    city: &'static str,
    state: &'static str,
    zip: &'static str,
    area: &'static str,
    /// A: ACH only, W: wire only, B: both.
    r#in: char,
}

#[rustfmt::skip]
const INSTITUTIONS: &[Inst] = &[
    Inst { first8: "02109001", name: "DEMO FEDERAL RESERVE BANK", telegraphic: "DEMO FRB", address: "1 RESERVE PLAZA", city: "NEW YORK", state: "NY", zip: "10045", area: "212", r#in: 'B' },
    Inst { first8: "02109002", name: "ACME COMMUNITY BANK, N.A.", telegraphic: "ACME COMM NY", address: "100 MAIN STREET", city: "NEW YORK", state: "NY", zip: "10001", area: "212", r#in: 'B' },
    Inst { first8: "01109003", name: "HARBOR & PINE SAVINGS BANK", telegraphic: "HARBOR PINE", address: "22 WHARF ROAD", city: "BOSTON", state: "MA", zip: "02110", area: "617", r#in: 'B' },
    Inst { first8: "09109004", name: "MAPLE RIVER FEDERAL CREDIT UNION", telegraphic: "MAPLE RIVER FCU", address: "500 NICOLLET MALL", city: "MINNEAPOLIS", state: "MN", zip: "55401", area: "612", r#in: 'A' },
    Inst { first8: "10209005", name: "BLUE MESA NATIONAL BANK", telegraphic: "BLUE MESA NB", address: "1600 LARIMER ST", city: "DENVER", state: "CO", zip: "80202", area: "303", r#in: 'B' },
    Inst { first8: "07309006", name: "PRAIRIE STATE BANK & TRUST", telegraphic: "PRAIRIE ST B&T", address: "800 WALNUT ST", city: "DES MOINES", state: "IA", zip: "50309", area: "515", r#in: 'B' },
    Inst { first8: "01129007", name: "LIGHTHOUSE COAST BANK", telegraphic: "LIGHTHOUSE COAST", address: "45 COMMERCIAL ST", city: "PORTLAND", state: "ME", zip: "04101", area: "207", r#in: 'A' },
    Inst { first8: "12109008", name: "GOLDEN GATE MUTUAL SAVINGS", telegraphic: "GOLDEN GATE MUT", address: "333 MARKET STREET", city: "SAN FRANCISCO", state: "CA", zip: "94105", area: "415", r#in: 'B' },
    Inst { first8: "04309009", name: "IRONWOOD TRUST COMPANY", telegraphic: "IRONWOOD TR", address: "600 GRANT STREET", city: "PITTSBURGH", state: "PA", zip: "15222", area: "412", r#in: 'W' },
    Inst { first8: "05309010", name: "CEDAR HOLLOW FCU", telegraphic: "CEDAR HOLLOW", address: "12 BROADWAY", city: "ASHEVILLE", state: "NC", zip: "28801", area: "828", r#in: 'A' },
    Inst { first8: "12409011", name: "SILVER LAKE BANK, N.A.", telegraphic: "SILVER LAKE NA", address: "50 SOUTH MAIN", city: "SALT LAKE CITY", state: "UT", zip: "84111", area: "801", r#in: 'B' },
    Inst { first8: "12209012", name: "RED ROCK COMMUNITY CREDIT UNION", telegraphic: "RED ROCK CCU", address: "2 CANYON DRIVE", city: "SEDONA", state: "AZ", zip: "86336", area: "928", r#in: 'A' },
    Inst { first8: "09119013", name: "NORTHSTAR FARMERS BANK", telegraphic: "NORTHSTAR FARMERS", address: "300 BROADWAY N", city: "FARGO", state: "ND", zip: "58102", area: "701", r#in: 'B' },
    Inst { first8: "11309014", name: "BAYOU CITY BANK", telegraphic: "BAYOU CITY", address: "910 TRAVIS ST", city: "HOUSTON", state: "TX", zip: "77002", area: "713", r#in: 'B' },
    Inst { first8: "06509015", name: "MAGNOLIA PEOPLE'S BANK", telegraphic: "MAGNOLIA PEOPLES", address: "200 CAPITOL ST", city: "JACKSON", state: "MS", zip: "39201", area: "601", r#in: 'A' },
    Inst { first8: "12509016", name: "EVERGREEN VALLEY BANK", telegraphic: "EVERGREEN VALLEY", address: "1201 THIRD AVE", city: "SEATTLE", state: "WA", zip: "98101", area: "206", r#in: 'B' },
    Inst { first8: "05109017", name: "TIDEWATER SAVINGS ASSN", telegraphic: "TIDEWATER SVGS", address: "150 GRANBY ST", city: "NORFOLK", state: "VA", zip: "23510", area: "757", r#in: 'A' },
    Inst { first8: "12209018", name: "CANYON RIDGE BANK & TRUST CO", telegraphic: "CANYON RIDGE B&T", address: "1 SOUTH CHURCH AVE", city: "TUCSON", state: "AZ", zip: "85701", area: "520", r#in: 'B' },
    Inst { first8: "08109019", name: "FIRST LANTERN NATIONAL BANK", telegraphic: "FIRST LANTERN", address: "700 MARKET ST", city: "ST. LOUIS", state: "MO", zip: "63101", area: "314", r#in: 'B' },
    Inst { first8: "11409020", name: "BLUEBONNET STATE BANK", telegraphic: "BLUEBONNET ST BK", address: "100 CONGRESS AVE", city: "AUSTIN", state: "TX", zip: "78701", area: "512", r#in: 'A' },
    Inst { first8: "04209021", name: "HIGHLAND MEADOWS BANK", telegraphic: "HIGHLAND MEADOWS", address: "250 W MAIN ST", city: "LEXINGTON", state: "KY", zip: "40507", area: "859", r#in: 'B' },
    Inst { first8: "06609022", name: "SEAGLASS FEDERAL SAVINGS BANK", telegraphic: "SEAGLASS FSB", address: "200 S BISCAYNE BLVD", city: "MIAMI", state: "FL", zip: "33131", area: "305", r#in: 'B' },
    Inst { first8: "01169023", name: "QUARRY HILL CREDIT UNION", telegraphic: "QUARRY HILL CU", address: "9 MAIN ST", city: "BARRE", state: "VT", zip: "05641", area: "802", r#in: 'A' },
    Inst { first8: "01149024", name: "GRANITE PEAK BANK", telegraphic: "GRANITE PEAK", address: "10 N MAIN ST", city: "CONCORD", state: "NH", zip: "03301", area: "603", r#in: 'B' },
    Inst { first8: "10119025", name: "SUNFLOWER PLAINS BANK", telegraphic: "SUNFLOWER PLAINS", address: "125 N MARKET", city: "WICHITA", state: "KS", zip: "67202", area: "316", r#in: 'B' },
    Inst { first8: "02609026", name: "DEMO SETTLEMENT SERVICES", telegraphic: "DEMO SETTLEMENT", address: "", city: "NEW YORK", state: "NY", zip: "10004", area: "212", r#in: 'W' },
    Inst { first8: "07109027", name: "LAKESHORE MERCHANTS BANK", telegraphic: "LAKESHORE MERCH", address: "135 S LASALLE ST", city: "CHICAGO", state: "IL", zip: "60603", area: "312", r#in: 'B' },
    Inst { first8: "07109028", name: "LAKESHORE MERCHANTS BANK", telegraphic: "LAKESHORE MERCH 2", address: "10 N WACKER DR", city: "CHICAGO", state: "IL", zip: "60606", area: "312", r#in: 'A' },
];

/// The first eight digits of the number Prairie State Bank & Trust used before (record type 2).
const REPLACED_FIRST8: &str = "07309099";

pub fn routing_number(first8: &str) -> String {
    let mut d = [0u8; 8];
    for (i, b) in first8.bytes().enumerate() {
        d[i] = b - b'0';
    }
    format!("{first8}{}", check_digit(&d))
}

fn pad(s: &str, w: usize) -> String {
    format!("{s:<w$}")
}

// One argument per column group of the layout: clearer here than a struct.
#[allow(clippy::too_many_arguments)]
fn ach_line(
    rn: &str,
    office: char,
    frb: &str,
    kind: char,
    date: &str,
    new_rn: &str,
    i: &Inst,
    suffix: usize,
) -> String {
    let (zip_ext, phone) = ("0001", format!("555{:04}", 100 + suffix % 100));
    let line = format!(
        "{rn}{office}{frb}{kind}{date}{new_rn}{}{}{}{}{}{zip_ext}{}{phone}11     ",
        pad(i.name, 36),
        pad(i.address, 36),
        pad(i.city, 20),
        i.state,
        i.zip,
        i.area
    );
    debug_assert_eq!(line.len(), 155, "{line}");
    line
}

/// The demo FedACH directory in the fixed-width layout.
pub fn fedach() -> String {
    let frb = routing_number(INSTITUTIONS[0].first8);
    let mut out = String::new();
    for (n, i) in INSTITUTIONS.iter().enumerate().filter(|(_, i)| i.r#in != 'W') {
        let rn = routing_number(i.first8);
        let (kind, frb) = if n == 0 { ('0', rn.as_str()) } else { ('1', frb.as_str()) };
        // The second Lakeshore number is a branch of the first.
        let office = if i.first8 == "07109028" { 'B' } else { 'O' };
        let date = format!("{:02}{:02}25", 1 + n % 9, 1 + n % 28);
        out.push_str(&ach_line(&rn, office, frb, kind, &date, "000000000", i, n));
        out.push_str("\r\n");
    }
    // Type 2: the old number, pointing at Prairie State's current one.
    let prairie = INSTITUTIONS.iter().find(|i| i.first8 == "07309006").expect("prairie");
    out.push_str(&ach_line(
        &routing_number(REPLACED_FIRST8),
        'O',
        &frb,
        '2',
        "100125",
        &routing_number(prairie.first8),
        prairie,
        99,
    ));
    out.push_str("\r\n");
    out
}

/// The demo Fedwire Funds directory in the fixed-width layout.
pub fn fedwire() -> String {
    let mut out = String::new();
    for (n, i) in INSTITUTIONS.iter().enumerate().filter(|(_, i)| i.r#in != 'A') {
        let settlement = if i.first8 == "02609026" { 'S' } else { ' ' };
        let securities = if n % 3 == 0 { 'Y' } else { 'N' };
        // Some wire records carry no change date (eight spaces), as in the Fed's files.
        let date = if n % 4 == 1 { "        ".to_string() } else { format!("2025{:02}{:02}", 1 + n % 9, 1 + n % 28) };
        let line = format!(
            "{}{}{}{}{}Y{settlement}{securities}{date}",
            routing_number(i.first8),
            pad(i.telegraphic, 18),
            pad(i.name, 36),
            i.state,
            pad(i.city, 25)
        );
        debug_assert_eq!(line.len(), 101, "{line}");
        out.push_str(&line);
        out.push_str("\r\n");
    }
    out
}
