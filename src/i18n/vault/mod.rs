//! The Document vault page's words (with the page, in its chunk). A `{}` is filled in turn by
//! `crate::i18n::fill`; a count's noun is a pair (one, many), as `paths::count` takes it.

pub mod en;
pub mod es;

use super::pick;

pub struct Vault {
    pub heading: &'static str,
    pub hint_writer: &'static str,
    pub hint_reader: &'static str,
    pub loading: &'static str,
    pub cancel: &'static str,
    pub download: &'static str,
    /// The root folder's name (breadcrumbs, tree, move target).
    pub vault: &'static str,
    /// The folder's path, why.
    pub folder_not_created: &'static str,
    /// A linked file that is gone (landing.rs): its name, its folder (or `top_folder`).
    pub gone: &'static str,
    pub top_folder: &'static str,
    // Counts' nouns.
    pub entry: (&'static str, &'static str),
    pub folder: (&'static str, &'static str),
    pub file: (&'static str, &'static str),
    pub item: (&'static str, &'static str),
    pub version: (&'static str, &'static str),
    /// User, folders, files, versions, size, size stored.
    pub usage: &'static str,
    // Above the listing (head.rs, tree.rs).
    pub user: &'static str,
    pub open_vault: &'static str,
    pub crumbs_label: &'static str,
    pub toolbar_label: &'static str,
    pub new_folder: &'static str,
    pub upload_files: &'static str,
    pub name_needed: &'static str,
    pub folder_created: &'static str,
    pub folder_name: &'static str,
    pub create: &'static str,
    pub tree_label: &'static str,
    pub subfolders_of: &'static str,
    // The listing (listing.rs).
    /// Name, size, modified.
    pub sorts: [&'static str; 3],
    pub empty_writer: &'static str,
    pub empty: &'static str,
    /// The bulk bar's noun for what is selected.
    /// The records' noun, (one, many).
    pub noun: (&'static str, &'static str),
    pub contents_label: &'static str,
    pub versions: &'static str,
    pub bulk_outcome: &'static str,
    /// The count of entries, the page, the pages.
    pub pager: &'static str,
    pub previous: &'static str,
    pub next: &'static str,
    pub select: &'static str,
    pub zip_folder: &'static str,
    pub zip_all: &'static str,
    pub zip_some: &'static str,
    pub move_dots: &'static str,
    pub delete_dots: &'static str,
    // The dialogs (dialogs.rs): the bulk actions' button and what was done.
    pub move_action: (&'static str, &'static str),
    pub delete_action: (&'static str, &'static str),
    pub move_all: &'static str,
    pub move_one: &'static str,
    pub move_many: &'static str,
    pub already_here: &'static str,
    pub into: &'static str,
    pub top_level: &'static str,
    pub target_folder: &'static str,
    pub folders_here: &'static str,
    pub no_folders: &'static str,
    pub into_itself: &'static str,
    pub move_here: &'static str,
    pub delete_all: &'static str,
    pub delete_one: &'static str,
    pub delete_many: &'static str,
    pub counting: &'static str,
    pub count_failed: &'static str,
    /// Folders, files, versions, size.
    pub will_delete: &'static str,
    pub move_to_trash: &'static str,
    /// The archive's suggested names: the folder's selection, the user's documents.
    pub selection_name: &'static str,
    pub documents_name: &'static str,
    pub everything: &'static str,
    pub everything_in: &'static str,
    pub downloaded: &'static str,
    pub zip_title: &'static str,
    pub archive_name: &'static str,
    pub preparing: &'static str,
    // A file's drawer (file.rs).
    pub download_failed: &'static str,
    pub renamed: &'static str,
    pub preview_of: &'static str,
    pub version_n: &'static str,
    pub by: &'static str,
    pub download_version: &'static str,
    pub name: &'static str,
    pub rename: &'static str,
    pub restore_version: &'static str,
    /// The version (the button's label).
    pub restore_version_n: &'static str,
    /// The version restored, the new version's number.
    pub version_restored: &'static str,
    // The trash (trash.rs).
    pub trash: &'static str,
    pub back_to_vault: &'static str,
    pub trash_hint: &'static str,
    pub trash_empty: &'static str,
    /// Name, where it was, size, deleted, by, purged on.
    pub trash_columns: [&'static str; 6],
    pub restore: &'static str,
    /// The item's name.
    pub restore_title: &'static str,
    pub restore_to: &'static str,
    pub restore_to_hint: &'static str,
    /// The item's name, where it now is.
    pub restored: &'static str,
    pub delete_forever: &'static str,
    /// The item's name.
    pub delete_forever_title: &'static str,
    pub delete_forever_body: &'static str,
    pub deleted_forever: &'static str,
    pub empty_trash: &'static str,
    pub empty_trash_title: &'static str,
    /// The count of items.
    pub empty_trash_body: &'static str,
    pub emptied: &'static str,
    /// An item's action buttons' labels: the action, the item's name.
    pub item_action: &'static str,
    // Uploads (uploads.rs).
    pub unavailable: &'static str,
    pub uploads: &'static str,
    /// Finished, all, bytes sent, bytes in all.
    pub finished: &'static str,
    pub all_uploads: &'static str,
    pub cancel_all: &'static str,
    pub clear: &'static str,
    pub upload_of: &'static str,
    pub cancel_upload: &'static str,
    pub waiting: &'static str,
    /// Bytes sent of bytes in all.
    pub sending: &'static str,
    pub uploaded: &'static str,
    pub failed: &'static str,
    pub cancelled: &'static str,
}

pub fn text() -> &'static Vault {
    pick(&en::TEXT, &es::TEXT)
}
