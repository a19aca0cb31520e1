//! The shell in Spanish (its own chunk in the release build: `i18n::shell::load_spanish`).

use super::{GroupText, Groups, Shell};

pub const TEXT: Shell = Shell {
    brand: "Moneydesk",
    environment: "Entorno",
    signed_in_as: "Sesión iniciada como",
    sign_out: "Cerrar sesión",
    signed_out: "Sesión cerrada.",
    signed_out_host: "Sesión cerrada: se olvidó el token de la página anfitriona.",
    to_dark: "Cambiar al tema oscuro",
    to_light: "Cambiar al tema claro",
    menu: "Menú",
    sections: "Secciones",
    language: "Idioma",
    needs_scope: |scope| format!("Requiere el permiso {scope}"),
    to_sign_in: "Llevándote a la página de inicio de sesión…",
    checking_token: "Comprobando tu token…",
    language_failed: "No se pudo cargar el idioma; inténtalo de nuevo.",
    not_found: "Página no encontrada",
    no_page_at: "No hay ninguna página en",
    to_dashboard: "Ir al panel",
    groups: Groups {
        fees: GroupText {
            title: "Tarifas",
            summary: "Cotiza comisiones de ACH y transferencias; consulta los tramos de la tarifa.",
        },
        vault: GroupText {
            title: "Bóveda de documentos",
            summary: "Carpetas y archivos de un usuario: subir, mover, descargar, eliminar.",
        },
        email: GroupText {
            title: "Correo",
            summary: "Envía mensajes y síguelos; plantillas, verificación de direcciones, dominios de envío, correo entrante.",
        },
        routing: GroupText {
            title: "Números de ruta",
            summary: "Valida números de ruta y busca en el directorio.",
        },
        deposits: GroupText { title: "Depósitos de cheques", summary: "Crea, escanea y sigue depósitos de cheques." },
        cash_letters: GroupText {
            title: "Remesas de cheques",
            summary: "Envía los cheques del día como remesa de cheques X9; lee archivos X9.",
        },
        accounts: GroupText { title: "Cuentas", summary: "Pagina, ordena y busca entre las cuentas." },
        ledger: GroupText {
            title: "Libro mayor",
            summary: "Partidas devueltas de los archivos de devoluciones; la conciliación diaria de los libros.",
        },
        permissions: GroupText {
            title: "Permisos",
            summary: "Pagina entre los usuarios de la empresa y sus permisos.",
        },
        activity: GroupText {
            title: "Actividad",
            summary: "Cada cambio registrado y la verificación de la cadena.",
        },
        webhooks: GroupText {
            title: "Webhooks",
            summary: "Destinos a los que se envían los eventos, sus entregas y reenvíos.",
        },
        tokens: GroupText { title: "Tokens", summary: "Tokens y enlaces de inicio de sesión." },
    },
};
