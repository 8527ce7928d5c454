//! The Machine front end against bare oxc parsing, with the system allocator. See
//! `common/machines_bench.rs`.

#[path = "common/machines_bench.rs"]
mod machines_bench;

fn main() {
    machines_bench::main_with("system");
}
