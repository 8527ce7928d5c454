//! The TypeScript front end and the evaluator: any text as a Workflow, through oxc, the
//! evaluator, zod, lowering and the walk (`check::compile::compile_text`), at a path in a folder
//! that does not exist (its imports read nothing). Never a panic or a stack overflow; a text the
//! parser or the evaluator cannot take whole is refused by an error, and a text
//! that does not parse is lowered to no Machine.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Some(text) = jr2_fuzz::text_or(data, jr2_fuzz::workflow) else { return };
    let compiled = check::compile::compile_text(Path::new("/jr2-fuzz/none/workflows/w.ts"), &text);
    // A text that did not parse has no program, so no Machine: a `ts-syntax` beside an IR is
    // only the evaluator's depth budget (an error on one expression, the rest read), never the
    // parser's.
    for d in compiled.diagnostics.iter().filter(|d| d.diagnostic.code == "ts-syntax") {
        assert!(d.diagnostic.is_error(), "a ts-syntax that is no error: {}", d.diagnostic.message);
        if compiled.machine.is_some() {
            assert!(
                d.diagnostic.message.contains("jr2 evaluates expressions nested at most"),
                "an IR from a text that did not parse: {}",
                d.diagnostic.message
            );
        }
    }
    if let Some(value) = compiled.value() {
        let _ = machine::parts::parts_of(value);
        let _ = machine::parts::lend_manifest(value, "plan");
    }
});
