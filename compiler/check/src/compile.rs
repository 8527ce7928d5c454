//! A Workflow file into the IR: evaluation, then lowering (the Machine front end), each fault
//! made its rule's diagnostic in its file, then the walk. This is what `jr2 check`, `jr2 ir`,
//! `jr2 parts` and the LSP call.

use crate::rules;
use base::Loc;
use diagnostics::Diagnostic;
use machine::eval;
use machine::lower::{self, machine_parts, MachineParts, NodeValues, Purpose};
use machine::module::{Evaluated, SourceFile, Sources};
use machine::value::{FileId, Value, Values};
use machine::{Fault, FaultKind};
use rustc_hash::FxHashSet;
use std::path::Path;

/// A diagnostic and the file it is in.
#[derive(Clone, Debug)]
pub struct Located {
    pub file: FileId,
    pub diagnostic: Diagnostic,
}

impl std::ops::Deref for Located {
    type Target = Diagnostic;
    fn deref(&self) -> &Diagnostic {
        &self.diagnostic
    }
}

/// A compiled Workflow: the files read (the entry first), its `machine` export as a value, its IR
/// and the IR's source map, and what was found, each in its file.
#[derive(Debug)]
pub struct Compiled {
    pub files: Vec<SourceFile>,
    /// The entry file's exports with their arena ([`Values`]); [`Compiled::value`] is the Machine.
    /// A caller done with the values drops them by setting `Values::empty()`.
    pub values: Values,
    pub machine: Option<Ir>,
    /// Where each node of `machine` was written (its file among `files`, its span, its path);
    /// empty without a Machine.
    pub source_map: ir::SourceMap,
    pub diagnostics: Vec<Located>,
    /// False when no `dispatch(...)` call was evaluated: the value holds none
    /// (`Evaluated::may_dispatch`).
    pub may_dispatch: bool,
    /// Why the entry file could not be read, if it could not (`Evaluated::unread`): an
    /// unreadable path, which the Instance check reports as one (exit 2), not as a refusal.
    pub unread: Option<String>,
}

/// A lowered Machine as the walk reads it: its parts (as values), its IR, the IR's source map, and
/// the value each IR node was lowered from (so that no rule pairs a node with its value by search).
#[derive(Clone, Copy)]
pub struct Lowering<'v> {
    pub parts: &'v MachineParts<'v>,
    pub machine: &'v ir::Statechart,
    pub map: &'v ir::SourceMap,
    pub values: &'v NodeValues<'v>,
    /// The files of the compilation, by `FileId`: a fix's edits read them.
    pub files: &'v [SourceFile],
}

/// A compiled Workflow's IR: lowered whole (an executable [`ir::Machine`]: [`compile_file`],
/// [`compile_text`], [`compile_with`]) or for a check only ([`ir::CheckedMachine`]:
/// [`compile_file_for_check`]). Both read as a statechart ([`std::ops::Deref`]); only the first is
/// [`Ir::executable`].
#[derive(Clone, Debug, PartialEq)]
pub enum Ir {
    Full(ir::Machine),
    Check(ir::CheckedMachine),
}

impl Ir {
    /// The executable IR, where it was lowered whole.
    pub fn executable(&self) -> Option<&ir::Machine> {
        match self {
            Ir::Full(m) => Some(m),
            Ir::Check(_) => None,
        }
    }
}

impl std::ops::Deref for Ir {
    type Target = ir::Statechart;
    fn deref(&self) -> &ir::Statechart {
        match self {
            Ir::Full(m) => m,
            Ir::Check(m) => m,
        }
    }
}

impl Compiled {
    /// The Machine's value: the export `machine`.
    pub fn value(&self) -> Option<&Value<'_>> {
        self.values.get("machine")
    }

    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(|d| d.is_error())
    }

    /// Loads the Workflow for a run (`jr2 sim`): a part the run needs and the IR does not hold
    /// (`not-executable`, a warning in a check, which needs no run) is an error here. True where
    /// there was one: the run is refused.
    pub fn refuse_for_run(&mut self) -> bool {
        let mut refused = false;
        for d in &mut self.diagnostics {
            if d.diagnostic.code == crate::rules::walk::not_executable::NOT_EXECUTABLE.code {
                d.diagnostic.severity = diagnostics::Severity::Error;
                refused = true;
            }
        }
        refused
    }
}

