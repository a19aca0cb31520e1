//! The server's integration tests, one binary: each file a module (its name filters it:
//! `cargo test -p moneydesk-server --test server deposits::`). One binary links the server once
//! instead of once a file (68 links of ~450 MB each before), and its tests share one PostgreSQL
//! cluster and one S3 server (`common/`), started by the first test that asks.

#[path = "../common/mod.rs"]
#[macro_use]
mod common;
mod audit_matrix_support;
mod collections_support;
mod email_inbound_support;
mod vault_support;
mod webhooks_support;

mod accounts;
mod accounts_filters;
mod accounts_import;
mod audit;
mod audit_matrix;
mod auth;
mod auth_matrix;
mod blobs_s3;
mod cash_letters;
mod cash_letters_crash;
mod connections;
mod deposit_returns;
mod deposits;
mod deposits_bulk;
mod deposits_checks;
mod deposits_description;
mod deposits_electronic;
mod deposits_paging;
mod deposits_scan;
mod description;
mod email;
mod email_bounces;
mod email_bulk;
mod email_config_file;
mod email_crash;
mod email_delivery;
mod email_domains;
mod email_inbound;
mod email_resend;
mod email_suppressions;
mod email_tls;
mod email_validation;
mod envelope;
mod error_paths;
mod events;
mod events_groups;
mod events_money;
mod fees;
mod fees_document;
mod fees_payers;
mod generated_client;
mod http;
mod idempotency;
mod instances;
mod instances_groups;
mod ledger;
mod ledger_crash;
mod ledger_holds;
mod ledger_instances;
mod ledger_properties;
mod ledger_reconciliation;
mod list_counts;
mod overview;
mod permissions;
mod queue;
mod routing;
mod routing_files;
mod routing_refresh;
mod routing_search;
mod schemathesis;
mod scopes;
mod search;
mod static_files;
mod stores;
mod token_cli;
mod tokens;
mod vault;
mod vault_bulk;
mod vault_crash;
mod vault_paging;
mod vault_trash;
mod views;
mod webhooks;
mod webhooks_fairness;
