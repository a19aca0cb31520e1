//! The settings read from a file and the variables, and the errors that name a bad one.

use super::values::parse_size;
use super::*;
use std::collections::HashMap;

fn cfg(vars: &[(&str, &str)]) -> anyhow::Result<Config> {
    let map: HashMap<String, String> = vars.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    Config::from_lookup(|k| map.get(k).cloned())
}

#[test]
fn defaults() {
    let c = cfg(&[]).unwrap();
    assert_eq!(c.addr.to_string(), "127.0.0.1:8080");
    assert_eq!(c.database_url, "sqlite://./data/moneydesk.db");
    assert_eq!(c.dist_dir, Some(PathBuf::from("./dist")));
    assert!(c.cors_origins.is_empty() && c.seed_demo);
    assert_eq!(c.body_limit, 32 * 1024 * 1024);
}

#[test]
fn env_wins_over_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("m.toml");
    std::fs::write(
        &file,
        "addr = \"0.0.0.0:9000\"\ncors_origins = [\"http://a.test\"]\nbody_limit = \"1MiB\"\nseed_demo = false\n",
    )
    .unwrap();
    let c = cfg(&[("MONEYDESK_CONFIG", file.to_str().unwrap()), ("MONEYDESK_ADDR", "127.0.0.1:9001")]).unwrap();
    assert_eq!(c.addr.to_string(), "127.0.0.1:9001");
    assert_eq!(c.cors_origins, vec!["http://a.test"]);
    assert_eq!(c.body_limit, 1024 * 1024);
    assert!(!c.seed_demo);
    std::fs::write(&file, "adress = \"x\"\n").unwrap();
    assert!(format!("{:#}", cfg(&[("MONEYDESK_CONFIG", file.to_str().unwrap())]).unwrap_err()).contains("adress"));
}

#[test]
fn bad_values_say_which() {
    assert!(format!("{:#}", cfg(&[("MONEYDESK_ADDR", "localhost")]).unwrap_err()).contains("MONEYDESK_ADDR"));
    assert!(format!("{:#}", cfg(&[("MONEYDESK_CORS_ORIGINS", "http://a.test/path")]).unwrap_err())
        .contains("not an origin"));
    assert!(format!("{:#}", cfg(&[("MONEYDESK_BODY_LIMIT", "12XB")]).unwrap_err()).contains("unit"));
    let c = cfg(&[("MONEYDESK_CORS_ORIGINS", " http://a.test/, https://b.test:8443 ")]).unwrap();
    assert_eq!(c.cors_origins, vec!["http://a.test", "https://b.test:8443"]);
    assert_eq!(parse_size("512KiB").unwrap(), 512 * 1024);
    assert!(format!("{:#}", cfg(&[("MONEYDESK_KEEP_ALIVE_TIMEOUT", "10 parsecs")]).unwrap_err())
        .contains("MONEYDESK_KEEP_ALIVE_TIMEOUT"));
    assert!(
        format!("{:#}", cfg(&[("MONEYDESK_MAX_CONNECTIONS", "0")]).unwrap_err()).contains("MONEYDESK_MAX_CONNECTIONS")
    );
}

#[test]
fn connection_limits_and_token_cache_ttl_are_settings() {
    let c = cfg(&[]).unwrap();
    assert_eq!(c.limits, crate::serve::Limits::default());
    assert_eq!(c.token_cache_ttl, DEFAULT_TOKEN_CACHE_TTL);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("m.toml");
    std::fs::write(&file, "header_read_timeout = 5\nkeep_alive_timeout = \"2m\"\nmax_connections = 64\n").unwrap();
    let c = cfg(&[("MONEYDESK_CONFIG", file.to_str().unwrap()), ("MONEYDESK_TOKEN_CACHE_TTL", "50ms")]).unwrap();
    assert_eq!(c.limits.header_read_timeout, Duration::from_secs(5));
    assert_eq!(c.limits.keep_alive_timeout, Duration::from_secs(120));
    assert_eq!(c.limits.max_connections, 64);
    assert_eq!(c.token_cache_ttl, Duration::from_millis(50));
}
