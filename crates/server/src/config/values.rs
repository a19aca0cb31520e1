//! One setting's text read as its value (a duration, a size, a switch, a count, an origin), each
//! error naming what it expected and what it got: the variable's or the file key's name is
//! added by the caller (`Config::from_lookup`).

use std::time::Duration;

use anyhow::{bail, Context};

/// A duration setting: the variable (`10s`, `500ms`, `2m`, or bare seconds) wins over the
/// file's key (the same text, or an integer number of seconds).
pub(super) fn duration(
    var: &impl Fn(&str) -> Option<String>,
    name: &str,
    file: Option<toml::Value>,
) -> anyhow::Result<Option<Duration>> {
    let key = name.trim_start_matches("MONEYDESK_").to_ascii_lowercase();
    match (var(name), file) {
        (Some(v), _) => parse_duration(&v).map(Some).context(name.to_string()),
        (None, Some(toml::Value::Integer(n))) if n > 0 => Ok(Some(Duration::from_secs(n as u64))),
        (None, Some(toml::Value::String(s))) => {
            parse_duration(&s).map(Some).with_context(|| format!("{key} in MONEYDESK_CONFIG"))
        }
        (None, Some(other)) => {
            bail!(
                "{key} in MONEYDESK_CONFIG must be a positive number of seconds or a string like \"10s\"; got {other}"
            )
        }
        (None, None) => Ok(None),
    }
}

/// A size setting: the variable `name`, else the file's key (a number of bytes or a string
/// like `"32MiB"`); `None` when neither is set.
pub(super) fn size(
    var: &impl Fn(&str) -> Option<String>,
    name: &str,
    file: Option<toml::Value>,
) -> anyhow::Result<Option<usize>> {
    let key = name.trim_start_matches("MONEYDESK_").to_ascii_lowercase();
    match (var(name), file) {
        (Some(v), _) => parse_size(&v).map(Some).context(name.to_string()),
        (None, Some(toml::Value::Integer(n))) if n > 0 => Ok(Some(n as usize)),
        (None, Some(toml::Value::String(s))) => {
            parse_size(&s).map(Some).with_context(|| format!("{key} in MONEYDESK_CONFIG"))
        }
        (None, Some(other)) => {
            bail!(
                "{key} in MONEYDESK_CONFIG must be a positive number of bytes or a string like \"32MiB\"; got {other}"
            )
        }
        (None, None) => Ok(None),
    }
}

/// `10s`, `500ms`, `2m`, `1h` or a bare number of seconds; positive.
pub fn parse_duration(v: &str) -> anyhow::Result<Duration> {
    let (n, unit) = number_and_unit(v, "duration must be a number with a unit like 10s, 500ms or 2m")?;
    let n = n as u64;
    let d = match unit {
        "" | "s" => Duration::from_secs(n),
        "ms" => Duration::from_millis(n),
        "m" | "min" => Duration::from_secs(n.saturating_mul(60)),
        "h" => Duration::from_secs(n.saturating_mul(3600)),
        other => bail!("unknown duration unit {other:?} in {v:?}; use ms, s, m or h"),
    };
    if d.is_zero() {
        bail!("duration must be positive, got {v:?}");
    }
    Ok(d)
}

/// `12MiB` → (12, "MiB"): the leading digits and the unit after them (spaces trimmed).
fn number_and_unit<'a>(v: &'a str, expected: &str) -> anyhow::Result<(usize, &'a str)> {
    let t = v.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (digits, unit) = t.split_at(split);
    let n = digits.parse().map_err(|_| anyhow::anyhow!("{expected}, got {v:?}"))?;
    Ok((n, unit.trim()))
}

/// A whole number from 1 up: the variable wins over the file, else the default.
pub(super) fn positive(var: Option<String>, file: Option<u32>, default: u32) -> anyhow::Result<u32> {
    let n = match var {
        Some(v) => {
            v.trim().parse::<u32>().map_err(|_| anyhow::anyhow!("must be a whole number from 1 up, got {v:?}"))?
        }
        None => file.unwrap_or(default),
    };
    if n == 0 {
        bail!("must be a whole number from 1 up, got 0");
    }
    Ok(n)
}

pub(super) fn parse_bool(name: &str, v: &str) -> anyhow::Result<bool> {
    match v.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Ok(true),
        "0" | "false" | "no" | "off" => Ok(false),
        _ => bail!("{name} must be true or false, got {v:?}"),
    }
}

/// `1048576`, `512KiB`, `32MiB`, `1GiB` (also `KB`/`MB`/`GB`, read as powers of 1024).
pub fn parse_size(v: &str) -> anyhow::Result<usize> {
    let (n, unit) = number_and_unit(v, "size must be a number of bytes like 33554432 or 32MiB")?;
    let mult = match unit.to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1024,
        "m" | "mb" | "mib" => 1024 * 1024,
        "g" | "gb" | "gib" => 1024 * 1024 * 1024,
        other => bail!("unknown size unit {other:?} in {v:?}; use KiB, MiB or GiB"),
    };
    match n.checked_mul(mult) {
        Some(0) | None => bail!("size must be positive and fit in memory, got {v:?}"),
        Some(b) => Ok(b),
    }
}

/// An origin as browsers send it: `scheme://host[:port]`, no path, no trailing slash.
pub(super) fn normalise_origin(o: &str) -> anyhow::Result<String> {
    let trimmed = o.trim().trim_end_matches('/');
    let url = url::Url::parse(trimmed)
        .with_context(|| format!("MONEYDESK_CORS_ORIGINS: {o:?} is not an origin like https://example.com"))?;
    let origin = url.origin().ascii_serialization();
    if origin != trimmed || !matches!(url.scheme(), "http" | "https") {
        bail!("MONEYDESK_CORS_ORIGINS: {o:?} is not an origin like https://example.com (scheme, host and optional port only)");
    }
    Ok(origin)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_and_sizes_are_read_with_their_units() {
        assert_eq!(parse_duration("500ms").unwrap(), Duration::from_millis(500));
        assert_eq!(parse_duration(" 2m ").unwrap(), Duration::from_secs(120));
        assert_eq!(parse_duration("10").unwrap(), Duration::from_secs(10));
        assert!(parse_duration("0s").unwrap_err().to_string().contains("positive"));
        assert!(parse_duration("3 weeks").unwrap_err().to_string().contains("unknown duration unit"));
        assert_eq!(parse_size("32MiB").unwrap(), 32 << 20);
        assert!(parse_size("0").unwrap_err().to_string().contains("positive"));
        assert!(parse_size(&format!("{}GiB", usize::MAX)).unwrap_err().to_string().contains("fit in memory"));
    }

    #[test]
    fn switches_counts_and_origins_say_what_they_expected() {
        assert!(parse_bool("MONEYDESK_X", " On ").unwrap());
        assert!(parse_bool("MONEYDESK_X", "maybe")
            .unwrap_err()
            .to_string()
            .contains("MONEYDESK_X must be true or false"));
        assert_eq!(positive(None, Some(3), 1).unwrap(), 3, "the file's, without the variable");
        assert_eq!(positive(Some("5".into()), Some(3), 1).unwrap(), 5, "the variable wins");
        assert!(positive(Some("0".into()), None, 1).unwrap_err().to_string().contains("from 1 up"));
        assert_eq!(normalise_origin("https://a.test:8443/").unwrap(), "https://a.test:8443");
        assert!(normalise_origin("ftp://a.test").unwrap_err().to_string().contains("not an origin"));
    }
}
