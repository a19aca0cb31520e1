//! The routing group: the Fed's E-Payments Routing Directory served over HTTP. `handlers`
//! holds the group's router and endpoints; `directory` loads, indexes and searches the
//! FedACH and Fedwire files (nothing to do with HTTP request routing).

pub mod directory;
mod handlers;

pub use handlers::router;
