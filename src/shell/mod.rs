//! The portal's frame around the pages, beside `app.rs`: the signed-in layout (navigation,
//! theme, sign-out), and the scope guard in front of a page.

pub mod guard;
pub mod layout;
