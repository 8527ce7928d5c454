//! The door against serde_json, with mimalloc, the allocator `jr2` ships with. See
//! `common/door_bench.rs`.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[path = "common/door_bench.rs"]
mod door_bench;

fn main() {
    door_bench::main_with("mimalloc");
}
