//! The rules of what a run reports (`crate::suppress`): the inline suppressions and the
//! `[[suppress]]` entries of `jr2c.toml`. Their tests are `crate::suppress`'s and the CLI's
//! (`tests/it/suppress.rs`).

family! {
    unused_suppression::UNUSED_SUPPRESSION,
    suppression_without_reason::SUPPRESSION_WITHOUT_REASON,
}
