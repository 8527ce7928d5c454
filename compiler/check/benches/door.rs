//! The door against serde_json, with the system allocator. See `common/door_bench.rs`.

#[path = "common/door_bench.rs"]
mod door_bench;

fn main() {
    door_bench::main_with("system");
}
