//! Checking an imported record's fields, field by field, collecting every problem (shared by
//! each group's import).

use moneydesk_model::collections::LocalDateTime;
use moneydesk_model::EmailAddress;

use super::records::{ImportError, Record};

/// A record's fields, collecting errors as they are read.
pub struct Fields<'a> {
    pub rec: &'a Record,
    pub errors: Vec<ImportError>,
}

impl<'a> Fields<'a> {
    pub fn err(&mut self, field: &str, message: impl Into<String>) {
        self.errors.push(ImportError::new(self.rec.line, Some(field), message));
    }

    /// Optional text: at most `max` characters, no control characters.
    pub fn text(&mut self, field: &str, max: usize) -> Option<String> {
        let v = self.rec.fields.get(field)?.trim();
        if v.chars().count() > max {
            self.err(field, format!("is longer than {max} characters"));
            None
        } else if v.chars().any(char::is_control) {
            self.err(field, "contains a control character");
            None
        } else {
            Some(v.to_string())
        }
    }

    pub fn required(&mut self, field: &str, max: usize) -> Option<String> {
        if self.rec.bad.iter().any(|b| b == field) {
            return None;
        }
        if !self.rec.fields.contains_key(field) {
            self.err(field, "is required");
            return None;
        }
        self.text(field, max)
    }

    pub fn check(
        &mut self,
        field: &str,
        value: Option<String>,
        ok: impl Fn(&str) -> Result<String, String>,
    ) -> Option<String> {
        let v = value?;
        match ok(&v) {
            Ok(v) => Some(v),
            Err(m) => {
                self.err(field, m);
                None
            }
        }
    }

    pub fn time(&mut self, field: &str) -> Option<LocalDateTime> {
        let v = self.text(field, 40)?;
        LocalDateTime::parse(&v).map_err(|e| self.err(field, e.to_string())).ok()
    }
}

pub fn digits(min: usize, max: usize) -> impl Fn(&str) -> Result<String, String> {
    move |v: &str| {
        if (min..=max).contains(&v.len()) && v.bytes().all(|b| b.is_ascii_digit()) {
            Ok(v.to_string())
        } else {
            Err(format!("must be {min} to {max} digits"))
        }
    }
}

pub fn ident(v: &str) -> Result<String, String> {
    if !v.is_empty() && v.len() <= 40 && v.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-') {
        Ok(v.to_string())
    } else {
        Err("must be 1 to 40 letters, digits, '_' or '-'".into())
    }
}

pub fn email(v: &str) -> Result<String, String> {
    EmailAddress::parse(v).map(|e| e.as_str().to_string()).map_err(|e| e.to_string())
}

/// Now, as a local date-time (an imported record without a time gets it).
pub fn now() -> LocalDateTime {
    LocalDateTime::from_millis(chrono::Utc::now().timestamp_millis())
}
