//! The paginated collections' data: importing accounts and permissions from files, and the
//! demo set. (Their HTTP handlers are `http/accounts.rs` and `http/permissions.rs`; their
//! SQL is `storage/accounts.rs` and `storage/permissions.rs`.)

pub mod import;
pub mod records;
pub mod seed;
