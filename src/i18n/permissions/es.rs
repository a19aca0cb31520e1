//! The Permissions page in Spanish.

use super::Permissions;

pub const TEXT: Permissions = Permissions {
    heading: "Permisos",
    intro: "Qué usuarios de la empresa tienen qué permiso, quién lo concedió y cuándo.",
    caption: "Permisos de los usuarios de la empresa",
    noun: ("permiso", "permisos"),
    columns: [
        "Id",
        "Usuario",
        "Id de usuario",
        "Correo",
        "Empresa",
        "Id de empresa",
        "Permiso",
        "Concedido por",
        "Concedido",
    ],
    user_filter_hint: "id, nombre o correo",
    company_filter_hint: "p. ej. cmp_003",
};
