//! X9.100-187 image cash letters (skeleton; being written).
