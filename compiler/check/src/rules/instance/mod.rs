//! The Instance check's rules (ADR-0071 and the Instance layout): Workflow names, dispatch
//! callees and targets, and each named Chart's wrapper. Their checks run in `crate::instance`,
//! which knows the whole Instance; each file here holds one rule's doc and its wording.
//!
//! Each rule has mini Instances under `compiler/check/tests/fixtures/instance/<code>/<case>/`, refused and
//! `admitted*` ones, run by `tests/it/instance_fixtures.rs`, which also holds every rule here to both.

family! {
    workflow_stem::WORKFLOW_STEM,
    chart_wrapper::CHART_WRAPPER,
    unknown_callee::UNKNOWN_CALLEE,
    dispatch_target_url::DISPATCH_TARGET_URL,
    secret_in_target::SECRET_IN_TARGET,
    unlisted_chart::UNLISTED_CHART,
    wrapper_not_compiled::WRAPPER_NOT_COMPILED,
}
