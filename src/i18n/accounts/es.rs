//! The Accounts page in Spanish.

use super::Accounts;

pub const TEXT: Accounts = Accounts {
    heading: "Cuentas",
    intro: "Todas las cuentas unificadas. Ordena por el encabezado de una columna, filtra encima de la tabla y selecciona una fila para ver todos sus campos.",
    caption: "Cuentas",
    noun: ("cuenta", "cuentas"),
    columns: [
        "Id de cuenta", "Nombre", "Número de cuenta", "Tipo", "Estado", "Saldo contable", "Saldo disponible",
        "Bajo cero", "Creada", "Entidad comercial", "Correo", "Número de subruta", "Nombre de subruta",
        "Cuenta principal", "TIN", "Id de tipo de registro", "Calle de facturación", "Ciudad de facturación",
        "Estado de facturación", "Código postal de facturación", "País de facturación", "Calle postal",
        "Ciudad postal", "Estado postal", "Código postal", "País postal",
    ],
    name_hint: "contiene…",
    created_from: "Creada desde",
    created_to: "Creada hasta",
    flags: &[("below_zero", "Bajo cero")],
};