/// Compiles the Workflow at `path` (and the files it imports).
pub fn compile_file(path: &Path) -> Compiled {
    compile(eval::evaluate_file(path), Purpose::Full)
}

/// [`compile_file`] for a check: the same diagnostics, and an IR without what no check reads
/// ([`Purpose::Check`]: the events' input schemas).
pub fn compile_file_for_check(path: &Path) -> Compiled {
    compile(eval::evaluate_file(path), Purpose::Check)
}

/// Compiles a Workflow's text as if it were at `path` (its imports are read from disk).
pub fn compile_text(path: &Path, text: &str) -> Compiled {
    compile(eval::evaluate_text(path, text), Purpose::Full)
}

/// Compiles the Workflow at `path` with every file read from `sources` (the LSP's open buffers
/// over the disk).
pub fn compile_with(sources: &dyn Sources, path: &Path) -> Compiled {
    compile(eval::evaluate_with(sources, path), Purpose::Full)
}

fn compile(ev: Evaluated, purpose: Purpose) -> Compiled {
    let Evaluated { files, exports, faults, may_dispatch, unread } = ev;
    let said = not_static_at(&faults);
    let mut diagnostics: Vec<Located> = faults.into_iter().map(rules::machine::diagnostic).collect();
    let Some(value) = exports.get("machine") else {
        // A file that failed to parse has said so already.
        if !diagnostics.iter().any(|d| d.is_error()) {
            diagnostics.push(Located {
                file: FileId(0),
                diagnostic: crate::rules::machine::not_machine::NOT_MACHINE
                    .at(base::Span::new(0, 0), "the Workflow exports no `machine`"),
            });
        }
        let source_map = ir::SourceMap::default();
        return Compiled { files, values: exports, machine: None, source_map, diagnostics, may_dispatch, unread };
    };
    let (machine, source_map) = match machine_parts(value) {
        Err(fault) => {
            diagnostics.push(rules::machine::diagnostic(fault));
            (None, ir::SourceMap::default())
        }
        Ok(parts) => {
            let lowered = match purpose {
                Purpose::Full => lower::lower_parts(&parts).map(Ir::Full),
                Purpose::Check => lower::lower_parts_for_check(&parts).map(Ir::Check),
            };
            diagnostics.extend(unsaid(lowered.faults, &said).map(rules::machine::diagnostic));
            if let Some(m) = &lowered.machine {
                // The walk: the kit's load-time refusals, over the IR and the values lowering
                // read each node from.
                let lowering = Lowering {
                    parts: &parts,
                    machine: m,
                    map: &lowered.source_map,
                    values: &lowered.values,
                    files: &files,
                };
                diagnostics.extend(rules::walk::check(&lowering));
                diagnostics.extend(rules::walk_pick::check(&lowering));
            }
            (lowered.machine, lowered.source_map)
        }
    };
    Compiled { files, values: exports, machine, source_map, diagnostics, may_dispatch, unread }
}

/// Where the evaluator said a value is not known statically: the places lowering's faults of the
/// same kind must not repeat.
fn not_static_at(faults: &[Fault]) -> FxHashSet<Loc> {
    faults.iter().filter(|f| f.kind == FaultKind::NotStatic).map(|f| f.loc).collect()
}

