//! The Permissions page in English.

use super::Permissions;

pub const TEXT: Permissions = Permissions {
    heading: "Permissions",
    intro: "Which company users hold which permission, who granted it and when.",
    caption: "Company user permissions",
    noun: ("permission", "permissions"),
    columns: ["Id", "User", "User id", "Email", "Company", "Company id", "Permission", "Granted by", "Granted"],
    user_filter_hint: "id, name or email",
    company_filter_hint: "e.g. cmp_003",
};
