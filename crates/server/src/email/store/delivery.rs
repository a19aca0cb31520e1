//! Claims, attempts, outcomes and the development mailbox. OWNER: the delivery work.
