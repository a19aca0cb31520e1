//! What the paginated collections share: reading import files into records and checking
//! their fields (`records`, `fields`), the `import` command that hands a file to its group
//! (`accounts::import`, `permissions::import`), and the demo data set. Each collection's
//! router, store and import live in its group's folder (`crate::accounts`,
//! `crate::permissions`).

pub mod fields;
pub mod import;
pub mod records;
pub mod seed;