/// Lowering's faults but those that only repeat the evaluator's: a value the evaluator could not
/// know (`assign` used without its import) is `Unknown` at the place it said so, and lowering,
/// meeting it as an action or a guard, would say it again there. One cause, one diagnostic: the
/// evaluator's, which names the cause.
fn unsaid(faults: Vec<Fault>, said: &FxHashSet<Loc>) -> impl Iterator<Item = Fault> + '_ {
    faults.into_iter().filter(move |f| !(f.kind == FaultKind::NotStatic && said.contains(&f.loc)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;
    use std::path::PathBuf;

    struct Buffers(HashMap<PathBuf, String>);

    impl Sources for Buffers {
        fn read(&self, path: &Path) -> Option<String> {
            self.0.get(path).cloned()
        }
        fn is_file(&self, path: &Path) -> bool {
            self.0.contains_key(path)
        }
    }

    /// Every file, the imported ones too, is read from the `Sources` given, not the disk.
    #[test]
    fn compile_with_reads_every_file_from_its_sources() {
        let mut files = HashMap::new();
        files.insert(
            PathBuf::from("/mem/flow.ts"),
            "import { setup } from 'xstate';\nimport { first } from './names';\n\
             export const machine = setup({}).createMachine({ id: 'flow', initial: first, states: { [first]: { type: 'final' } } });\n"
                .to_string(),
        );
        files.insert(PathBuf::from("/mem/names.ts"), "export const first = 'start';\n".to_string());
        let compiled = compile_with(&Buffers(files), Path::new("/mem/flow.ts"));
        let errors: Vec<_> = compiled.diagnostics.iter().filter(|d| d.is_error()).map(|d| d.message.clone()).collect();
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(compiled.files.len(), 2);
        let machine = compiled.machine.expect("a Machine");
        let initial = machine.states[0].initial.expect("an initial state");
        assert_eq!(machine.states[initial.index()].key, "start");
    }

    /// `assign` used without its import is one cause: one `not-static` warning at each use (the
    /// evaluator's, naming it), not a second one from lowering for the action it stands in
    /// (issue 40, item 3).
    #[test]
    fn a_name_not_imported_is_one_warning_per_use() {
        let text = "import { createMachine } from 'xstate';\n\
            export const machine = createMachine({ id: 'c', context: { n: 0 }, initial: 'a', states: { a: { on: {\n\
              inc: { actions: assign({ n: ({ context }) => context.n + 1 }) },\n\
              dec: { actions: assign({ n: ({ context }) => context.n - 1 }) },\n\
            } } } });\n";
        let compiled = compile(eval::evaluate_text(Path::new("/virtual/c.ts"), text), Purpose::Full);
        let said: Vec<&str> = compiled.diagnostics.iter().map(|d| d.message.as_str()).collect();
        let not_imported = said.iter().filter(|m| m.contains("`assign` is not defined in this file")).count();
        assert_eq!(not_imported, 2, "{said:?}");
        assert!(said.iter().all(|m| !m.starts_with("an action is not known statically")), "{said:?}");
        assert_eq!(said.len(), 2, "{said:?}");
    }

    /// A compilation for a check finds what a full one finds (the `event-schema` warning of an
    /// input with no JSON Schema reading too), and its IR leaves out only the events' input
    /// schemas, which the full IR has.
    #[test]
    fn a_check_compilation_finds_the_same_and_writes_no_event_schema() {
        let text = "import { z } from 'zod';\nimport { defineEvent, jr2Setup } from '@jr2/orchestrator';\n\
            const go = defineEvent({ name: 'go', description: 'Go.', input: z.object({ to: z.string() }) });\n\
            const at = defineEvent({ name: 'at', description: 'When.', input: z.object({ at: z.string().transform((s) => s) }) });\n\
            export const machine = jr2Setup({ events: [go, at] }).createMachine({ id: 'x', initial: 'a', states: { a: { on: { go: 'b', at: 'b' } }, b: { type: 'final' } } });\n";
        let path = Path::new("/virtual/wf.ts");
        let full = compile(eval::evaluate_text(path, text), Purpose::Full);
        let check = compile(eval::evaluate_text(path, text), Purpose::Check);
        let lines =
            |c: &Compiled| c.diagnostics.iter().map(|d| format!("{}: {}", d.code, d.message)).collect::<Vec<_>>();
        assert_eq!(lines(&check), lines(&full));
        assert!(
            lines(&check).iter().any(|l| l.starts_with("event-schema: the `input` of event \"at\"")),
            "{:?}",
            lines(&check)
        );
        let (full, check) = (full.machine.expect("a Machine"), check.machine.expect("a Machine"));
        // The check's IR is of its own type: no executable IR comes of it.
        assert!(matches!(full, Ir::Full(_)) && full.executable().is_some());
        assert!(matches!(check, Ir::Check(_)) && check.executable().is_none());
        assert!(full.events["go"].input.is_some());
        assert!(check.events["go"].input.is_none());
        assert_eq!(check.events.len(), full.events.len());
        assert_eq!(check.states.len(), full.states.len());
    }
}
