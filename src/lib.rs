//! The `jr2` command as a library: its commands (`cli`), which the binary (`src/main.rs`) runs and
//! the Node addon (`npm/napi`, the npm package's API) calls. No analysis: that is the compiler's.

pub mod cli;
