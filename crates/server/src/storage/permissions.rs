//! permissions storage. STUB: replaced by the permissions issue's agent.
