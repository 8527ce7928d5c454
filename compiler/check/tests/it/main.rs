//! The compiler's integration tests: one binary (matklad, "Delete Cargo Integration Tests").

mod door_fixtures;
mod door_fuzz;
mod doors;
mod executable;
mod expr_crosscheck;
mod fixture;
mod instance_fixtures;
mod ir_stable;
mod machine_fixtures;
mod machine_snapshots;
mod rule_fixtures;
mod sarif;
mod seed_texts;
mod severities;
mod unreadable;
mod walk_fixtures;
mod walk_pick_fixtures;
mod xstate_corpus;
mod xstate_crosscheck;
mod xstate_shape;
