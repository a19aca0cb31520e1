//! What the paginated collections share: reading import files into records and checking
//! their fields (`records`, `fields`), and the demo set's random source and names (`seed`).
//! Each collection's router, store, import and demo records live in its group's folder
//! (`crate::accounts`, `crate::permissions`); the `import` command is `crate::import`.
//! Nothing here imports a group: the groups import this.

pub mod fields;
pub mod records;
pub mod seed;
