//! The Activity tab in Spanish.

use super::ActivityTab;

pub const TEXT: ActivityTab = ActivityTab {
    sections: "Secciones",
    details: "Detalles",
    activity: "Actividad",
    reading: "Leyendo la actividad…",
    none: "No hay actividad registrada.",
    newer: "Más recientes",
    older: "Anteriores",
    page_of: "Página {} de {}",
    no_changes: "No cambió ningún campo.",
    change_columns: ["Campo", "Antes", "Después"],
    the_server: "El servidor",
    token_n: "token {}",
};
