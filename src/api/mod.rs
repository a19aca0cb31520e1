//! The API, one module per group over one client (see `client.rs`).

pub mod auth;
pub mod client;
pub mod collections;
pub mod error;
pub mod fees;
pub mod routing;

pub use client::Client;
pub use error::ApiError;
