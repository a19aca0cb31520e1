//! The Activity page in Spanish.

use super::Activity;

pub const TEXT: Activity = Activity {
    heading: "Actividad",
    intro: "Cada cambio hecho a través de la API, del más reciente al más antiguo: quién lo hizo, cuándo, desde dónde y qué cambió. Selecciona un registro para ver sus cambios, antes y después.",
    noun: ("registro", "registros"),
    columns: [
        "Hora", "Quién", "Operación", "Objeto", "Resultado", "Id de solicitud", "Registro", "Método", "Ruta",
        "Dirección del cliente", "Agente de usuario",
    ],
    from: "Desde",
    user: "Usuario",
    to: "Hasta",
    target_type: "Tipo de objeto",
    target_id: "Id de objeto",
    operation_hint: "p. ej. createCheckDeposit",
    target_type_hint: "p. ej. deposit",
    export_csv: "Exportar CSV",
    day: "Día",
    download_day: "Descargar el día (líneas JSON firmadas)",
    verifying: "Verificando la cadena…",
    verify_again: "Verificar de nuevo",
    one_unsealed: " 1 registro hecho en el último segundo aún no está encadenado.",
    unsealed: " {} registros hechos en el último segundo aún no están encadenados.",
    broken: "La cadena está rota en el registro {} ({}, seq {}): {}.{}",
    on_day: " el {}",
    from_to: " del {} al {}",
    purged: " {} días anteriores se eliminaron según la política de retención.",
    one_day: "1 día",
    days: "{} días",
    holds: "La cadena es íntegra: {} registros en {}{} verificados.{}{}",
    changes: "Cambios",
    chain: "Cadena",
    not_chained: "Aún no encadenado: el sellador encadena un registro en un segundo aproximadamente.",
    chain_fields: ["Seq", "Hash anterior", "Hash"],
};
