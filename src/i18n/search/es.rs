//! The search panel in Spanish.

use super::Search;

pub const TEXT: Search = Search {
    heading: "Buscar",
    close: "Cerrar la búsqueda",
    close_title: "Cerrar (Esc)",
    label: "Buscar en todo",
    placeholder: "Número de ruta, número de cheque, importe, nombre, correo…",
    results: "Resultados",
    idle: "Escribe un número de ruta, número de cheque, importe, id, nombre, dirección de correo o nombre de archivo.",
    searching: "Buscando…",
    nothing: "No se encontró nada para “{}”.",
    one: "1 resultado; Enter lo abre.",
    many: "{} resultados; muévete con las flechas, Enter abre.",
    more: "{} (más en la lista)",
};
