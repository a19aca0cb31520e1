//! Small components shared by the pages.

pub mod data_table;
pub mod download;
pub mod drawer;
pub mod error_view;
pub mod guard;
pub mod layout;
pub mod loading;
pub mod placeholder;
pub mod toasts;
