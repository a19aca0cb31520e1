//! The typo check: a domain one slip from a common mail domain (`gmial.com` → `gmail.com`,
//! `hotmail.con` → `hotmail.com`). Distances are optimal string alignment (a swap of two
//! neighbours is one edit, the commonest slip), from `strsim`.
//!
//! Short domains are where real domains sit one edit apart (`me.com`, `mx.com`), so a
//! suggestion needs a domain of at least 8 characters for one edit and 14 for two, or the
//! same name with a mistyped `.com`. Two edits at 11 characters turned `yopmail.com` (a
//! real, disposable, service) into `ymail.com`. A listed domain is never "corrected".

/// Mail domains people type most, each its own correct spelling.
const COMMON: &[&str] = &[
    "aol.com",
    "att.net",
    "bellsouth.net",
    "btinternet.com",
    "charter.net",
    "comcast.net",
    "cox.net",
    "earthlink.net",
    "facebook.com",
    "free.fr",
    "gmail.com",
    "gmx.com",
    "gmx.de",
    "gmx.net",
    "googlemail.com",
    "hotmail.co.uk",
    "hotmail.com",
    "hotmail.de",
    "hotmail.fr",
    "hotmail.it",
    "icloud.com",
    "laposte.net",
    "live.com",
    "live.co.uk",
    "mac.com",
    "mail.com",
    "mail.ru",
    "me.com",
    "msn.com",
    "orange.fr",
    "outlook.com",
    "outlook.de",
    "proton.me",
    "protonmail.com",
    "qq.com",
    "rocketmail.com",
    "sbcglobal.net",
    "sky.com",
    "t-online.de",
    "verizon.net",
    "wanadoo.fr",
    "web.de",
    "yahoo.ca",
    "yahoo.co.uk",
    "yahoo.com",
    "yahoo.de",
    "yahoo.fr",
    "yandex.ru",
    "ymail.com",
    "zoho.com",
];

/// How `.com` gets mistyped.
const COM_SLIPS: &[&str] = &["con", "cmo", "cm", "om", "vom", "xom", "comm", "ocm", "cpm", "co", "c0m", "coom"];

/// The common domain `domain` (ASCII, lowercase) is probably a slip of, if any.
///
/// ```
/// use moneydesk_server::email::validation::typo::suggest;
/// assert_eq!(suggest("gmial.com"), Some("gmail.com"));
/// assert_eq!(suggest("hotmail.con"), Some("hotmail.com"));
/// assert_eq!(suggest("yahooo.com"), Some("yahoo.com"));
/// assert_eq!(suggest("gmail.com"), None);
/// assert_eq!(suggest("ymail.com"), None, "a common domain of its own");
/// assert_eq!(suggest("mx.com"), None, "too short to guess");
/// assert_eq!(suggest("yopmail.com"), None, "two edits from ymail.com, and a service of its own");
/// assert_eq!(suggest("googlemial.com"), Some("googlemail.com"));
/// assert_eq!(suggest("bank.example"), None);
/// ```
pub fn suggest(domain: &str) -> Option<&'static str> {
    if COMMON.contains(&domain) {
        return None;
    }
    if let Some((name, tld)) = domain.rsplit_once('.') {
        if COM_SLIPS.contains(&tld) {
            if let Some(c) = COMMON.iter().find(|c| c.strip_suffix(".com") == Some(name)) {
                return Some(c);
            }
        }
    }
    let allowed = match domain.len() {
        0..=7 => return None,
        8..=13 => 1,
        _ => 2,
    };
    COMMON
        .iter()
        .map(|c| (strsim::osa_distance(domain, c), *c))
        .filter(|(d, _)| *d <= allowed)
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}
