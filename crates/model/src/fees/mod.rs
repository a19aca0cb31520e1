//! Fee schedules (ACH, wire).

use serde::{Deserialize, Serialize};

use crate::Money;

/// One fee of a schedule, as the description's example writes it (snake_case names).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct FeeEntry {
    pub fee_type: String,
    pub fee_amount: Money,
    pub description: String,
}
