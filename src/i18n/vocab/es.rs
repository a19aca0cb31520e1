//! The model's labels in Spanish, in the shell's Spanish chunk (`i18n::shell::load_spanish`).
//! One entry per English label, grouped by the model's list that first uses it; a label that
//! another list shares is not repeated there (the note says where it is). Statuses are
//! masculine, agreeing with *estado* (the column they are shown in), so that one word serves
//! every list that shares the label.

use super::Table;

pub const TABLE: &Table = &[
    // fees::Rail
    ("ACH", "ACH"),
    ("Wire", "Transferencia"),
    // fees::TransferType
    ("Standard ACH (EFT)", "ACH estándar (EFT)"),
    ("Same-day ACH", "ACH en el mismo día"),
    ("Domestic wire", "Transferencia nacional"),
    ("International wire", "Transferencia internacional"),
    // search::SearchGroup
    ("Deposits", "Depósitos"),
    ("Accounts", "Cuentas"),
    ("Routing directory", "Directorio de rutas"),
    ("Vault files", "Archivos de la bóveda"),
    ("Email outbox", "Bandeja de salida del correo"),
    ("Tokens", "Tokens"),
    // search::QueryShape
    ("Routing number", "Número de ruta"),
    ("Amount", "Importe"),
    ("Email address", "Dirección de correo"),
    ("Number", "Número"),
    ("Text", "Texto"),
    // search::MatchKind (followed by the field that matched)
    ("Exact", "Exacto"),
    ("Starts with", "Empieza por"),
    ("Contains", "Contiene"),
    // deposits::DepositStatus
    ("To confirm", "Por confirmar"),
    ("Confirmed", "Confirmado"),
    ("Sent", "Enviado"),
    ("Settled", "Liquidado"),
    ("Returned", "Devuelto"),
    ("Rejected", "Rechazado"),
    ("Cancelled", "Cancelado"),
    // deposits::ServiceType
    ("Cash", "Efectivo"),
    ("Check", "Cheque"),
    ("Check scan", "Cheque escaneado"),
    ("Image cash letter", "Remesa de cheques en imagen"),
    ("Electronic deposit (ACH pull)", "Depósito electrónico (cargo ACH)"),
    // audit::AuditOutcome
    ("Succeeded", "Realizado"),
    ("Denied", "Denegado"),
    // ledger::LedgerAccountKind
    ("Pending (credited, not yet settled)", "Pendiente (abonado, aún sin liquidar)"),
    ("Posted (settled)", "Contabilizado (liquidado)"),
    ("On hold (not yet available)", "Retenido (aún no disponible)"),
    ("Items in process (confirmed, not sent)", "Partidas en proceso (confirmadas, sin enviar)"),
    ("Clearing: image cash letters", "Compensación: remesas de cheques en imagen"),
    ("Clearing: ACH", "Compensación: ACH"),
    ("Settlement account at the Federal Reserve", "Cuenta de liquidación en la Reserva Federal"),
    ("Cash vault", "Bóveda de efectivo"),
    ("Fee income, not yet earned", "Ingresos por comisiones aún no devengados"),
    ("Fee income", "Ingresos por comisiones"),
    ("Holds outstanding (memo)", "Retenciones vigentes (cuenta de orden)"),
    ("Opening balances", "Saldos iniciales"),
    ("Manual adjustments", "Ajustes manuales"),
    // ledger::PostingKind
    ("Opening balance", "Saldo inicial"),
    ("Deposit confirmed", "Depósito confirmado"),
    ("Deposit sent", "Depósito enviado"),
    ("Deposit settled", "Depósito liquidado"),
    ("Deposit returned", "Depósito devuelto"),
    ("Deposit rejected or cancelled", "Depósito rechazado o cancelado"),
    ("Hold released", "Retención liberada"),
    ("Manual adjustment", "Ajuste manual"),
    // ledger::ReturnSource
    ("X9 return file", "Archivo de devoluciones X9"),
    ("ACH return file", "Archivo de devoluciones ACH"),
    ("Operator", "Operador"),
    // ledger::ReturnItemState (the Ledger page's counts say "conciliados", "sin conciliar")
    ("Matched", "Conciliado"),
    ("Unmatched", "Sin conciliar"),
    ("Duplicate", "Duplicado"),
    ("Notification of change", "Notificación de cambio"),
    ("Resolved by hand", "Resuelto a mano"),
    ("Dismissed", "Descartado"),
    // email::MessageState ("Sent": deposits)
    ("Queued", "En cola"),
    ("Scheduled", "Programado"),
    ("Sending", "Enviando"),
    ("Deferred", "Diferido"),
    ("Failed", "Fallido"),
    // email::Verdict
    ("Valid", "Válido"),
    ("Risky", "Dudoso"),
    ("Invalid", "No válido"),
    ("Unknown", "Sin determinar"),
    // email::CheckName
    ("Syntax", "Sintaxis"),
    ("Mail server", "Servidor de correo"),
    ("Disposable domain", "Dominio desechable"),
    ("Role address", "Dirección genérica"),
    ("Domain typo", "Dominio mal escrito"),
    // email::SuppressionReason
    ("Bounce", "Rebote"),
    ("Unsubscribe", "Baja"),
    ("Spam complaint", "Queja por spam"),
    ("Manual", "Manual"),
    // email::BatchState ("Cancelled": deposits)
    ("Active", "Activo"),
    ("Paused", "En pausa"),
    // email::BounceKind
    ("Hard bounce", "Rebote definitivo"),
    ("Soft bounce", "Rebote temporal"),
    ("Complaint", "Queja"),
    // email::BounceReportState ("Unmatched": return items)
    ("Processed", "Procesado"),
    ("Unparseable", "Ilegible"),
    // email::DeliverabilityFlag
    ("Complaint rate over 0.3 %", "Tasa de quejas superior al 0,3 %"),
    ("Bounce rate over 2 %", "Tasa de rebote superior al 2 %"),
    ("Complaint rate over 0.1 %", "Tasa de quejas superior al 0,1 %"),
    // email::DomainState ("Active": batches)
    ("Pending", "Pendiente"),
    ("Verified", "Verificado"),
    // email::RecordPurpose
    ("Return path", "Ruta de retorno (Return-Path)"),
    ("DKIM (RSA)", "DKIM (RSA)"),
    ("DKIM (Ed25519)", "DKIM (Ed25519)"),
    ("SPF", "SPF"),
    // email::RecordStatus ("Unknown": verdicts)
    ("Found", "Encontrado"),
    ("Missing", "Ausente"),
    ("Wrong value", "Valor incorrecto"),
    // email::InboundState ("Pending": domains, "Failed": messages)
    ("Delivering", "Entregando"),
    ("Delivered", "Entregado"),
    // accounts::AccountStatus ("Active": batches, "Pending": domains)
    ("Closed", "Cerrado"),
    ("Inactive", "Inactivo"),
    ("Suspended", "Suspendido"),
    // accounts::AccountType
    ("API customer", "Cliente de la API"),
    ("Corporate client", "Cliente corporativo"),
    ("Corporate holding", "Holding corporativo"),
    ("Household", "Unidad familiar"),
    ("Individual client", "Cliente particular"),
    // bulk::BulkOutcome (the bulk bar's words: "Hecho", "Rechazo")
    ("Done", "Hecho"),
    ("Refused", "Rechazado"),
    // scopes::Scope: none; a scope's label is its name, the same in every language.
];
