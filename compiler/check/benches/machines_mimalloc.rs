//! The Machine front end against bare oxc parsing, with mimalloc, the allocator `jr2` ships with.
//! See `common/machines_bench.rs`.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "common/machines_bench.rs"]
mod machines_bench;

fn main() {
    machines_bench::main_with("mimalloc");
}
