//! The root package's single integration-test binary.

mod cli;
mod docs;
mod foreign;
mod hostile;
mod up;
