//! permissions records: filled in by the issue that lands this group.
