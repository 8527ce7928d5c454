//! The TypeScript front end and the evaluator: any text as a Workflow, through oxc, the
//! evaluator, zod, lowering and the walk (`check::compile::compile_text`), at a path in a folder
//! that does not exist (its imports read nothing). Never a panic or a stack overflow; a text the
//! parser or the evaluator cannot take whole is refused by an error.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Some(text) = jr2_fuzz::text_or(data, jr2_fuzz::workflow) else { return };
    let compiled = check::compile::compile_text(Path::new("/jr2-fuzz/none/workflows/w.ts"), &text);
    // A Machine is lowered only when nothing stopped it: no `ts-syntax` beside an IR.
    if compiled.machine.is_some() {
        assert!(
            compiled.diagnostics.iter().all(|d| d.diagnostic.code != "ts-syntax"),
            "an IR from a text that did not parse"
        );
    }
    if let Some(value) = compiled.value() {
        let _ = machine::parts::parts_of(value);
        let _ = machine::parts::lend_manifest(value, "plan");
    }
});
