//! Returned items' settings (environment only): the folder return files are dropped in.

use std::path::PathBuf;

/// Where return files are picked up (`deposits::returns::folder`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReturnsConfig {
    /// `MONEYDESK_RETURNS_DIR` (optional): every minute each file in it is read as an upload by
    /// `returns-folder`, then moved to `processed/` (or to `failed/` with a `.error.txt`
    /// beside it). Off when unset.
    pub dir: Option<PathBuf>,
}

impl ReturnsConfig {
    pub fn from_env(var: &impl Fn(&str) -> Option<String>) -> anyhow::Result<ReturnsConfig> {
        let dir = var("MONEYDESK_RETURNS_DIR").map(|v| v.trim().to_string()).filter(|v| !v.is_empty());
        if let Some(d) = &dir {
            anyhow::ensure!(
                !d.chars().any(char::is_control),
                "MONEYDESK_RETURNS_DIR must be a folder's path, got {d:?}"
            );
        }
        Ok(ReturnsConfig { dir: dir.map(PathBuf::from) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_folder_is_optional() {
        assert_eq!(ReturnsConfig::from_env(&|_| None).unwrap().dir, None);
        let env = |k: &str| (k == "MONEYDESK_RETURNS_DIR").then(|| " /srv/returns ".to_string());
        assert_eq!(ReturnsConfig::from_env(&env).unwrap().dir, Some(PathBuf::from("/srv/returns")));
    }
}
