//! The vault endpoints' `userId` (in the path) and `path` (in the query) parameters, documented
//! once: `params(VaultParams<Folder>, …)` in an operation's `#[utoipa::path]`.

use std::marker::PhantomData;

/// What [`super::UserId`] accepts.
pub const USER_ID_PATTERN: &str = "^[A-Za-z0-9._@-]{1,128}$";

/// A folder, the root included (`/` or empty): what [`super::VaultPath`] accepts.
pub const FOLDER_PATTERN: &str =
    r"^/?(?:(?!\.\.?(?:/|$))[^/\\\x00-\x1f\x7f-\x9f]+(?:/(?!\.\.?(?:/|$))[^/\\\x00-\x1f\x7f-\x9f]+)*)?/?$";

/// A file or a folder other than the root.
pub const ENTRY_PATTERN: &str =
    r"^/?(?!\.\.?(?:/|$))[^/\\\x00-\x1f\x7f-\x9f]+(?:/(?!\.\.?(?:/|$))[^/\\\x00-\x1f\x7f-\x9f]+)*/?$";

/// Which `path` an operation takes, if any.
pub trait VaultTarget {
    /// `(pattern, description)` of the `path` query parameter; `None` when there is none.
    const PATH: Option<(&'static str, &'static str)>;
}

/// No `path`: the vault as a whole (its usage).
pub enum Owner {}
/// `path` is a folder, the root included.
pub enum Folder {}
/// `path` is a file, or a folder other than the root.
pub enum Entry {}

impl VaultTarget for Owner {
    const PATH: Option<(&'static str, &'static str)> = None;
}

impl VaultTarget for Folder {
    const PATH: Option<(&'static str, &'static str)> =
        Some((FOLDER_PATTERN, "The folder, `/`-separated, relative to the vault root (`/` or empty for the root)"));
}

impl VaultTarget for Entry {
    const PATH: Option<(&'static str, &'static str)> =
        Some((ENTRY_PATTERN, "The file or folder, `/`-separated, relative to the vault root (not the root)"));
}

/// `userId` in the path, then `path` in the query as `T` says.
pub struct VaultParams<T: VaultTarget>(PhantomData<T>);

#[cfg(feature = "openapi")]
impl<T: VaultTarget> utoipa::IntoParams for VaultParams<T> {
    fn into_params(
        _: impl Fn() -> Option<utoipa::openapi::path::ParameterIn>,
    ) -> Vec<utoipa::openapi::path::Parameter> {
        use utoipa::openapi::path::{ParameterBuilder, ParameterIn};
        use utoipa::openapi::schema::{ObjectBuilder, Type};
        use utoipa::openapi::Required;

        let user = ParameterBuilder::new()
            .name("userId")
            .parameter_in(ParameterIn::Path)
            .description(Some("The vault's owner (a token reaches its own user's; `admin` any)"))
            .required(Required::True)
            .schema(Some(ObjectBuilder::new().schema_type(Type::String).pattern(Some(USER_ID_PATTERN))))
            .example(Some(serde_json::json!("usr_0001")))
            .build();
        let path = T::PATH.map(|(pattern, description)| {
            ParameterBuilder::new()
                .name("path")
                .parameter_in(ParameterIn::Query)
                .description(Some(description))
                .required(Required::True)
                .schema(Some(
                    ObjectBuilder::new()
                        .schema_type(Type::String)
                        .max_length(Some(super::MAX_PATH_BYTES))
                        .pattern(Some(pattern)),
                ))
                .build()
        });
        std::iter::once(user).chain(path).collect()
    }
}
