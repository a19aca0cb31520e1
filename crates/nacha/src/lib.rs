//! NACHA ACH files (skeleton; being written).
