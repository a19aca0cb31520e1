//! accounts storage. STUB: replaced by the accounts issue's agent.
