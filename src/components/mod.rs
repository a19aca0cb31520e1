//! Small widgets shared by the pages (the frame around them, the shell, is `crate::shell`).

pub mod data_table;
pub mod download;
pub mod drawer;
pub mod error_view;
pub mod list_bulk;
pub mod loading;
pub mod saved_views;
pub mod selection;
pub mod toasts;
