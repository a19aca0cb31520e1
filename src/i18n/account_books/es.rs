//! An account's drawer in Spanish.

use super::AccountBooks;

pub const TEXT: AccountBooks = AccountBooks {
    balances: "Saldos",
    reading_balances: "Leyendo los saldos…",
    holds: "Retenciones",
    reading_holds: "Leyendo las retenciones…",
    no_holds: "Sin retenciones.",
    below_zero: "Bajo cero",
    balance_labels: ["Contable", "Pendiente", "Disponible", "Retenido"],
    as_of: "En {}, al {}",
    hold_states: ["Retenido", "Liberado", "Cancelado"],
    hold_columns: ["Depósito", "Importe", "Liberación", "Estado"],
    entries: "Movimientos",
    ledger_account: "Cuenta contable ",
    ledger_accounts: ["Las tres", "Pendiente", "Contable", "Retenido"],
    export_csv: "Exportar CSV",
    reading_entries: "Leyendo los movimientos…",
    newer: "Más recientes",
    older: "Más antiguos",
    page_of: "Página {} de {}",
    no_entries: "Sin movimientos.",
    entry_columns: ["Registrado", "Tipo", "Cuenta contable", "Débito", "Crédito", "Saldo acumulado", "Concepto"],
};
