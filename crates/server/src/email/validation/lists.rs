//! The disposable-domain and role-address lists: built in (the `.txt` files beside this one),
//! extended or trimmed by a file of the operator's (`MONEYDESK_EMAIL_DISPOSABLE_DOMAINS`,
//! `MONEYDESK_EMAIL_ROLE_ADDRESSES`), which is read again whenever its modification time
//! changes: the list is updated by replacing that file, without a release or a restart.
//!
//! Format: one entry a line, `#` starts a comment, `!entry` removes a built-in entry.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

const DISPOSABLE: &str = include_str!("disposable-domains.txt");
const ROLES: &str = include_str!("role-addresses.txt");

/// One list: the built-in entries with the operator's file applied.
#[derive(Debug)]
pub struct List {
    builtin: &'static str,
    file: Option<PathBuf>,
    current: Mutex<(Option<SystemTime>, Arc<HashSet<String>>)>,
}

impl List {
    pub fn disposable_domains(file: Option<PathBuf>) -> List {
        List::new(DISPOSABLE, file)
    }

    pub fn role_addresses(file: Option<PathBuf>) -> List {
        List::new(ROLES, file)
    }

    fn new(builtin: &'static str, file: Option<PathBuf>) -> List {
        let list = List { builtin, file, current: Mutex::new((None, Arc::new(HashSet::new()))) };
        let entries = list.load(None);
        *list.current.lock().unwrap() = entries;
        list
    }

    /// The entries now (the file re-read when it changed since the last look).
    pub fn entries(&self) -> Arc<HashSet<String>> {
        let mut current = self.current.lock().unwrap();
        if let Some(path) = &self.file {
            let modified = std::fs::metadata(path).and_then(|m| m.modified()).ok();
            if modified != current.0 {
                *current = self.load(modified);
            }
        }
        current.1.clone()
    }

    fn load(&self, modified: Option<SystemTime>) -> (Option<SystemTime>, Arc<HashSet<String>>) {
        let mut set: HashSet<String> = entries(self.builtin).filter(|e| !e.starts_with('!')).collect();
        if let Some(path) = &self.file {
            match std::fs::read_to_string(path) {
                Ok(text) => {
                    for e in entries(&text) {
                        match e.strip_prefix('!') {
                            Some(removed) => set.remove(removed),
                            None => set.insert(e),
                        };
                    }
                }
                // Kept going on the built-in list: a list being replaced must not stop checks.
                Err(e) => tracing::warn!("{}: {e}; using the built-in list", path.display()),
            }
        }
        (
            modified.or_else(|| self.file.as_ref().and_then(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok())),
            Arc::new(set),
        )
    }

    /// Whether `domain` or a domain above it is listed (`x.mailinator.com` is disposable).
    pub fn has_domain(&self, domain: &str) -> Option<String> {
        let set = self.entries();
        let mut d = domain;
        loop {
            if set.contains(d) {
                return Some(d.to_string());
            }
            match d.split_once('.') {
                Some((_, parent)) if parent.contains('.') => d = parent,
                _ => return None,
            }
        }
    }

    /// Whether the local part (without case, without its `+tag`) is listed.
    pub fn has_local(&self, local: &str) -> Option<String> {
        let bare = local.split('+').next().unwrap_or(local).to_ascii_lowercase();
        self.entries().contains(&bare).then_some(bare)
    }
}

fn entries(text: &str) -> impl Iterator<Item = String> + '_ {
    text.lines().map(|l| l.split('#').next().unwrap_or("").trim().to_ascii_lowercase()).filter(|l| !l.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_subdomain_of_a_disposable_domain_is_disposable() {
        let list = List::disposable_domains(None);
        assert_eq!(list.has_domain("mailinator.com").as_deref(), Some("mailinator.com"));
        assert_eq!(list.has_domain("eu.mailinator.com").as_deref(), Some("mailinator.com"));
        assert_eq!(list.has_domain("bank.example"), None);
        assert_eq!(list.has_domain("com"), None);
    }

    #[test]
    fn a_role_is_found_without_case_or_tag() {
        let list = List::role_addresses(None);
        assert_eq!(list.has_local("Support+eu").as_deref(), Some("support"));
        assert_eq!(list.has_local("jane.doe"), None);
    }

    #[test]
    fn the_operators_file_adds_and_removes_and_is_read_again_when_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("disposable.txt");
        std::fs::write(&path, "# ours\nthrowaway.example\n!yopmail.com\n").unwrap();
        let list = List::disposable_domains(Some(path.clone()));
        assert!(list.has_domain("throwaway.example").is_some());
        assert!(list.has_domain("yopmail.com").is_none(), "taken out by the file");
        assert!(list.has_domain("mailinator.com").is_some(), "the rest of the built-in list stays");
        // Replaced with a later modification time: read again.
        std::fs::write(&path, "another.example\n").unwrap();
        let later = SystemTime::now() + std::time::Duration::from_secs(5);
        std::fs::File::options().write(true).open(&path).unwrap().set_modified(later).unwrap();
        assert!(list.has_domain("another.example").is_some());
        assert!(list.has_domain("throwaway.example").is_none());
        assert!(list.has_domain("yopmail.com").is_some());
    }
}
