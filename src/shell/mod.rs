//! The portal's frame around the pages, beside `app.rs`: the signed-in layout (navigation,
//! theme, sign-out), the scope guard in front of a page and a group's placeholder page.

pub mod guard;
pub mod layout;
pub mod placeholder;
