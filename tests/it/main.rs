//! The root package's single integration-test binary.

mod cli;
mod client;
mod docs;
mod fix;
mod foreign;
mod graph;
mod guide;
mod hostile;
mod layers;
mod serve;
mod serve_client;
mod sim;
mod suppress;
mod up;
