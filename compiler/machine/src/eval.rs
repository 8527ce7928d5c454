//! The static evaluator: a Workflow's TypeScript into [`Value`]s, with nothing executed.
//!
//! It reads `const` bindings (lazily, memoized, so their order does not matter), literals,
//! templates, spreads, the TypeScript wrappers (`as`, `satisfies`, `<T>x`, `x!`) and the imports
//! of the module graph (`module.rs`). The calls of the authoring surface become
//! [`ValueKind::Call`]s by name; functions stay code ([`ValueKind::Function`]) with what they
//! statically read ([`Facts`]) and, for a pure expression body, its lowering ([`Expr`]).
//!
//! What it cannot know is [`ValueKind::Unknown`] with the reason, and a `not-static` warning at
//! the construct's span, once, where the unknown is made (a value read from an unknown is unknown
//! without a second warning). Nothing here gives up on a file, panics or recurses without bound:
//! expression depth is limited ([`MAX_DEPTH`], "too deep"), the import chain too
//! ([`MAX_MODULE_DEPTH`]), and helper inlining ([`MAX_INLINE`]); and no file makes values out of
//! proportion to its text: what spreads, concatenation and functions' lowerings copy is budgeted
//! ([`MAX_COPIED`]), and so is a value's size with what it shares written out ([`MAX_TREE`]),
//! which the passes after it walk ("too big").
//!
//! Decisions (see also `module.rs`):
//! - Only the bindings that exports reach are evaluated, so an unused `let` warns nothing.
//! - A function's first parameter, destructured, names the xstate mapper's arguments: `context`,
//!   `event` and `input` are references; `params` (a `fromPick` `fill`) reads the event's params
//!   as `paramsOf` does. A plain identifier first parameter is the arguments object
//!   (`args.context.x`). Other names are opaque: read, not lowered.
//! - A call of a `const` arrow helper (module-level or local) inside a function is inlined when
//!   its body is one expression (or one `return`) and its parameters plain names, up to
//!   [`MAX_INLINE`] levels; any other call of a function of the author's makes `complete` false.
//!   Calls of the kit, xstate and zod keep `complete` (their meaning is known) but are not
//!   lowered; method calls inside functions make `complete` false.
//! - Inside functions, comparisons (`===` `!==` `==` `!=` `<` `<=` `>` `>=`), arithmetic (`+` `-`
//!   `*` `/` `%`, `+` concatenating strings too), unary `!` `typeof` `-` `+`, the logical `&&`
//!   `||` `??` and the ternary lower to `ir::Expr`'s operator forms when their operands lower;
//!   `ir::eval` evaluates them with JavaScript's semantics (cross-checked against Node). A
//!   template's `${...}` that is neither a reference nor a literal is a `TemplatePart::Expr`;
//!   `undefined` is `Expr::Undefined`. `**`, bit operators, `in`, `instanceof`, `void`, `delete`
//!   and the globals (`NaN`, `Math`) are read for facts but not lowered.
//! - Array methods with an arrow callback of plain-name parameters (`map`, `filter`, `find`,
//!   `findIndex`, `some`, `every`, `reduce`) lower to `Expr::Callback` where the receiver and the
//!   body lower, the parameters read as locals (`Expr::Local`); `trim`, `substring`, `slice`,
//!   `toString` and `Math.random()` to builtins. A block body of `const`s (destructuring too),
//!   `if (test) { return x; }` with no `else`, and a final `return` lowers to the conditionals it
//!   is; a `const` is inlined where read, or bound once (`Expr::Let`) where it draws
//!   `Math.random()` or runs a callback.
//! - A function whose body does not lower is carried as JavaScript (`eval/carry.rs`): its text
//!   with the types blanked and what it closes over (module `const`s, functions and classes, the
//!   Instance's own files' exports), or refused, with the reason, where it reaches what no run can
//!   have (a package, a host global, a module `let`, an actor reference) ([`FnValue::carried`]).
//! - A call of the author's own function at module level is not evaluated (`not-static`).
//! - A `const` binding is evaluated once and read from its cache as a copy of a few words: a
//!   value's tree is in the evaluation's value arena ([`ValueArena`], `value.rs`), so
//!   `workspace(body, ...)`, or an event def read in `events` and again in `paramsOf`, is the
//!   same call, not a copy of its tree.
//! - The maps of names use a fast non-cryptographic hash (`rustc_hash`'s Fx); a file is parsed
//!   from the file table's own text (moved out while the file is evaluated, not copied), into an
//!   oxc arena the thread keeps and resets between files ([`Arena`]). The values are made in the
//!   value arena, one for the whole module graph: strings are copied into it from the AST (whose
//!   arena is the next file's), and an object's entries, an array's items and a call's arguments
//!   are written in the arena as they are evaluated, in room made for as many as the source
//!   lists (`Arena::list`), so no list takes a heap block of its own or is copied.
//!
//! Boundary: this file (with its children `eval/analysis.rs` and `eval/carry.rs`) and `parse.rs`
//! are the only ones that know oxc.

use super::module::{self, classify, Disk, Evaluated, KnownModule, ModuleKind, SourceFile, Sources, Specifier};
use super::value::{
    Arena as ValueArena, Call, Callee, Facts, FileId, Function as FnValue, List, Loc, Name, Prop, Value, ValueKind,
    Values,
};
use crate::fault::{Fault, FaultKind};
use base::Span;
use indexmap::IndexMap;
use ir::eval::JsValue;
use ir::expr::{BinaryOp, Expr, LogicalOp, Reference, Root, TemplatePart, UnaryOp};
use oxc_allocator::Allocator;
use oxc_ast::ast::*;
use oxc_span::GetSpan;
use std::path::{Path, PathBuf};
use std::rc::Rc;

mod analysis;
mod carry;
use analysis::FnScopes;
pub use analysis::{lower_expression, lower_script, script_declarations, script_functions, Names, ScriptStep};

/// A map keyed by names or addresses, with a fast non-cryptographic hash (rustc's "Fx" hash):
/// the evaluator's maps are small, built per file from the file's own names, and hashed often.
type FxMap<K, V> = rustc_hash::FxHashMap<K, V>;

/// The deepest expression nesting evaluated; deeper is `Unknown` ("too deep").
pub(crate) const MAX_DEPTH: usize = 200;
/// The longest chain of relative imports followed.
pub(crate) const MAX_MODULE_DEPTH: usize = 32;
/// How many helper calls deep a function's analysis inlines.
pub(crate) const MAX_INLINE: usize = 4;
/// How many items (of spread lists) and bytes (of concatenated strings) an evaluation copies at
/// most. Only spreads, concatenation and a function's lowering of a value it reads copy (a value
/// read through two names is one value), so past this a file is making values out of proportion
/// to its text, as a chain of doubling spreads does (`const b = [...a, ...a]` forty times: 2^40
/// items): the rest is `Unknown` ("too big", a `not-static` warning once), not an exhausted
/// memory.
pub(crate) const MAX_COPIED: usize = 1 << 20;
/// The largest value the evaluator makes, in values with a shared one counted in each place it is
/// used ([`Value::tree_size`]): what the passes after it walk. Sharing costs nothing here (a value
/// read through two names is one value), so a config sharing one state twice per level names
/// 2^40 states in forty lines (`const s = { type: "parallel", states: { a: t, b: t } }`, and so
/// on); past this such a value is `Unknown` ("too big"), and no pass walks it.
pub(crate) const MAX_TREE: usize = 1 << 20;
/// The evaluator's stack: it runs on its own thread, so that the depth limits, not the caller's
/// stack size, bound it.
const STACK: usize = 64 * 1024 * 1024;

/// Evaluates the Workflow file at `path` and the files it imports.
pub fn evaluate_file(path: &Path) -> Evaluated {
    if let Some(out) = leads_out(path) {
        return out;
    }
    match base::read::read_text(path) {
        // On the evaluator's stack (a check of an Instance), the text read becomes the file
        // table's without a copy. A panic is a bug; the file still gets an answer.
        Ok(text) if ON_EVALUATOR_STACK.get() => {
            let run = std::panic::AssertUnwindSafe(|| run_graph(&Disk, path.to_path_buf(), text));
            std::panic::catch_unwind(run)
                .unwrap_or_else(|_| internal_error(path, &base::read::read_text(path).unwrap_or_default()))
        }
        Ok(text) => evaluate_text(path, &text),
        Err(e) => {
            let mut out = unreadable(path, &e);
            out.unread = Some(e.to_string());
            out
        }
    }
}

/// An entry file that is a symbolic link leading out of its Instance folder (`module::root_of`)
/// is not read: what it leads to (`/proc/self/environ`) is no Workflow, and a syntax error's
/// excerpt would print it.
fn leads_out(path: &Path) -> Option<Evaluated> {
    if !std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink()) {
        return None;
    }
    let root = module::root_of(path);
    (!module::within(&root.path, path))
        .then(|| unreadable(path, format!("it is a symbolic link that leads out of {}", root.kind.name())))
}

fn unreadable(path: &Path, e: impl std::fmt::Display) -> Evaluated {
    Evaluated {
        files: vec![SourceFile { path: path.to_path_buf(), text: String::new() }],
        exports: Values::empty(),
        faults: vec![Fault::new(
            FaultKind::UnresolvedImport,
            Loc { file: FileId(0), span: Span::default() },
            format!("cannot read \"{}\": {e}", path.display()),
        )],
        may_dispatch: false,
        unread: None,
    }
}

/// Evaluates the file at `path` with every file, the entry's too, read from `sources` (the LSP's
/// database). Runs on the caller's thread when it is on the evaluator's stack
/// ([`on_evaluator_stack`]), on a scoped thread with that stack otherwise.
pub fn evaluate_with(sources: &dyn Sources, path: &Path) -> Evaluated {
    if let Some(out) = leads_out(path) {
        return out;
    }
    let Some(text) = sources.read(path) else { return unreadable(path, "no such file") };
    let run = || {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run_graph(sources, path.to_path_buf(), text.clone())))
    };
    match on_evaluator_stack(run) {
        Ok(ev) => ev,
        Err(_) => internal_error(path, &text),
    }
}

fn run_graph(sources: &dyn Sources, path: PathBuf, text: String) -> Evaluated {
    // The values take a few times the text's size (measured: 3.5x on the generated Workflows,
    // 2.7-3.7x on the examples): one chunk of 4x, so that most files need no second.
    let arena = ValueArena::with_capacity(text.len() * VALUE_BYTES_PER_TEXT_BYTE);
    let (exports, (files, faults, may_dispatch)) = Values::build(arena, |arena| {
        let mut g = Graph::new(sources, arena);
        let id = g.add_file(path, text, None);
        let exports = g.evaluate(id);
        // The graph's own reference goes, so the exports move out without a copy.
        g.states.clear();
        let exports = Rc::try_unwrap(exports).unwrap_or_else(|rc| (*rc).clone());
        (exports, (g.files, g.faults, g.may_dispatch))
    });
    Evaluated { files, exports, faults, may_dispatch, unread: None }
}

/// The value arena's first chunk, in bytes per byte of the entry file's text (see `run_graph`).
const VALUE_BYTES_PER_TEXT_BYTE: usize = 4;

fn internal_error(path: &Path, text: &str) -> Evaluated {
    Evaluated {
        files: vec![SourceFile { path: path.to_path_buf(), text: text.to_string() }],
        exports: Values::empty(),
        faults: vec![Fault::new(
            FaultKind::NotStatic,
            Loc { file: FileId(0), span: Span::default() },
            "internal error: the evaluator stopped on this file",
        )],
        may_dispatch: false,
        unread: None,
    }
}

/// Evaluates `text` as the file at `path` (its relative imports are read from `path`'s folder
/// on disk). For tests and the LSP.
pub fn evaluate_text(path: &Path, text: &str) -> Evaluated {
    fn run(path: PathBuf, text: String) -> Evaluated {
        run_graph(&Disk, path, text)
    }
    let (owned_path, owned_text) = (path.to_path_buf(), text.to_string());
    let res = if ON_EVALUATOR_STACK.get() {
        // Already on a thread with the evaluator's stack: no hand-off.
        Some(std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || run(owned_path, owned_text))))
    } else {
        on_big_stack(move || run(owned_path, owned_text))
    };
    match res {
        Some(Ok(ev)) => ev,
        // The evaluator's thread could not start (no memory for its stack): run here.
        None => run(path.to_path_buf(), text.to_string()),
        // A panic is a bug; the file still gets an answer.
        Some(Err(_)) => internal_error(path, text),
    }
}

type Job = Box<dyn FnOnce() + Send>;

thread_local! {
    /// Is this thread's stack the evaluator's ([`STACK`])? Then evaluations run on it directly.
    static ON_EVALUATOR_STACK: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` on a thread whose stack is the evaluator's ([`STACK`]), so that every evaluation
/// inside it runs on that thread directly, with no hand-off to the evaluator's thread per file
/// (which costs more than a small file's evaluation on a busy machine). For callers that evaluate
/// many files: a check of an Instance, the benchmark. A panic of `f` goes on in the caller; if
/// the thread cannot start, `f` runs here (and evaluations hand off as usual).
pub fn on_evaluator_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    if ON_EVALUATOR_STACK.get() {
        return f();
    }
    let mut f = Some(f);
    let spawned = std::thread::scope(|s| {
        let f = &mut f;
        let body = move || {
            ON_EVALUATOR_STACK.set(true);
            f.take().map(|f| f())
        };
        std::thread::Builder::new().stack_size(STACK).spawn_scoped(s, body).ok().map(|h| h.join())
    });
    match spawned {
        Some(Ok(Some(out))) => out,
        Some(Err(panic)) => std::panic::resume_unwind(panic),
        // The thread did not start (or, impossibly, did not run `f`): run here.
        Some(Ok(None)) | None => (f.take().expect("`f` runs once"))(),
    }
}

thread_local! {
    /// The evaluator's thread of this thread, started at the first evaluation and kept: a thread
    /// (and its allocator arena) per file cost more than evaluating a file. It ends when this
    /// thread does (its job queue closes).
    static EVALUATOR: std::cell::RefCell<Option<std::sync::mpsc::Sender<Job>>> =
        const { std::cell::RefCell::new(None) };
}

/// Runs `f` on this thread's evaluator thread, whose stack is [`STACK`]: its result, or its
/// panic; `None` (and `f` not run) if that thread cannot start.
fn on_big_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Option<std::thread::Result<T>> {
    let (done, result) = std::sync::mpsc::sync_channel(1);
    let job: Job = Box::new(move || {
        let _ = done.send(std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)));
    });
    EVALUATOR.with(|slot| {
        let mut slot = slot.borrow_mut();
        if slot.is_none() {
            let (jobs, queue) = std::sync::mpsc::channel::<Job>();
            std::thread::Builder::new()
                .name("jr2-evaluator".into())
                .stack_size(STACK)
                .spawn(move || {
                    ON_EVALUATOR_STACK.set(true);
                    for job in queue {
                        job();
                    }
                })
                .ok()?;
            *slot = Some(jobs);
        }
        slot.as_ref()?.send(job).ok()
    })?;
    result.recv().ok()
}

type Exports<'v> = Rc<IndexMap<String, Value<'v>>>;

enum ModState<'v> {
    Evaluating,
    Done(Exports<'v>),
}

struct Graph<'s, 'v> {
    sources: &'s dyn Sources,
    /// Where every value of the evaluation is allocated (every file's: an import's values are
    /// read by its importers).
    arena: &'v ValueArena,
    files: Vec<SourceFile>,
    /// The files by identity ([`Sources::identity`]), for imports and cycles. The entry's is
    /// found only when the first relative import is loaded (an identity asks the disk, a
    /// `realpath`, and most Workflows import no file of their own): the map is empty until then.
    ids: FxMap<PathBuf, FileId>,
    states: Vec<ModState<'v>>,
    faults: Vec<Fault>,
    depth: usize,
    /// Set when a `dispatch(...)` call is made ([`Cx::call_value`]): see `Evaluated::may_dispatch`.
    may_dispatch: bool,
    /// The items and bytes spreads and string concatenations have copied so far, against
    /// [`MAX_COPIED`] ([`Cx::spend`]); and whether passing it was said.
    copied: usize,
    too_big_warned: bool,
    /// [`Graph::root`], once found.
    root: std::cell::OnceCell<module::Root>,
    /// Each file's module level as a carried function reads it (`carry.rs`), by [`FileId`]:
    /// made while the file's AST lives (`None` for a JSON module, a file not parsed, or the
    /// entry file until one of its functions is carried).
    tables: Vec<Option<carry::Table>>,
}

impl<'s, 'v> Graph<'s, 'v> {
    fn new(sources: &'s dyn Sources, arena: &'v ValueArena) -> Self {
        Graph {
            sources,
            arena,
            files: Vec::new(),
            ids: FxMap::default(),
            states: Vec::new(),
            faults: Vec::new(),
            depth: 0,
            may_dispatch: false,
            copied: 0,
            too_big_warned: false,
            root: std::cell::OnceCell::new(),
            tables: Vec::new(),
        }
    }

    /// Adds a file to the table; an import's with its identity (the entry's is found later,
    /// see `ids`).
    fn add_file(&mut self, path: PathBuf, text: String, identity: Option<PathBuf>) -> FileId {
        let id = FileId(self.files.len() as u32);
        if let Some(identity) = identity {
            self.ids.insert(identity, id);
        }
        self.files.push(SourceFile { path, text });
        self.states.push(ModState::Evaluating);
        self.tables.push(None);
        id
    }

    /// The folder the graph's imports stay in (`module::root_of` the entry file, as the disk has
    /// it), found at the first relative import: most Workflows import no file of their own.
    fn root(&self) -> &module::Root {
        self.root.get_or_init(|| {
            let root = module::root_of(&self.files[0].path);
            module::Root { path: module::identity(&root.path), kind: root.kind }
        })
    }

    /// Is the file at `path` inside [`Self::root`] (a symbolic link followed)?
    fn inside_root(&self, path: &Path) -> bool {
        module::within(&self.root().path, path)
    }

    /// The file at `path`, evaluated as `kind` says (or being evaluated, in a cycle).
    fn load(&mut self, path: &Path, kind: ModuleKind) -> FileId {
        if self.ids.is_empty() {
            self.ids.insert(self.sources.identity(&self.files[0].path), FileId(0));
        }
        let identity = self.sources.identity(path);
        if let Some(&id) = self.ids.get(&identity) {
            return id;
        }
        let text = self.sources.read(path).unwrap_or_default();
        let id = self.add_file(path.to_path_buf(), text, Some(identity));
        if self.depth >= MAX_MODULE_DEPTH {
            self.states[id.0 as usize] = ModState::Done(Rc::default());
            return id;
        }
        self.depth += 1;
        match kind {
            ModuleKind::Json => self.evaluate_json(id),
            ModuleKind::Code | ModuleKind::Opaque => {
                self.evaluate(id);
            }
        }
        self.depth -= 1;
        id
    }

    /// A `.json` module: its value is the default export, and each key of a top-level object a
    /// named export (as a bundler gives them). A syntax error is a `json-syntax` fault each, and
    /// what could not be read is unknown; a value of more than [`MAX_TREE`] values is unknown
    /// ("too big", a `not-static` warning at its start), not copied.
    fn evaluate_json(&mut self, id: FileId) {
        let text = std::mem::take(&mut self.files[id.0 as usize].text);
        let json_arena = syntax::json::Arena::new();
        let parsed = syntax::json::parse(&text, &json_arena);
        for e in &parsed.errors {
            self.faults.push(Fault::new(FaultKind::JsonSyntax, Loc { file: id, span: e.span }, e.message.clone()));
        }
        let mut budget = MAX_TREE;
        let value = json_value(self.arena, &parsed.value, id, &mut budget).unwrap_or_else(|| {
            let loc = Loc { file: id, span: parsed.value.span };
            self.faults.push(Fault::new(
                FaultKind::NotStatic,
                loc,
                format!("too big: this JSON holds more than {MAX_TREE} values, more than the evaluator reads"),
            ));
            Value::new(ValueKind::Unknown { reason: "too big" }, loc)
        });
        let mut exports = IndexMap::new();
        for p in value.props().unwrap_or_default() {
            exports.insert(p.key.to_string(), p.value);
        }
        exports.insert("default".to_string(), value);
        self.files[id.0 as usize].text = text;
        self.states[id.0 as usize] = ModState::Done(Rc::new(exports));
    }

    fn evaluate(&mut self, id: FileId) -> Exports<'v> {
        // The text is the file table's again once the file is evaluated (no copy of it is made).
        let text = std::mem::take(&mut self.files[id.0 as usize].text);
        let allocator = Arena::take();
        let exports = match super::parse::parse_file(&allocator, &text, &self.files[id.0 as usize].path) {
            Err(d) => {
                self.faults.push(Fault { loc: Loc { file: id, ..d.loc }, ..*d });
                IndexMap::new()
            }
            Ok(program) => {
                // An imported file's table is made now, while its AST lives (an importer's
                // carried function may read it later); the entry file's only when one of its own
                // functions is carried (most Workflows' functions all lower).
                if id.0 != 0 {
                    self.tables[id.0 as usize] = Some(carry::Table::new(&program, &text));
                }
                let mut cx = Cx::new(self, id, &text);
                cx.run(&program)
            }
        };
        self.files[id.0 as usize].text = text;
        let exports = Rc::new(exports);
        self.states[id.0 as usize] = ModState::Done(exports.clone());
        exports
    }
}

/// An oxc arena lent to one file's parse and evaluation, then reset and kept for the next file
/// of this thread (oxc's advice: a fresh `Allocator` per file asks the system allocator for new
/// chunks each time, and in a process that keeps its results those are fresh pages to fault in).
/// A few per thread, since an import is evaluated while its importer's program is alive.
struct Arena(Option<Allocator>);

thread_local! {
    static ARENAS: std::cell::RefCell<Vec<Allocator>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Arenas a thread keeps; past this (imports nested deeper), an arena is dropped after use.
const KEPT_ARENAS: usize = 4;
/// An arena grown past this (a huge file) is dropped after use rather than kept.
const KEPT_ARENA_BYTES: usize = 4 << 20;

impl Arena {
    fn take() -> Arena {
        Arena(Some(ARENAS.with(|a| a.borrow_mut().pop()).unwrap_or_default()))
    }
}

impl std::ops::Deref for Arena {
    type Target = Allocator;
    fn deref(&self) -> &Allocator {
        self.0.as_ref().expect("an arena until dropped")
    }
}

impl Drop for Arena {
    fn drop(&mut self) {
        let Some(mut allocator) = self.0.take() else { return };
        if allocator.capacity() > KEPT_ARENA_BYTES {
            return;
        }
        allocator.reset();
        let _ = ARENAS.try_with(|a| {
            let mut a = a.borrow_mut();
            if a.len() < KEPT_ARENAS {
                a.push(allocator);
            }
        });
    }
}

/// One step of a destructuring path.
#[derive(Clone, Copy)]
enum Seg<'a> {
    Key(&'a str),
    Index(usize),
    Default(&'a Expression<'a>),
    /// An object rest, without the keys of its pattern (the pattern is re-read for them).
    RestObj(&'a ObjectPattern<'a>),
    RestArr(usize),
}

#[derive(Clone)]
enum Binding<'a> {
    Const {
        init: &'a Expression<'a>,
        path: Vec<Seg<'a>>,
    },
    /// A binding the evaluator does not follow: `let`, `var`, a class, an enum...
    NotStatic {
        span: Span,
        reason: &'static str,
    },
    Function(&'a Function<'a>),
    Known {
        module: KnownModule,
        name: Option<&'a str>,
    },
    Import {
        file: Option<FileId>,
        name: Option<&'a str>,
        span: Span,
    },
    Package {
        pkg: &'a str,
        span: Span,
    },
    /// A `const` without an initializer (a `declare const`), or a destructuring the evaluator
    /// could not read.
    Opaque {
        span: Span,
    },
    /// Imported from an opaque module ([`module::ModuleKind::Opaque`]), whose import was warned
    /// of once: unknown, with no warning of its own.
    Unread {
        span: Span,
    },
}

enum Slot<'v> {
    Evaluating,
    Done(Value<'v>),
}

struct Cx<'a, 'g, 's, 'v> {
    g: &'g mut Graph<'s, 'v>,
    /// The graph's value arena (`g.arena`), at hand.
    arena: &'v ValueArena,
    file: FileId,
    /// The file's text (the file table's entry is empty while the file is evaluated).
    text: &'a str,
    bindings: FxMap<&'a str, Binding<'a>>,
    cache: FxMap<&'a str, Slot<'v>>,
    init_cache: FxMap<usize, Value<'v>>,
    depth: usize,
    too_deep_warned: bool,
    // The function being analyzed.
    scopes: FnScopes<'a, 'v>,
    facts: Facts,
    inline: usize,
    /// What a standalone expression's free names mean ([`analysis::lower_expression`]); `None`
    /// in a Workflow, whose names are its bindings.
    names: Option<&'a dyn Names>,
    /// The file's program, while it is evaluated: the entry file's carry table is made from it
    /// when first needed.
    program: Option<&'a Program<'a>>,
}

fn span(s: oxc_span::Span) -> Span {
    Span::new(s.start, s.end)
}

/// A JSON value in the value arena, its places in file `file`; `None` past `budget` values.
/// What the parser could not read is unknown.
fn json_value<'v>(
    arena: &'v ValueArena,
    j: &syntax::json::Json<'_>,
    file: FileId,
    budget: &mut usize,
) -> Option<Value<'v>> {
    use syntax::json::JsonKind;
    *budget = budget.checked_sub(1)?;
    let loc = Loc { file, span: j.span };
    let kind = match &j.kind {
        JsonKind::Null => ValueKind::Null,
        JsonKind::Bool(value) => ValueKind::Bool { value: *value },
        JsonKind::Number(n) => ValueKind::Number { value: n.as_f64().unwrap_or(f64::NAN) },
        JsonKind::String(value) => ValueKind::String { value: arena.str(value) },
        JsonKind::Array(items) => {
            let items = items.iter().map(|i| json_value(arena, i, file, budget)).collect::<Option<Vec<_>>>()?;
            ValueKind::Array { items: arena.values(&items) }
        }
        JsonKind::Object(members) => {
            // Each key once, the last one's value in the first one's place (as `JSON.parse`).
            let props = members
                .iter()
                .map(|m| {
                    let value = json_value(arena, &m.value, file, budget)?;
                    Some(Prop { key: arena.str(m.key), key_loc: Loc { file, span: m.key_span }, value })
                })
                .collect::<Option<Vec<_>>>()?;
            let mut props = dedupe_props(&props);
            js_key_order(&mut props);
            ValueKind::Object { props: arena.props(&props) }
        }
        JsonKind::Error => ValueKind::Unknown { reason: "not valid JSON" },
    };
    Some(Value::new(kind, loc))
}

/// A number as JavaScript prints it (for the usual cases).
fn js_number(n: f64) -> String {
    if n.is_nan() {
        "NaN".into()
    } else if n.is_infinite() {
        if n > 0.0 {
            "Infinity".into()
        } else {
            "-Infinity".into()
        }
    } else if n.fract() == 0.0 && n.abs() < 1e21 {
        format!("{}", n as i128)
    } else {
        format!("{n}")
    }
}

fn module_export_name<'a>(n: &ModuleExportName<'a>) -> &'a str {
    match n {
        ModuleExportName::IdentifierName(i) => i.name.as_str(),
        ModuleExportName::IdentifierReference(i) => i.name.as_str(),
        ModuleExportName::StringLiteral(s) => s.value.as_str(),
    }
}

/// An expression without its TypeScript wrappers and parentheses.
fn strip<'b, 'a>(mut e: &'b Expression<'a>) -> &'b Expression<'a> {
    loop {
        e = match e {
            Expression::ParenthesizedExpression(p) => &p.expression,
            Expression::TSAsExpression(x) => &x.expression,
            Expression::TSSatisfiesExpression(x) => &x.expression,
            Expression::TSTypeAssertion(x) => &x.expression,
            Expression::TSNonNullExpression(x) => &x.expression,
            Expression::TSInstantiationExpression(x) => &x.expression,
            _ => return e,
        };
    }
}

fn kind_name(v: &Value<'_>) -> &'static str {
    match v.kind {
        ValueKind::Undefined => "undefined",
        ValueKind::Null => "null",
        ValueKind::Bool { .. } => "a boolean",
        ValueKind::Number { .. } => "a number",
        ValueKind::String { .. } => "a string",
        ValueKind::Array { .. } => "an array",
        ValueKind::Object { .. } => "an object",
        ValueKind::Call(_) => "a call's result",
        ValueKind::Function(_) => "a function",
        ValueKind::Imported { .. } => "an import",
        ValueKind::Unknown { .. } => "an unknown value",
    }
}

fn callee_of(module: KnownModule, name: &str) -> Callee<'_> {
    match module {
        KnownModule::Kit => Callee::Kit(name),
        KnownModule::Xstate => Callee::Xstate(name),
        KnownModule::Zod => Callee::Zod(name),
    }
}

/// Is `name` a global of JavaScript or of its hosts (a browser, Node) that a module may read
/// without declaring it: `Math`, `JSON`, `Date`, `console`, `process`, ...? Its meaning is not
/// modelled, so a value read from it is not known statically; the name is not a typo either.
fn is_global(name: &str) -> bool {
    // ECMAScript's own, then the hosts' (the web platform's and Node's).
    const ECMASCRIPT: &str = "AggregateError Array ArrayBuffer Atomics BigInt BigInt64Array BigUint64Array Boolean \
        DataView Date Error EvalError FinalizationRegistry Float32Array Float64Array Function \
        Int16Array Int32Array Int8Array Intl Iterator JSON Map Math Number Object Promise Proxy \
        RangeError ReferenceError Reflect RegExp Set SharedArrayBuffer String Symbol SyntaxError \
        TypeError URIError Uint16Array Uint32Array Uint8Array Uint8ClampedArray WeakMap WeakRef \
        WeakSet decodeURI decodeURIComponent encodeURI encodeURIComponent escape eval globalThis \
        isFinite isNaN parseFloat parseInt unescape";
    const HOSTS: &str = "AbortController AbortSignal Blob BroadcastChannel Buffer CustomEvent Event EventTarget \
        File FormData Headers MessageChannel Request Response TextDecoder TextEncoder URL \
        URLSearchParams WebSocket Worker XMLHttpRequest __dirname __filename alert atob btoa \
        cancelAnimationFrame clearInterval clearTimeout confirm console crypto document exports \
        fetch global history localStorage location module navigator performance process prompt \
        queueMicrotask requestAnimationFrame require self sessionStorage setInterval setTimeout \
        structuredClone window";
    ECMASCRIPT.split(' ').chain(HOSTS.split(' ')).any(|g| g == name)
}

fn module_name(m: KnownModule) -> &'static str {
    match m {
        KnownModule::Kit => "@jr2/orchestrator",
        KnownModule::Xstate => "xstate",
        KnownModule::Zod => "zod",
    }
}

/// How long a function's lists of facts (its context keys, its pick params) are searched for a
/// fact before it is pushed; past that, facts are pushed as they come and each list is made
/// unique once, when the function's analysis ends (`Cx::analyze`), so that a function reading
/// 40 000 keys stays linear.
const SCANNED_FACTS: usize = 32;

/// Adds `s` to a function's context keys, once (see [`SCANNED_FACTS`]).
fn push_unique(v: &mut smallvec::SmallVec<[Name; 2]>, s: &str) {
    if v.len() >= SCANNED_FACTS || !v.iter().any(|x| x == s) {
        v.push(s.into());
    }
}

impl<'a, 'g, 's, 'v> Cx<'a, 'g, 's, 'v> {
    fn new(g: &'g mut Graph<'s, 'v>, file: FileId, text: &'a str) -> Self {
        Cx {
            arena: g.arena,
            g,
            file,
            text,
            bindings: FxMap::default(),
            cache: FxMap::default(),
            init_cache: FxMap::default(),
            depth: 0,
            too_deep_warned: false,
            scopes: FnScopes::default(),
            facts: Facts::default(),
            inline: 0,
            names: None,
            program: None,
        }
    }

    fn loc(&self, s: oxc_span::Span) -> Loc {
        Loc { file: self.file, span: span(s) }
    }

    fn val(&self, kind: ValueKind<'v>, s: oxc_span::Span) -> Value<'v> {
        Value::new(kind, self.loc(s))
    }

    /// An unknown, with a `not-static` warning at `s`.
    fn not_static(&mut self, s: oxc_span::Span, reason: impl Into<String>) -> Value<'v> {
        let reason = reason.into();
        let kept = self.arena.str(&reason);
        self.g.faults.push(Fault::new(FaultKind::NotStatic, Loc { file: self.file, span: span(s) }, reason));
        self.val(ValueKind::Unknown { reason: kept }, s)
    }

    /// Counts `n` items or bytes a spread or a concatenation is about to copy against
    /// [`MAX_COPIED`]: false past it (and nothing counted).
    fn spend(&mut self, n: usize) -> bool {
        match self.g.copied.checked_add(n) {
            Some(total) if total <= MAX_COPIED => {
                self.g.copied = total;
                true
            }
            _ => false,
        }
    }

    /// The unknown a spread or a concatenation past [`MAX_COPIED`] makes, with a `not-static`
    /// warning the first time.
    fn too_big(&mut self, s: oxc_span::Span) -> Value<'v> {
        let why = format!(
            "this file's values copy more than {MAX_COPIED} items and bytes (spreads, string concatenation, functions reading a large value)"
        );
        self.too_big_because(s, why)
    }

    /// `v`, or past [`MAX_TREE`] the "too big" unknown (a `not-static` warning the first time).
    #[inline]
    fn bounded(&mut self, v: Value<'v>, s: oxc_span::Span) -> Value<'v> {
        if v.tree_size() <= MAX_TREE {
            return v;
        }
        self.too_large_tree(s)
    }

    #[cold]
    #[inline(never)]
    fn too_large_tree(&mut self, s: oxc_span::Span) -> Value<'v> {
        let why = format!(
            "this value has more than {MAX_TREE} values with the ones it shares written out in each place (a state shared by two states, and so on)"
        );
        self.too_big_because(s, why)
    }

    #[cold]
    #[inline(never)]
    fn too_big_because(&mut self, s: oxc_span::Span, why: String) -> Value<'v> {
        if self.g.too_big_warned {
            return self.val(ValueKind::Unknown { reason: "too big" }, s);
        }
        self.g.too_big_warned = true;
        self.not_static(s, format!("too big: {why}; jr2 does not evaluate this one"))
    }

    fn too_deep(&mut self, s: oxc_span::Span) -> Value<'v> {
        if self.too_deep_warned {
            return self.val(ValueKind::Unknown { reason: "too deep" }, s);
        }
        self.too_deep_warned = true;
        // An error, not a `not-static` warning: what is below is not read, so a Machine nested
        // this deep would lose its states and pass.
        let reason = format!(
            "the code nests deeper than {MAX_DEPTH} levels here; jr2 evaluates expressions nested at most {MAX_DEPTH} levels, and reads nothing below"
        );
        self.g.faults.push(Fault::new(FaultKind::TsSyntax, Loc { file: self.file, span: span(s) }, reason));
        self.val(ValueKind::Unknown { reason: "too deep" }, s)
    }

    // ---- the module ----

    fn run(&mut self, program: &'a Program<'a>) -> IndexMap<String, Value<'v>> {
        // The maps of names sized once for the file's top-level names, not grown (and rehashed)
        // as they come.
        let names: usize = program
            .body
            .iter()
            .map(|st| match st {
                Statement::ImportDeclaration(i) => i.specifiers.as_ref().map_or(0, |s| s.len()),
                Statement::VariableDeclaration(v) => v.declarations.len(),
                _ => 1,
            })
            .sum();
        self.bindings.reserve(names);
        self.cache.reserve(names);
        self.program = Some(program);
        for stmt in &program.body {
            self.declare(stmt);
        }
        let mut exports = IndexMap::new();
        for stmt in &program.body {
            match stmt {
                Statement::ExportDeclaration(e) => {
                    // A name declared twice (a function overload) is read twice, from the cache.
                    for (name, _) in self.declared_names(&e.declaration) {
                        let v = self.ident(name, oxc_span::Span::default());
                        exports.insert(name.to_string(), v);
                    }
                }
                Statement::ExportNamedDeclaration(e) => {
                    if e.export_kind.is_type() {
                        continue;
                    }
                    for s in &e.specifiers {
                        if s.export_kind.is_type() {
                            continue;
                        }
                        let local = module_export_name(&s.local);
                        let v = self.ident(local, s.local.span());
                        exports.insert(module_export_name(&s.exported).to_string(), v);
                    }
                }
                Statement::ExportFromDeclaration(e) => {
                    if e.export_kind.is_type() {
                        continue;
                    }
                    let from = self.import_source(&e.source);
                    for s in &e.specifiers {
                        if s.export_kind.is_type() {
                            continue;
                        }
                        let local = module_export_name(&s.local);
                        let b = self.import_binding(&from, Some(local), s.span);
                        let v = self.eval_binding(local, b, s.span);
                        exports.insert(module_export_name(&s.exported).to_string(), v);
                    }
                }
                Statement::ExportAllDeclaration(e) => {
                    if e.export_kind.is_type() {
                        continue;
                    }
                    let from = self.import_source(&e.source);
                    if let Some(exported) = &e.exported {
                        let b = self.import_binding(&from, None, e.span);
                        let v = self.eval_binding("*", b, e.span);
                        exports.insert(module_export_name(exported).to_string(), v);
                    } else if let Source::File(Some(f)) = from {
                        if let ModState::Done(ex) = &self.g.states[f.0 as usize] {
                            for (k, v) in ex.iter() {
                                if k != "default" {
                                    exports.insert(k.clone(), *v);
                                }
                            }
                        }
                    }
                }
                Statement::ExportDefaultDeclaration(e) => {
                    let v = match &e.declaration {
                        ExportDefaultDeclarationKind::FunctionDeclaration(f) => self.function_value(f),
                        ExportDefaultDeclarationKind::ClassDeclaration(c) => {
                            self.not_static(c.span, "a class is not evaluated statically")
                        }
                        ExportDefaultDeclarationKind::TSInterfaceDeclaration(_) => continue,
                        other => match other.as_expression() {
                            Some(x) => self.expr(x),
                            None => continue,
                        },
                    };
                    exports.insert("default".to_string(), v);
                }
                _ => {}
            }
        }
        // A later statement that exported the same name (invalid, but read) replaced its value.
        exports
    }

    fn declared_names(&self, d: &'a Declaration<'a>) -> Vec<(&'a str, Span)> {
        let mut out = Vec::new();
        match d {
            Declaration::VariableDeclaration(v) => {
                for decl in &v.declarations {
                    pattern_names(&decl.id, &mut out);
                }
            }
            Declaration::FunctionDeclaration(f) => {
                if let Some(id) = &f.id {
                    out.push((id.name.as_str(), span(id.span)));
                }
            }
            Declaration::ClassDeclaration(c) => {
                if let Some(id) = &c.id {
                    out.push((id.name.as_str(), span(id.span)));
                }
            }
            Declaration::TSEnumDeclaration(e) => out.push((e.id.name.as_str(), span(e.id.span))),
            _ => {}
        }
        out
    }

    fn declare(&mut self, stmt: &'a Statement<'a>) {
        match stmt {
            Statement::ImportDeclaration(i) => self.declare_import(i),
            Statement::ExportDeclaration(e) => self.declare_decl(&e.declaration),
            Statement::ExportDefaultDeclaration(e) => {
                if let ExportDefaultDeclarationKind::FunctionDeclaration(f) = &e.declaration {
                    if let Some(id) = &f.id {
                        self.bindings.insert(id.name.as_str(), Binding::Function(f));
                    }
                }
            }
            other => {
                if let Some(d) = other.as_declaration() {
                    self.declare_decl(d);
                }
            }
        }
    }

    fn declare_decl(&mut self, d: &'a Declaration<'a>) {
        match d {
            Declaration::VariableDeclaration(v) => {
                for decl in &v.declarations {
                    if v.kind != VariableDeclarationKind::Const {
                        let reason = match v.kind {
                            VariableDeclarationKind::Let => {
                                "a `let` binding is not static (it may change); use `const`"
                            }
                            VariableDeclarationKind::Var => {
                                "a `var` binding is not static (it may change); use `const`"
                            }
                            _ => "a `using` binding is not evaluated statically",
                        };
                        let mut names = Vec::new();
                        pattern_names(&decl.id, &mut names);
                        for (n, s) in names {
                            self.bindings.insert(n, Binding::NotStatic { span: s, reason });
                        }
                        continue;
                    }
                    match &decl.init {
                        Some(init) => self.declare_pattern(&decl.id, init, Vec::new()),
                        None => {
                            let mut names = Vec::new();
                            pattern_names(&decl.id, &mut names);
                            for (n, s) in names {
                                self.bindings.insert(n, Binding::Opaque { span: s });
                            }
                        }
                    }
                }
            }
            Declaration::FunctionDeclaration(f) => {
                if let Some(id) = &f.id {
                    self.bindings.insert(id.name.as_str(), Binding::Function(f));
                }
            }
            Declaration::ClassDeclaration(c) => {
                if let Some(id) = &c.id {
                    self.bindings.insert(
                        id.name.as_str(),
                        Binding::NotStatic { span: span(id.span), reason: "a class is not evaluated statically" },
                    );
                }
            }
            Declaration::TSEnumDeclaration(e) => {
                self.bindings.insert(
                    e.id.name.as_str(),
                    Binding::NotStatic {
                        span: span(e.id.span),
                        reason: "an enum is not evaluated statically; use an `as const` object",
                    },
                );
            }
            _ => {}
        }
    }

    fn declare_pattern(&mut self, p: &'a BindingPattern<'a>, init: &'a Expression<'a>, path: Vec<Seg<'a>>) {
        match p {
            BindingPattern::BindingIdentifier(id) => {
                self.bindings.insert(id.name.as_str(), Binding::Const { init, path });
            }
            BindingPattern::ObjectPattern(o) => {
                for prop in &o.properties {
                    let key = pattern_key(prop);
                    match key {
                        Some(k) => {
                            let mut p2 = path.clone();
                            p2.push(Seg::Key(k));
                            self.declare_pattern(&prop.value, init, p2);
                        }
                        None => {
                            let mut names = Vec::new();
                            pattern_names(&prop.value, &mut names);
                            for (n, s) in names {
                                self.bindings.insert(n, Binding::Opaque { span: s });
                            }
                        }
                    }
                }
                if let Some(rest) = &o.rest {
                    let mut p2 = path.clone();
                    p2.push(Seg::RestObj(o));
                    self.declare_pattern(&rest.argument, init, p2);
                }
            }
            BindingPattern::ArrayPattern(a) => {
                for (i, el) in a.elements.iter().enumerate() {
                    if let Some(el) = el {
                        let mut p2 = path.clone();
                        p2.push(Seg::Index(i));
                        self.declare_pattern(el, init, p2);
                    }
                }
                if let Some(rest) = &a.rest {
                    let mut p2 = path.clone();
                    p2.push(Seg::RestArr(a.elements.len()));
                    self.declare_pattern(&rest.argument, init, p2);
                }
            }
            BindingPattern::AssignmentPattern(ap) => {
                let mut p2 = path;
                p2.push(Seg::Default(&ap.right));
                self.declare_pattern(&ap.left, init, p2);
            }
        }
    }

    fn import_source(&mut self, source: &'a StringLiteral<'a>) -> Source<'a> {
        match classify(source.value.as_str()) {
            Specifier::Known(m) => Source::Known(m),
            Specifier::Package(_) => Source::Package(source.value.as_str()),
            Specifier::Relative(spec) => {
                // The importer's folder, found here: most Workflows import no file of their own.
                let dir = self.g.files[self.file.0 as usize].path.parent().map(Path::to_path_buf).unwrap_or_default();
                match module::resolve(self.g.sources, &dir, &spec) {
                    Some(found) if !self.g.inside_root(&found.path) => {
                        self.g.faults.push(Fault::new(
                            FaultKind::UnresolvedImport,
                            Loc { file: self.file, span: span(source.span) },
                            format!(
                                "\"{spec}\" leads out of {} ({}); jr2 reads no file outside it",
                                self.g.root().kind.name(),
                                self.g.root().path.display()
                            ),
                        ));
                        Source::File(None)
                    }
                    // A stylesheet, a component of another language, an image: a bundler's to load.
                    Some(found) if found.kind == ModuleKind::Opaque => {
                        self.g.faults.push(Fault::new(
                            FaultKind::NotStatic,
                            Loc { file: self.file, span: span(source.span) },
                            format!(
                                "\"{spec}\" is read as an opaque module: jr2 reads TypeScript, JavaScript and JSON, and a bundler loads this file, so what it exports is not known statically"
                            ),
                        ));
                        Source::Opaque
                    }
                    Some(found) => Source::File(Some(self.g.load(&found.path, found.kind))),
                    None => {
                        self.g.faults.push(Fault::new(
                            FaultKind::UnresolvedImport,
                            Loc { file: self.file, span: span(source.span) },
                            format!("cannot find \"{spec}\" (tried {})", module::tried(&dir, &spec)),
                        ));
                        Source::File(None)
                    }
                }
            }
        }
    }

    fn import_binding(&self, from: &Source<'a>, name: Option<&'a str>, s: oxc_span::Span) -> Binding<'a> {
        match *from {
            Source::Known(m) => {
                let name = match (m, name) {
                    (KnownModule::Zod, Some("z")) | (_, Some("default")) => None,
                    (_, n) => n,
                };
                Binding::Known { module: m, name }
            }
            Source::Package(pkg) => Binding::Package { pkg, span: span(s) },
            Source::File(file) => Binding::Import { file, name, span: span(s) },
            Source::Opaque => Binding::Unread { span: span(s) },
        }
    }

    fn declare_import(&mut self, i: &'a ImportDeclaration<'a>) {
        if i.import_kind.is_type() {
            return;
        }
        let from = self.import_source(&i.source);
        let Some(specs) = &i.specifiers else { return };
        for s in specs {
            let (local, name, sp) = match s {
                ImportDeclarationSpecifier::ImportSpecifier(s) => {
                    if s.import_kind.is_type() {
                        continue;
                    }
                    (s.local.name.as_str(), Some(module_export_name(&s.imported)), s.span)
                }
                ImportDeclarationSpecifier::ImportDefaultSpecifier(s) => {
                    (s.local.name.as_str(), Some("default"), s.span)
                }
                ImportDeclarationSpecifier::ImportNamespaceSpecifier(s) => (s.local.name.as_str(), None, s.span),
            };
            let b = self.import_binding(&from, name, sp);
            self.bindings.insert(local, b);
        }
    }

    // ---- bindings ----

    fn ident(&mut self, name: &'a str, at: oxc_span::Span) -> Value<'v> {
        match self.cache.get(name) {
            Some(Slot::Done(v)) => return *v,
            Some(Slot::Evaluating) => {
                // A function's analysis may read a called name twice (as a helper, then as a
                // value): one warning at one place.
                let loc = Loc { file: self.file, span: span(at) };
                if let Some(said) = self.g.faults.last().filter(|f| f.loc == loc && f.kind == FaultKind::NotStatic) {
                    let kept = self.arena.str(&said.message);
                    return self.val(ValueKind::Unknown { reason: kept }, at);
                }
                let reason = if self.is_function_binding(name) {
                    format!("`{name}` is recursive, not evaluated: the function is read in its own body, directly or through the functions it calls")
                } else {
                    format!("`{name}` refers to itself while it is being defined")
                };
                return self.not_static(at, reason);
            }
            None => {}
        }
        let Some(b) = self.bindings.get(name).cloned() else {
            return match name {
                "undefined" => self.val(ValueKind::Undefined, at),
                "NaN" => self.val(ValueKind::Number { value: f64::NAN }, at),
                "Infinity" => self.val(ValueKind::Number { value: f64::INFINITY }, at),
                _ if is_global(name) => {
                    self.not_static(at, format!("`{name}` is a global of JavaScript, not evaluated statically"))
                }
                _ => self.not_static(at, format!("`{name}` is not defined in this file")),
            };
        };
        self.cache.insert(name, Slot::Evaluating);
        let v = self.eval_binding(name, b, at);
        self.cache.insert(name, Slot::Done(v));
        v
    }

    /// Is `name` bound to a function (`function f`, `const f = () => ...`)? Read while it is
    /// being evaluated, it is recursive, not a value defined by itself.
    fn is_function_binding(&self, name: &str) -> bool {
        match self.bindings.get(name) {
            Some(Binding::Function(_)) => true,
            Some(Binding::Const { init, path }) => {
                path.is_empty()
                    && matches!(strip(init), Expression::ArrowFunctionExpression(_) | Expression::FunctionExpression(_))
            }
            _ => false,
        }
    }

    fn eval_binding(&mut self, name: &str, b: Binding<'a>, at: oxc_span::Span) -> Value<'v> {
        match b {
            Binding::Const { init, path } => {
                // `const x = init` is the only binding of its `init`: the binding's own cache
                // (`Cx::cache`) is enough. A destructuring shares its `init` among its names.
                if path.is_empty() {
                    return self.expr(init);
                }
                let key = init as *const Expression as usize;
                let mut v = match self.init_cache.get(&key) {
                    Some(v) => *v,
                    None => {
                        let v = self.expr(init);
                        self.init_cache.insert(key, v);
                        v
                    }
                };
                for seg in path {
                    v = self.project(v, seg, init.span());
                }
                v
            }
            Binding::NotStatic { span: s, reason } => self.not_static(oxc_span::Span::new(s.start, s.end), reason),
            Binding::Function(f) => self.function_value(f),
            Binding::Known { module, name: Some(n) } => {
                self.val(ValueKind::Imported { callee: callee_of(module, self.arena.str(n)) }, at)
            }
            Binding::Known { module, name: None } => self.not_static(
                at,
                format!("the module `{}` itself is not a value; use one of its exports", module_name(module)),
            ),
            Binding::Package { pkg, span: s } => self.not_static(
                oxc_span::Span::new(s.start, s.end),
                format!("import from {pkg} is not evaluated statically"),
            ),
            Binding::Opaque { span: s } => self.not_static(
                oxc_span::Span::new(s.start, s.end),
                format!("`{name}` has no value the evaluator can read"),
            ),
            Binding::Unread { span: s } => Value::new(
                ValueKind::Unknown { reason: "imported from a file that a bundler loads, which jr2 does not read" },
                Loc { file: self.file, span: s },
            ),
            Binding::Import { file: None, span: s, .. } => Value::new(
                ValueKind::Unknown { reason: "imported from a file that does not exist" },
                Loc { file: self.file, span: s },
            ),
            Binding::Import { file: Some(f), name: imported, span: s } => {
                let at = oxc_span::Span::new(s.start, s.end);
                // The imported file's path, for a message only.
                let path = |g: &Graph| g.files[f.0 as usize].path.display().to_string();
                match &self.g.states[f.0 as usize] {
                    ModState::Evaluating => self.not_static(
                        at,
                        format!("`{name}` is imported from {} in an import cycle, and is not evaluated yet where it is read", path(self.g)),
                    ),
                    ModState::Done(ex) => match imported {
                        Some(n) => match ex.get(n) {
                            Some(v) => *v,
                            None => {
                                let ex_names = base::list::listed(ex.keys());
                                let reason = format!("{} has no export `{n}` (exports: {ex_names})", path(self.g));
                                self.not_static(at, reason)
                            }
                        },
                        None => {
                            let key_loc = Loc { file: self.file, span: s };
                            let props: Vec<Prop<'v>> =
                                ex.iter().map(|(k, &value)| Prop { key: self.arena.str(k), key_loc, value }).collect();
                            Value::new(ValueKind::Object { props: self.arena.props(&props) }, key_loc)
                        }
                    },
                }
            }
        }
    }

    fn project(&mut self, v: Value<'v>, seg: Seg<'a>, at: oxc_span::Span) -> Value<'v> {
        match seg {
            Seg::Key(k) => self.member(v, k, at),
            Seg::Index(i) => match &v.kind {
                ValueKind::Array { items } => {
                    items.get(i).cloned().unwrap_or_else(|| self.val(ValueKind::Undefined, at))
                }
                ValueKind::Unknown { .. } => v,
                _ => self.not_static(at, format!("cannot destructure {} as an array statically", kind_name(&v))),
            },
            Seg::Default(d) => {
                if matches!(v.kind, ValueKind::Undefined) {
                    self.expr(d)
                } else {
                    v
                }
            }
            Seg::RestArr(n) => match v.kind {
                ValueKind::Array { items } => {
                    Value::new(ValueKind::Array { items: &items[n.min(items.len())..] }, v.loc)
                }
                ValueKind::Unknown { .. } => v,
                _ => self.not_static(at, format!("cannot destructure {} as an array statically", kind_name(&v))),
            },
            Seg::RestObj(pattern) => match v.kind {
                ValueKind::Object { props } => {
                    let taken: Vec<&str> = pattern
                        .properties
                        .iter()
                        .filter_map(|p| match &p.key {
                            PropertyKey::StaticIdentifier(i) => Some(i.name.as_str()),
                            PropertyKey::StringLiteral(s) => Some(s.value.as_str()),
                            _ => None,
                        })
                        .collect();
                    let props: Vec<Prop<'v>> = props.iter().filter(|p| !taken.contains(&p.key)).copied().collect();
                    Value::new(ValueKind::Object { props: self.arena.props(&props) }, v.loc)
                }
                ValueKind::Unknown { .. } => v,
                _ => self.not_static(at, format!("cannot destructure {} statically", kind_name(&v))),
            },
        }
    }

    /// `v.key` at module level.
    fn member(&mut self, v: Value<'v>, key: &str, at: oxc_span::Span) -> Value<'v> {
        match &v.kind {
            ValueKind::Object { .. } => v.get(key).cloned().unwrap_or_else(|| self.val(ValueKind::Undefined, at)),
            ValueKind::Array { items } => match key {
                "length" => self.val(ValueKind::Number { value: items.len() as f64 }, at),
                k => match k.parse::<usize>() {
                    Ok(i) => items.get(i).cloned().unwrap_or_else(|| self.val(ValueKind::Undefined, at)),
                    Err(_) => self.not_static(at, format!("`.{k}` of an array is not evaluated statically")),
                },
            },
            ValueKind::String { value } if key == "length" => {
                self.val(ValueKind::Number { value: value.encode_utf16().count() as f64 }, at)
            }
            ValueKind::Unknown { .. } => v,
            _ => self.not_static(at, format!("`.{key}` of {} is not evaluated statically", kind_name(&v))),
        }
    }

    // ---- expressions at module level ----

    fn expr(&mut self, e: &'a Expression<'a>) -> Value<'v> {
        if self.depth >= MAX_DEPTH {
            return self.too_deep(e.span());
        }
        self.depth += 1;
        let v = self.expr_inner(e);
        self.depth -= 1;
        v
    }

    fn expr_inner(&mut self, e: &'a Expression<'a>) -> Value<'v> {
        let e = strip(e);
        let s = e.span();
        match e {
            Expression::BooleanLiteral(b) => self.val(ValueKind::Bool { value: b.value }, s),
            Expression::NullLiteral(_) => self.val(ValueKind::Null, s),
            Expression::NumericLiteral(n) => self.val(ValueKind::Number { value: n.value }, s),
            Expression::StringLiteral(x) => self.val(ValueKind::String { value: self.arena.str(x.value.as_str()) }, s),
            Expression::TemplateLiteral(t) => self.template(t),
            Expression::Identifier(i) => {
                let mut v = self.ident(i.name.as_str(), i.span);
                // A scalar read through a name is placed where it is read? No: values keep where
                // they came from; only a name with no place of its own (a global) takes this one.
                if v.loc.span == Span::default() {
                    v.loc = self.loc(s);
                }
                v
            }
            Expression::ArrayExpression(a) => self.array(a),
            Expression::ObjectExpression(o) => self.object(o),
            Expression::ArrowFunctionExpression(f) => self.arrow_value(f),
            Expression::FunctionExpression(f) => self.function_value(f),
            Expression::CallExpression(c) => self.call(c),
            Expression::ChainExpression(c) => match &c.expression {
                ChainElement::CallExpression(c) => self.call(c),
                ChainElement::TSNonNullExpression(x) => self.expr(&x.expression),
                m => match m.as_member_expression() {
                    Some(m) => self.member_expr(m),
                    None => self.not_static(s, "this expression is not evaluated statically"),
                },
            },
            Expression::StaticMemberExpression(_) | Expression::ComputedMemberExpression(_) => {
                match e.as_member_expression() {
                    Some(m) => self.member_expr(m),
                    None => self.not_static(s, "this expression is not evaluated statically"),
                }
            }
            Expression::UnaryExpression(u) => self.unary(u),
            Expression::BinaryExpression(b) => self.binary(b),
            Expression::LogicalExpression(l) => {
                let left = self.expr(&l.left);
                let t = truthy(&left);
                match (l.operator, t) {
                    (_, None) if left.is_unknown() => left,
                    (LogicalOperator::Coalesce, _) => {
                        if matches!(left.kind, ValueKind::Null | ValueKind::Undefined) {
                            self.expr(&l.right)
                        } else {
                            left
                        }
                    }
                    (LogicalOperator::Or, Some(true)) | (LogicalOperator::And, Some(false)) => left,
                    (LogicalOperator::Or, Some(false)) | (LogicalOperator::And, Some(true)) => self.expr(&l.right),
                    _ => self.not_static(s, "a logical operator on a value not known statically"),
                }
            }
            Expression::ConditionalExpression(c) => {
                let test = self.expr(&c.test);
                match truthy(&test) {
                    Some(true) => self.expr(&c.consequent),
                    Some(false) => self.expr(&c.alternate),
                    None if test.is_unknown() => test,
                    None => self.not_static(c.test.span(), "a condition not known statically"),
                }
            }
            Expression::ClassExpression(_) => self.not_static(s, "a class is not evaluated statically"),
            Expression::NewExpression(_) => self.not_static(s, "`new` is not evaluated statically"),
            Expression::TaggedTemplateExpression(_) => {
                self.not_static(s, "a tagged template is not evaluated statically")
            }
            Expression::AwaitExpression(_) => self.not_static(s, "`await` is not evaluated statically"),
            Expression::RegExpLiteral(_) => self.not_static(s, "a regular expression is not evaluated statically"),
            Expression::BigIntLiteral(_) => self.not_static(s, "a bigint is not evaluated statically"),
            _ => self.not_static(s, "this expression is not evaluated statically"),
        }
    }

    fn template(&mut self, t: &'a TemplateLiteral<'a>) -> Value<'v> {
        // Written into a `Name` (a result of up to 24 bytes never touches the heap), then into the
        // arena.
        let mut out = Name::default();
        for (i, q) in t.quasis.iter().enumerate() {
            out.push_str(q.value.cooked.as_ref().map_or(q.value.raw.as_str(), |c| c.as_str()));
            if let Some(x) = t.expressions.get(i) {
                let v = self.expr(x);
                match v.kind {
                    ValueKind::String { value } if self.spend(value.len()) => out.push_str(value),
                    ValueKind::String { .. } => return self.too_big(t.span),
                    ValueKind::Number { value } => out.push_str(&js_number(value)),
                    ValueKind::Bool { value } => out.push_str(if value { "true" } else { "false" }),
                    ValueKind::Null => out.push_str("null"),
                    ValueKind::Undefined => out.push_str("undefined"),
                    ValueKind::Unknown { reason } => {
                        // Said once: a template of such a template keeps its reason (a chain of
                        // them would otherwise make reasons that grow with each link).
                        const WHY: &str = "a template with a part not known statically: ";
                        if reason.starts_with(WHY) {
                            return self.val(ValueKind::Unknown { reason }, t.span);
                        }
                        let reason = self.arena.str(&format!("{WHY}{reason}"));
                        return self.val(ValueKind::Unknown { reason }, t.span);
                    }
                    _ => {
                        return self.not_static(
                            x.span(),
                            format!("{} in a template is not evaluated statically", kind_name(&v)),
                        );
                    }
                }
            }
        }
        self.val(ValueKind::String { value: self.arena.str(&out) }, t.span)
    }

    fn array(&mut self, a: &'a ArrayExpression<'a>) -> Value<'v> {
        // Written in the arena as they come (an item's own lists are made after this list's room).
        let mut items = self.arena.list(a.elements.len());
        for el in &a.elements {
            let item = match el {
                ArrayExpressionElement::SpreadElement(sp) => {
                    self.spread_into(sp, &mut items);
                    continue;
                }
                ArrayExpressionElement::Elision(x) => self.val(ValueKind::Undefined, x.span),
                other => match other.as_expression() {
                    Some(x) => self.expr(x),
                    None => self.not_static(other.span(), "this element is not evaluated statically"),
                },
            };
            items.push(item);
        }
        let v = self.val(ValueKind::Array { items: items.into_bump_slice() }, a.span);
        self.bounded(v, a.span)
    }

    /// A spread in an array or a call's arguments: its items into `out` (counted against
    /// [`MAX_COPIED`]), or the one unknown that stands for them.
    fn spread_into(&mut self, sp: &'a SpreadElement<'a>, out: &mut List<'v, Value<'v>>) {
        let v = self.expr(&sp.argument);
        let item = match v.kind {
            ValueKind::Array { items } if self.spend(items.len()) => return out.extend_from_slice(items),
            ValueKind::Array { .. } => self.too_big(sp.span),
            ValueKind::Unknown { .. } => v,
            _ => self.not_static(sp.span, format!("a spread of {} is not evaluated statically", kind_name(&v))),
        };
        out.push(item);
    }

    fn key_of(&mut self, key: &'a PropertyKey<'a>, computed: bool) -> Result<&'v str, Value<'v>> {
        match key {
            PropertyKey::StaticIdentifier(i) if !computed => Ok(self.arena.str(i.name.as_str())),
            PropertyKey::PrivateIdentifier(p) => Err(self.not_static(p.span, "a private name is not a key")),
            other => {
                let Some(x) = other.as_expression() else {
                    return Err(self.not_static(other.span(), "this key is not evaluated statically"));
                };
                if !computed {
                    match strip(x) {
                        Expression::StringLiteral(s) => return Ok(self.arena.str(s.value.as_str())),
                        Expression::NumericLiteral(n) => return Ok(self.arena.str(&js_number(n.value))),
                        _ => {}
                    }
                }
                let v = self.expr(x);
                match v.kind {
                    ValueKind::String { value } => Ok(value),
                    ValueKind::Number { value } => Ok(self.arena.str(&js_number(value))),
                    ValueKind::Unknown { .. } => Err(v),
                    _ => {
                        Err(self
                            .not_static(x.span(), format!("{} as a key is not evaluated statically", kind_name(&v))))
                    }
                }
            }
        }
    }

    fn object(&mut self, o: &'a ObjectExpression<'a>) -> Value<'v> {
        // Written in the arena as they come, as `array`'s items. A later key replaces an earlier
        // one (in its place, as in JavaScript). Keys are pushed as they come, through a
        // [`KeyFilter`]: only an object where two keys may be the same is deduplicated afterwards
        // ([`dedupe_props`]).
        let mut entries = self.arena.list(o.properties.len());
        let mut keys = KeyFilter::default();
        for p in &o.properties {
            match p {
                ObjectPropertyKind::SpreadProperty(sp) => {
                    let v = self.expr(&sp.argument);
                    match v.kind {
                        ValueKind::Object { props: more } if self.spend(more.len()) => {
                            for m in more {
                                keys.add(m.key);
                            }
                            entries.extend_from_slice(more);
                        }
                        ValueKind::Object { .. } => {
                            self.too_big(sp.span);
                        }
                        ValueKind::Null | ValueKind::Undefined => {}
                        _ => {
                            let reason = match &v.kind {
                                ValueKind::Unknown { reason } => {
                                    format!("a spread of a value not known statically ({reason}): its keys are unknown")
                                }
                                _ => format!("a spread of {} is not evaluated statically", kind_name(&v)),
                            };
                            self.not_static(sp.span, reason);
                        }
                    }
                }
                ObjectPropertyKind::ObjectProperty(p) => {
                    if p.kind != PropertyKind::Init {
                        self.not_static(p.span, "a getter or setter is not evaluated statically");
                        continue;
                    }
                    let key = match self.key_of(&p.key, p.computed) {
                        Ok(k) => k,
                        Err(_) => continue,
                    };
                    let value = self.expr(&p.value);
                    keys.add(key);
                    let key_loc = self.loc(p.key.span());
                    entries.push(Prop { key, key_loc, value });
                }
            }
        }
        let props = if keys.may_repeat() {
            let mut props = dedupe_props(&entries);
            js_key_order(&mut props);
            self.arena.props(&props)
        } else {
            let props = entries.into_bump_slice_mut();
            js_key_order(props);
            &*props
        };
        let v = self.val(ValueKind::Object { props }, o.span);
        self.bounded(v, o.span)
    }

    fn member_expr(&mut self, m: &'a MemberExpression<'a>) -> Value<'v> {
        let s = m.span();
        let (obj, key): (&'a Expression<'a>, Result<Name, Value<'v>>) = match m {
            MemberExpression::StaticMemberExpression(x) => (&x.object, Ok(x.property.name.as_str().into())),
            MemberExpression::ComputedMemberExpression(x) => {
                let k = self.expr(&x.expression);
                let k = match k.kind {
                    ValueKind::String { value } => Ok(Name::from(value)),
                    ValueKind::Number { value } => Ok(js_number(value).into()),
                    ValueKind::Unknown { .. } => Err(k),
                    _ => Err(self.not_static(
                        x.expression.span(),
                        format!("{} as a key is not evaluated statically", kind_name(&k)),
                    )),
                };
                (&x.object, k)
            }
            MemberExpression::PrivateFieldExpression(x) => {
                return self.not_static(x.span, "a private field is not evaluated statically")
            }
        };
        let key = match key {
            Ok(k) => k,
            Err(v) => return v,
        };
        if let Some((module, None)) = self.known_of(obj) {
            return self.val(ValueKind::Imported { callee: callee_of(module, self.arena.str(&key)) }, s);
        }
        let v = self.expr(obj);
        self.member(v, &key, s)
    }

    /// If `e` names a known module's import: the module and the export (`None` for the module
    /// itself, a namespace).
    fn known_of(&self, e: &Expression<'a>) -> Option<(KnownModule, Option<&'a str>)> {
        match strip(e) {
            Expression::Identifier(i) => match self.bindings.get(i.name.as_str()) {
                Some(Binding::Known { module, name }) if self.local(i.name.as_str()).is_none() => {
                    Some((*module, *name))
                }
                _ => None,
            },
            _ => None,
        }
    }

    fn unary(&mut self, u: &'a UnaryExpression<'a>) -> Value<'v> {
        let s = u.span;
        if u.operator == UnaryOperator::Void {
            return self.val(ValueKind::Undefined, s);
        }
        let v = self.expr(&u.argument);
        match (u.operator, &v.kind) {
            (_, ValueKind::Unknown { .. }) => v,
            (UnaryOperator::UnaryNegation, ValueKind::Number { value }) => {
                self.val(ValueKind::Number { value: -value }, s)
            }
            (UnaryOperator::UnaryPlus, ValueKind::Number { value }) => self.val(ValueKind::Number { value: *value }, s),
            (UnaryOperator::LogicalNot, _) if truthy(&v).is_some() => {
                self.val(ValueKind::Bool { value: !truthy(&v).unwrap_or(false) }, s)
            }
            _ => self
                .not_static(s, format!("`{}` of {} is not evaluated statically", u.operator.as_str(), kind_name(&v))),
        }
    }

    fn binary(&mut self, b: &'a BinaryExpression<'a>) -> Value<'v> {
        let s = b.span;
        let l = self.expr(&b.left);
        let r = self.expr(&b.right);
        if l.is_unknown() {
            return l;
        }
        if r.is_unknown() {
            return r;
        }
        use ValueKind as K;
        if b.operator == BinaryOperator::Addition {
            let len = |v: &Value<'_>| v.as_str().map_or(0, str::len);
            if !self.spend(len(&l) + len(&r)) {
                return self.too_big(s);
            }
        }
        let kind = match (b.operator, &l.kind, &r.kind) {
            (BinaryOperator::Addition, K::String { value: a }, K::String { value: c }) => {
                K::String { value: self.arena.str(&compact_str::format_compact!("{a}{c}")) }
            }
            (BinaryOperator::Addition, K::String { value: a }, K::Number { value: c }) => {
                K::String { value: self.arena.str(&compact_str::format_compact!("{a}{}", js_number(*c))) }
            }
            (BinaryOperator::Addition, K::Number { value: a }, K::String { value: c }) => {
                K::String { value: self.arena.str(&compact_str::format_compact!("{}{c}", js_number(*a))) }
            }
            (op, K::Number { value: a }, K::Number { value: c }) => match op {
                BinaryOperator::Addition => K::Number { value: a + c },
                BinaryOperator::Subtraction => K::Number { value: a - c },
                BinaryOperator::Multiplication => K::Number { value: a * c },
                BinaryOperator::Division => K::Number { value: a / c },
                BinaryOperator::Remainder => K::Number { value: a % c },
                BinaryOperator::LessThan => K::Bool { value: a < c },
                BinaryOperator::GreaterThan => K::Bool { value: a > c },
                BinaryOperator::LessEqualThan => K::Bool { value: a <= c },
                BinaryOperator::GreaterEqualThan => K::Bool { value: a >= c },
                BinaryOperator::StrictEquality | BinaryOperator::Equality => K::Bool { value: a == c },
                BinaryOperator::StrictInequality | BinaryOperator::Inequality => K::Bool { value: a != c },
                _ => return self.not_static(s, format!("`{}` is not evaluated statically", op.as_str())),
            },
            (BinaryOperator::StrictEquality, K::String { value: a }, K::String { value: c }) => {
                K::Bool { value: a == c }
            }
            (BinaryOperator::StrictInequality, K::String { value: a }, K::String { value: c }) => {
                K::Bool { value: a != c }
            }
            (op, _, _) => {
                return self.not_static(
                    s,
                    format!("`{}` of {} and {} is not evaluated statically", op.as_str(), kind_name(&l), kind_name(&r)),
                )
            }
        };
        self.val(kind, s)
    }

    /// A call's arguments, in the arena (written as `array`'s items are).
    fn args(&mut self, args: &'a oxc_allocator::Vec<'a, Argument<'a>>) -> &'v [Value<'v>] {
        let mut out = self.arena.list(args.len());
        for a in args {
            let item = match a {
                Argument::SpreadElement(sp) => {
                    self.spread_into(sp, &mut out);
                    continue;
                }
                other => match other.as_expression() {
                    Some(x) => self.expr(x),
                    None => self.not_static(other.span(), "this argument is not evaluated statically"),
                },
            };
            out.push(item);
        }
        out.into_bump_slice()
    }

    /// A call of the authoring surface as a value: every call the evaluator makes goes through here.
    fn call_value(
        &mut self,
        callee: Callee<'v>,
        receiver: Option<Value<'v>>,
        args: &'v [Value<'v>],
        s: oxc_span::Span,
    ) -> Value<'v> {
        self.g.may_dispatch |= callee == Callee::Kit("dispatch");
        let v = self.val(ValueKind::Call(self.arena.call(Call { callee, receiver, args })), s);
        self.bounded(v, s)
    }

    fn call(&mut self, c: &'a CallExpression<'a>) -> Value<'v> {
        let s = c.span;
        let callee = strip(&c.callee);
        // `ns.member(...)` on a known module, or `name(...)` of a known import.
        if let Some((module, name)) = self.known_of(callee) {
            return match name {
                Some(n) => {
                    let args = self.args(&c.arguments);
                    self.call_value(callee_of(module, self.arena.str(n)), None, args, s)
                }
                None => self
                    .not_static(callee.span(), format!("the module `{}` itself cannot be called", module_name(module))),
            };
        }
        let member: Option<(&'a Expression<'a>, Result<&'v str, Value<'v>>)> = match callee {
            Expression::StaticMemberExpression(m) => Some((&m.object, Ok(self.arena.str(m.property.name.as_str())))),
            Expression::ComputedMemberExpression(m) => {
                let k = self.expr(&m.expression);
                Some((
                    &m.object,
                    match k.kind {
                        ValueKind::String { value } => Ok(value),
                        _ => Err(k),
                    },
                ))
            }
            _ => None,
        };
        if let Some((obj, key)) = member {
            let name = match key {
                Ok(k) => k,
                Err(v) if v.is_unknown() => return v,
                Err(_) => return self.not_static(callee.span(), "a method named by a value not known statically"),
            };
            if let Some((module, None)) = self.known_of(obj) {
                let args = self.args(&c.arguments);
                return self.call_value(callee_of(module, name), None, args, s);
            }
            let receiver = self.expr(obj);
            return match &receiver.kind {
                ValueKind::Call(_) | ValueKind::Imported { .. } => {
                    let args = self.args(&c.arguments);
                    self.call_value(Callee::Method(name), Some(receiver), args, s)
                }
                ValueKind::Unknown { .. } => receiver,
                ValueKind::Object { .. } => match receiver.get(name).map(|v| v.kind) {
                    Some(ValueKind::Imported { callee }) => {
                        let args = self.args(&c.arguments);
                        self.call_value(callee, None, args, s)
                    }
                    _ => self.not_static(s, format!("a call of `.{name}` of an object is not evaluated statically")),
                },
                _ => self.not_static(
                    s,
                    format!("the method `.{name}` of {} is not evaluated statically", kind_name(&receiver)),
                ),
            };
        }
        let f = self.expr(callee);
        match f.kind {
            ValueKind::Imported { callee } => {
                let args = self.args(&c.arguments);
                self.call_value(callee, None, args, s)
            }
            ValueKind::Unknown { .. } => f,
            ValueKind::Function(_) => self.not_static(
                s,
                "a call of a function of this Workflow is not evaluated statically; write the value, or call the kit",
            ),
            _ => self.not_static(s, format!("a call of {} is not evaluated statically", kind_name(&f))),
        }
    }
}

enum Source<'a> {
    Known(KnownModule),
    Package(&'a str),
    File(Option<FileId>),
    /// A file of no code a bundler loads (`./style.css`): not read.
    Opaque,
}

/// The key of a destructuring pattern's property when it is written out (`{ a }`, `{ "a": x }`),
/// not computed.
fn pattern_key<'a>(prop: &'a BindingProperty<'a>) -> Option<&'a str> {
    match &prop.key {
        PropertyKey::StaticIdentifier(i) if !prop.computed => Some(i.name.as_str()),
        PropertyKey::StringLiteral(s) => Some(s.value.as_str()),
        _ => None,
    }
}

fn pattern_names<'a>(p: &'a BindingPattern<'a>, out: &mut Vec<(&'a str, Span)>) {
    match p {
        BindingPattern::BindingIdentifier(id) => out.push((id.name.as_str(), span(id.span))),
        BindingPattern::ObjectPattern(o) => {
            for prop in &o.properties {
                pattern_names(&prop.value, out);
            }
            if let Some(r) = &o.rest {
                pattern_names(&r.argument, out);
            }
        }
        BindingPattern::ArrayPattern(a) => {
            for el in a.elements.iter().flatten() {
                pattern_names(el, out);
            }
            if let Some(r) = &a.rest {
                pattern_names(&r.argument, out);
            }
        }
        BindingPattern::AssignmentPattern(a) => pattern_names(&a.left, out),
    }
}

/// A 64-bit filter of an object's keys by (length, first byte), as they are pushed: it says
/// whether some key may have come twice (a false alarm now and then, never a miss), so that only
/// such an object is searched for duplicates; most objects are not.
#[derive(Default)]
pub(super) struct KeyFilter {
    seen: u64,
    repeat: bool,
}

impl KeyFilter {
    pub(super) fn add(&mut self, key: &str) {
        let bit = 1u64 << ((key.len() * 7 + key.as_bytes().first().map_or(0, |&b| b as usize)) % 64);
        self.repeat |= self.seen & bit != 0;
        self.seen |= bit;
    }

    pub(super) fn may_repeat(&self) -> bool {
        self.repeat
    }
}

/// An object's properties with each key once: a later key's value replaces the earlier one's, in
/// the earlier one's place (JavaScript's order). A scan for a small object, an index for a large
/// one (a Machine's `states` of hundreds), so it stays linear in the keys.
fn dedupe_props<'v>(props: &[Prop<'v>]) -> Vec<Prop<'v>> {
    let mut out: Vec<Prop<'v>> = Vec::with_capacity(props.len());
    let mut index: FxMap<&'v str, usize> = FxMap::default();
    for &p in props {
        if index.is_empty() && out.len() >= 32 {
            index.extend(out.iter().enumerate().map(|(i, q)| (q.key, i)));
        }
        let at = if index.is_empty() { out.iter().position(|q| q.key == p.key) } else { index.get(p.key).copied() };
        match at {
            Some(i) => out[i].value = p.value,
            None => {
                if !index.is_empty() {
                    index.insert(p.key, out.len());
                }
                out.push(p);
            }
        }
    }
    out
}

/// Orders an object's properties as JavaScript does (`OrdinaryOwnPropertyKeys`): the keys that
/// are array indices first, ascending, then the others in the order they were written. xstate
/// reads a state's children in this order (`Object.keys` of `states`).
fn js_key_order(props: &mut [Prop<'_>]) {
    if props.iter().any(|p| array_index(p.key).is_some()) {
        // Stable: the other keys keep their order.
        props.sort_by_key(|p| array_index(p.key).map_or((1, 0), |i| (0, i)));
    }
}

/// The array index a key is, if it is one: the canonical decimal of an integer from 0 to
/// 2^32 - 2 (`"0"`, `"10"`; not `"01"`, `"-1"`, `"1.5"` or `"4294967295"`).
fn array_index(key: &str) -> Option<u32> {
    let b = key.as_bytes();
    if b.is_empty() || b.len() > 10 || !b.iter().all(u8::is_ascii_digit) || (b[0] == b'0' && b.len() > 1) {
        return None;
    }
    key.parse::<u64>().ok().filter(|&n| n < u64::from(u32::MAX)).map(|n| n as u32)
}

/// JavaScript truthiness of a known value.
fn truthy(v: &Value<'_>) -> Option<bool> {
    Some(match &v.kind {
        ValueKind::Undefined | ValueKind::Null => false,
        ValueKind::Bool { value } => *value,
        ValueKind::Number { value } => *value != 0.0 && !value.is_nan(),
        ValueKind::String { value } => !value.is_empty(),
        ValueKind::Array { .. }
        | ValueKind::Object { .. }
        | ValueKind::Function(_)
        | ValueKind::Call(_)
        | ValueKind::Imported { .. } => true,
        ValueKind::Unknown { .. } => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file whose spreads or concatenations double a value again and again is refused past
    /// [`MAX_COPIED`] with one warning, not evaluated until the memory runs out.
    #[test]
    fn doubling_spreads_and_strings_stop_at_the_copy_budget() {
        let mut src = String::from("const a0 = [1, 2];\nconst s0 = 'ab';\nconst o0 = { k: 1 };\n");
        for i in 1..40 {
            src.push_str(&format!(
                "const a{i} = [...a{p}, ...a{p}];\nconst s{i} = `${{s{p}}}${{s{p}}}` + s{p};\nconst o{i} = {{ ...o{p}, [`k{i}`]: {i} }};\n",
                p = i - 1
            ));
        }
        src.push_str("export const all = [a39, s39, o39];\n");
        let ev = eval(&src);
        let too_big: Vec<_> = ev.faults.iter().filter(|d| d.message.starts_with("too big")).collect();
        assert_eq!(too_big.len(), 1, "{:?}", ev.faults);
        // Past the budget a spread is one unknown item, and a string unknown (its reason said
        // once, not wrapped at each link).
        let all = ev.exports.get("all").and_then(Value::as_array).expect("an array");
        let items = all[0].as_array().expect("an array");
        assert!(items.len() <= MAX_COPIED && items.iter().any(Value::is_unknown), "{} items", items.len());
        assert!(all[1].unknown_reason().is_some_and(|r| r.len() < 200), "{:?}", all[1]);
    }

    /// A config sharing one state twice per level, forty levels deep, names 2^40 states in a few
    /// lines: past [`MAX_TREE`] that value is unknown (one warning), so no pass walks it; the
    /// levels below the limit stay values, each measured without a walk.
    #[test]
    fn states_shared_exponentially_stop_at_the_tree_limit() {
        let mut src = String::from("const s0 = { type: 'final' };\n");
        for i in 1..40 {
            src.push_str(&format!("const s{i} = {{ type: 'parallel', states: {{ a: s{p}, b: s{p} }} }};\n", p = i - 1));
        }
        src.push_str("export const small = s10;\nexport const big = s39;\n");
        let ev = eval(&src);
        let too_big: Vec<_> = ev.faults.iter().filter(|d| d.message.starts_with("too big")).collect();
        assert_eq!(too_big.len(), 1, "{:?}", ev.faults);
        // The level past the limit is unknown; the ones above it share that unknown, small again.
        let big = ev.exports.get("big").expect("s39");
        assert!(big.tree_size() <= MAX_TREE, "{}", big.tree_size());
        // s0 is 2 values (the object, its `type`); each level is 3 (the object, its `type`, its
        // `states`) and the level below twice: s10 is 5 * 2^10 - 3.
        let small = ev.exports.get("small").expect("s10");
        assert_eq!(small.tree_size(), 5 * 1024 - 3);
    }

    /// Functions that each read a large value copy it into their lowering: that counts too.
    #[test]
    fn functions_reading_a_large_value_stop_at_the_copy_budget() {
        let mut src = String::from("const s0 = 'ab';\n");
        for i in 1..18 {
            src.push_str(&format!("const s{i} = `${{s{p}}}${{s{p}}}`;\n", p = i - 1));
        }
        let fns: Vec<String> = (0..8).map(|i| format!("f{i}: ({{ context }}) => `${{s17}}${{context.x}}`")).collect();
        src.push_str(&format!("export const fns = {{ {} }};\n", fns.join(", ")));
        let ev = eval(&src);
        let too_big = ev.faults.iter().filter(|d| d.message.starts_with("too big")).count();
        assert_eq!(too_big, 1, "{:?}", ev.faults);
        let fns = ev.exports.get("fns").and_then(Value::props).expect("an object");
        let lowered = fns.iter().filter(|p| p.value.as_function().is_some_and(|f| f.lowered.is_some())).count();
        assert!(lowered < 8, "{lowered} of 8 functions lowered a 256 KB string each");
    }

    /// An object's keys in JavaScript's order: array indices first, ascending, then the others
    /// as written; a repeated key stays in its first place; spreads and computed keys alike.
    #[test]
    fn object_keys_are_in_javascripts_order() {
        let src = "const more = { 7: 'm', z: 'z' };
export const a = { b: 1, 10: 2, a: 3, 2: 4, '01': 5, '-1': 6, 4294967295: 7, 4294967294: 8, 1.5: 9 };
export const r = { x: 1, 3: 2, [`0`]: 3, x: 4, ...more };
";
        let ev = eval(src);
        let keys = |name: &str| -> Vec<&str> {
            ev.exports.get(name).and_then(Value::props).expect("an object").iter().map(|p| p.key).collect()
        };
        assert_eq!(keys("a"), ["2", "10", "4294967294", "b", "a", "01", "-1", "4294967295", "1.5"]);
        assert_eq!(keys("r"), ["0", "3", "7", "x", "z"]);
        let x = ev.exports.get("r").and_then(|r| r.get("x")).map(|v| v.kind);
        assert!(matches!(x, Some(ValueKind::Number { value }) if value == 4.0), "{x:?}");
    }

    /// On the evaluator's stack (no hand-off), on the kept evaluator thread, and again there: the
    /// same result, warnings included; an export read by another export keeps its value in both.
    #[test]
    fn evaluations_are_the_same_on_any_thread() {
        let text = "import { z } from \"zod\";\nexport const a = { b: z.string(), c: [1, `x`], d: nope };\nexport const e = { a };\nexport { a as f };\n";
        let path = Path::new("/nonexistent/a.ts");
        let handed_off = serde_json::to_value(evaluate_text(path, text)).unwrap();
        let again = serde_json::to_value(evaluate_text(path, text)).unwrap();
        let inline = serde_json::to_value(on_evaluator_stack(|| evaluate_text(path, text))).unwrap();
        assert_eq!(handed_off, again);
        assert_eq!(handed_off, inline);
        assert_eq!(handed_off["exports"]["a"], handed_off["exports"]["e"]["kind"]["props"][0]["value"]);
        assert_eq!(handed_off["exports"]["a"], handed_off["exports"]["f"]);
        assert_eq!(handed_off["faults"].as_array().unwrap().len(), 1, "{handed_off}");
    }

    fn show(ev: &Evaluated) -> String {
        let diags: Vec<serde_json::Value> = ev
            .faults
            .iter()
            .map(|d| {
                let f = d.loc.file;
                let text = &ev.files[f.0 as usize].text;
                serde_json::json!({
                    "file": f.0,
                    "code": d.kind,
                    "message": d.message,
                    "span": d.loc.span,
                    "at": text.get(d.loc.span.start as usize..d.loc.span.end as usize),
                })
            })
            .collect();
        serde_json::to_string_pretty(&serde_json::json!({ "exports": ev.exports, "diagnostics": diags }))
            .unwrap_or_default()
    }

    fn eval(src: &str) -> Evaluated {
        evaluate_text(Path::new("/nonexistent/jr2-eval-test/flow.ts"), src)
    }

    const KIT: &str = "import { z } from \"zod\";\nimport { agent, defineEvent, paramsOf, jr2Setup, workspace, sentBy } from \"@jr2/orchestrator\";\nimport { assign, setup } from \"xstate\";\n";

    /// `may_dispatch` says whether a `dispatch(...)` was evaluated, however it was reached (a
    /// direct import, a namespace, a binding read later); the Instance check skips its scan when not.
    #[test]
    fn may_dispatch_is_set_by_any_evaluated_dispatch_call() {
        let none =
            eval("import { agent } from \"@jr2/orchestrator\";\nexport const machine = { a: agent({ model: 'm' }) };");
        assert!(!none.may_dispatch);
        let direct = eval("import { dispatch } from \"@jr2/orchestrator\";\nconst d = dispatch('other', {});\nexport const machine = { invoke: { src: d } };");
        assert!(direct.may_dispatch);
        let namespaced =
            eval("import * as kit from \"@jr2/orchestrator\";\nexport const machine = [kit.dispatch('x', {})];");
        assert!(namespaced.may_dispatch);
        // A dispatch the machine never reaches is not evaluated (bindings are read lazily).
        let unread = eval("import { dispatch } from \"@jr2/orchestrator\";\nconst d = dispatch('other', {});\nexport const machine = {};");
        assert!(!unread.may_dispatch);
    }

    /// A later key replaces an earlier one in its place, in a small object (a scan) and in a large
    /// one (an index); keys that only share a length and first letter both stay.
    #[test]
    fn a_later_key_replaces_an_earlier_one_in_its_place() {
        let many: Vec<String> = (0..40).map(|i| format!("k{i}: {i}")).collect();
        let src = format!(
            "const base = {{ a: 1, b: 2 }};\nexport const o = {{ ...base, c: 3, a: 4, ab: 5, ac: 6, ab: 7 }};\nexport const big = {{ {}, k5: 'x', k39: 'y', k40: 'z' }};",
            many.join(", ")
        );
        let ev = eval(&src);
        assert!(ev.faults.is_empty(), "{:?}", ev.faults);
        let keys = |v: &Value<'_>| v.props().unwrap().iter().map(|p| p.key.to_string()).collect::<Vec<_>>();
        let o = &ev.exports.get("o").unwrap();
        assert_eq!(keys(o), ["a", "b", "c", "ab", "ac"]);
        assert_eq!(o.get("a").and_then(Value::to_json), Some(serde_json::json!(4)));
        assert_eq!(o.get("ab").and_then(Value::to_json), Some(serde_json::json!(7)));
        let big = &ev.exports.get("big").unwrap();
        let want: Vec<String> = (0..41).map(|i| format!("k{i}")).collect();
        assert_eq!(keys(big), want);
        assert_eq!(big.get("k5").and_then(Value::as_str), Some("x"));
        assert_eq!(big.get("k39").and_then(Value::as_str), Some("y"));
        assert_eq!(big.get("k40").and_then(Value::as_str), Some("z"));
        assert_eq!(big.get("k6").and_then(Value::to_json), Some(serde_json::json!(6)));
    }

    /// Each construct of the evaluator, one snapshot each.
    #[test]
    fn constructs() {
        let cases: &[(&str, &str)] = &[
            ("literals", "export const a = { s: 'x', n: 1.5, neg: -1, t: true, f: false, nul: null, u: undefined, arr: [1, 'two', [3]] };"),
            ("template_known", "const who = 'world'; const n = 2; export const t = `hello ${who} ${n}`;"),
            ("template_unknown", "let who = 'x'; export const t = `hello ${who}`;"),
            ("ts_wrappers", "interface I { a: string }\ntype T = { b: number };\nexport const a = ({ x: 'y' } as const) satisfies Record<string, string>;\nexport const b = <string>'c';\nexport const c = (a!);\nexport const d = {} as { context: I };"),
            ("spreads_and_keys", "const base = { a: 1, b: 2 }; const k = 'kk'; const arr = [1, 2];\nexport const o = { ...base, b: 3, [k]: 'v', ['lit']: 4, 'quoted-key': 5, 6: 'six' };\nexport const xs = [0, ...arr, 3];"),
            ("shorthand_and_destructuring", "const src = { a: 'A', nested: { b: 'B' }, list: [10, 20, 30] };\nconst { a, nested: { b }, missing = 'dflt', ...rest } = src;\nconst [first, , ...others] = src.list;\nexport const out = { a, b, missing, rest, first, others };"),
            ("arithmetic", "export const s = 'a' + 'b' + 1; export const n = 2 * 3 - 1; export const m = -(-1);"),
            ("let_var_not_static", "let model = 'm'; var x = 1;\nexport const a = { model, x };"),
            ("export_forms", "const a = 1; const b = 'two';\nexport { a as one, b };\nexport default { a };\nexport function f({ context }) { return context.count; }"),
            ("kit_calls", &format!("{KIT}const done = defineEvent({{ name: 'done', description: 'Done.', input: z.object({{ note: z.string().optional().describe('a note') }}) }});\nexport const writer = agent({{ model: 'anthropic/claude-haiku-5-5', instructions: 'Write.' }});\nexport const guard = sentBy('writer');\nexport const act = assign({{ count: ({{ context }}) => context.count }});\nexport const setupCall = setup({{}}).createMachine({{ id: 'x' }});\nexport const asValue = {{ sentBy, zs: z.string }};\nexport {{ done }};")),
            ("namespace_imports", "import * as kit from '@jr2/orchestrator';\nimport * as zz from 'zod';\nexport const a = kit.agent({ model: 'm' });\nexport const s = zz.z;\nexport const t = kit.fail();"),
            ("package_import", "import { basename } from 'node:path';\nimport type { Foo } from 'somewhere';\nexport const a = { name: basename('x'), keep: 'kept' };"),
            ("functions_facts", &format!("{KIT}const runTest = defineEvent({{ name: 'run_test', description: 'Run.', input: z.object({{ module: z.string() }}) }});\nconst fixTree = (context) => `${{context.workspace.repos.app}}/fix`;\nexport const fns = {{\n  ctx: ({{ context }}) => context.ticket.id,\n  input: ({{ input }}) => input,\n  obj: ({{ context, event }}) => ({{ prompt: 'Go', ticket: context.ticket, kind: event.type, list: [context.a, 'x'] }}),\n  tmpl: ({{ context }}) => `ticket ${{context.ticket}} done`,\n  pick: ({{ event }}) => ({{ file: `test/${{paramsOf(event, runTest).module}}.test.js` }}),\n  destructured: ({{ event }}) => {{ const {{ module, other }} = paramsOf(event, runTest); return {{ module }}; }},\n  helper: ({{ context }}) => ({{ cwd: fixTree(context) }}),\n  args: (args) => args.context.round,\n  fill: ({{ context, params }}) => ({{ ticket: context.ticket, body: params.body }}),\n  cmp: ({{ context }}) => context.n > 3 ? 'a' : 'b',\n  opaque: ({{ context }}) => unknownFn(context.x),\n  method: ({{ context }}) => context.name.toUpperCase(),\n  loop: ({{ context }}) => {{ for (const x of context.xs) {{}} return 1; }},\n  classic: function ({{ event }}) {{ return event.output; }},\n}};")),
            ("local_helper", "const f = (x) => x; const g = () => 1;\nexport const a = f(1);\nexport const fns = { inner: ({ context }) => { const h = (c) => c.k; return h(context); } };"),
            ("unsupported_construct", "class A {}\nexport const a = { keep: 'yes', bad: new A(), re: /x/, also: 'kept' };"),
            ("self_reference", "export const a = { me: a };"),
            ("method_on_literal", "export const a = 'abc'.toUpperCase();\nexport const b = [1].map((x) => x);"),
            ("conditional_and_logical", "const flag = true; const none = null;\nexport const a = flag ? 'yes' : 'no';\nexport const b = none ?? 'fallback';\nexport const c = flag && 'and';"),
        ];
        for (name, src) in cases {
            let ev = eval(src);
            insta::assert_snapshot!(format!("construct_{name}"), show(&ev), src);
        }
    }

    #[test]
    fn unsupported_construct_warns_at_its_exact_span_and_the_rest_evaluates() {
        let src = "export const a = { keep: 'yes', bad: new Thing(), also: 'kept' };";
        let ev = eval(src);
        let warns: Vec<_> = ev.faults.iter().filter(|d| d.kind == FaultKind::NotStatic).collect();
        assert_eq!(warns.len(), 1);
        let d = warns[0];
        assert_eq!(&src[d.loc.span.start as usize..d.loc.span.end as usize], "new Thing()");
        let a = &ev.exports.get("a").unwrap();
        assert_eq!(a.get("keep").and_then(Value::as_str), Some("yes"));
        assert_eq!(a.get("also").and_then(Value::as_str), Some("kept"));
        assert!(a.get("bad").is_some_and(Value::is_unknown));
    }

    #[test]
    fn syntax_error_is_one_ts_syntax_error_and_no_values() {
        let ev =
            eval("export const machine = jr2Setup({ actors: { } }).createMachine({ id: 'x', ;\nexport const b = 1;");
        assert!(ev.exports.named().is_empty());
        assert_eq!(ev.faults.len(), 1);
        let d = &ev.faults[0];
        assert_eq!(d.kind, FaultKind::TsSyntax);
        insta::assert_snapshot!("syntax_error", show(&ev));
    }

    #[test]
    fn deep_nesting_is_refused_not_overflowed() {
        let deep = format!("export const a = {}1{};", "[".repeat(5000), "]".repeat(5000));
        let ev = eval(&deep);
        assert_eq!(ev.faults.len(), 1);
        assert_eq!(ev.faults[0].kind, FaultKind::TsSyntax);
        // Under the parser's limit, over the evaluator's: an error (what is below is not read),
        // once.
        let deep = format!("export const a = {}1{};", "[".repeat(900), "]".repeat(900));
        let ev = eval(&deep);
        assert_eq!(ev.faults.len(), 1, "{:?}", ev.faults);
        assert_eq!(ev.faults[0].kind, FaultKind::TsSyntax);
        assert!(ev.faults[0].message.starts_with("the code nests deeper than 200 levels here"));
        // Large: many bindings.
        let mut big = String::new();
        for i in 0..5000 {
            big.push_str(&format!("const v{i} = {{ k: 'v{i}', n: {i} }};\n"));
        }
        big.push_str("export const all = [");
        for i in 0..5000 {
            big.push_str(&format!("v{i}, "));
        }
        big.push_str("];\n");
        let ev = eval(&big);
        assert!(ev.faults.is_empty());
        assert_eq!(ev.exports.get("all").unwrap().as_array().map(<[Value<'_>]>::len), Some(5000));
    }

    fn temp_dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("jr2-eval-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("temp dir");
        d
    }

    #[test]
    fn relative_imports_and_a_cycle() {
        let d = temp_dir("cycle");
        std::fs::create_dir_all(d.join("lib/parts")).expect("dir");
        std::fs::write(
            d.join("flow.ts"),
            "import { fromB, useA } from './lib/b';\nimport { idx } from './lib/parts';\nimport { js } from './lib/c.js';\nimport { gone } from './missing';\nexport const a = 'A';\nexport const machine = { fromB, useA, idx, js, gone };\n",
        )
        .expect("write");
        std::fs::write(
            d.join("lib/b.ts"),
            "import { a } from '../flow.ts';\nexport const fromB = 'B';\nexport const useA = { a };\n",
        )
        .expect("write");
        std::fs::write(d.join("lib/parts/index.ts"), "export const idx = 'index';\n").expect("write");
        std::fs::write(
            d.join("lib/c.ts"),
            "import { agent } from '@jr2/orchestrator';\nexport const js = agent({ model: 'm' });\n",
        )
        .expect("write");
        let ev = evaluate_file(&d.join("flow.ts"));
        let m = ev.machine().expect("machine");
        assert_eq!(m.get("fromB").and_then(Value::as_str), Some("B"));
        assert_eq!(m.get("idx").and_then(Value::as_str), Some("index"));
        assert!(m.get("js").is_some_and(|v| v.is_kit_call("agent")));
        // The cycle: b.ts reads `a` while flow.ts is still being evaluated.
        let use_a = m.get("useA").and_then(|v| v.get("a")).expect("useA.a");
        assert!(use_a.unknown_reason().is_some_and(|r| r.contains("import cycle")), "{use_a:?}");
        let codes: Vec<_> = ev.faults.iter().map(|d| (d.loc.file.0, d.kind)).collect();
        assert_eq!(codes, vec![(1, FaultKind::NotStatic), (0, FaultKind::UnresolvedImport)], "{:?}", ev.faults);
        assert_eq!(ev.files.len(), 4);
        let _ = std::fs::remove_dir_all(&d);
    }

    /// TypeScript's `bundler` resolution (`module::candidates`): `.tsx` (with JSX), `.mts`, `.js`
    /// written for `.ts`, a folder's `index`, JSON read as JSON, and a stylesheet as an opaque
    /// module with one warning at its import.
    #[test]
    fn bundler_imports() {
        let d = temp_dir("bundler");
        std::fs::create_dir_all(d.join("lib/dir")).expect("dir");
        let write = |p: &str, t: &str| std::fs::write(d.join(p), t).expect("write");
        write(
            "flow.ts",
            "import './lib/style.css';\nimport App from './lib/App.vue';\nimport { view } from './lib/view';\n\
             import { m } from './lib/m.mjs';\nimport { u } from './lib/u.js';\nimport { idx } from './lib/dir';\n\
             import data, { first } from './lib/data.json';\nimport * as all from './lib/data.json';\n\
             export const machine = { App, view, m, u, idx, data, first, all };\n",
        );
        write("lib/style.css", "a { color: red }\n");
        write("lib/App.vue", "<template><div/></template>\n");
        write("lib/view.tsx", "export const view = 'tsx';\nexport const El = () => <div class=\"x\" />;\n");
        write("lib/m.mts", "export const m = 'mts';\n");
        write("lib/u.ts", "export const u = 'ts';\n");
        write("lib/dir/index.tsx", "export const idx = 'index';\n");
        write("lib/data.json", "{ \"first\": \"a\", \"list\": [1, true, null], \"first\": \"b\" }\n");
        let ev = evaluate_file(&d.join("flow.ts"));
        let m = ev.machine().expect("machine");
        for (key, want) in [("view", "tsx"), ("m", "mts"), ("u", "ts"), ("idx", "index"), ("first", "b")] {
            assert_eq!(m.get(key).and_then(Value::as_str), Some(want), "{key}: {:?}", ev.faults);
        }
        let data = m.get("data").expect("data");
        assert_eq!(data.to_json(), Some(serde_json::json!({ "first": "b", "list": [1, true, null] })));
        assert_eq!(m.get("all").and_then(|a| a.get("default")).and_then(Value::to_json), data.to_json());
        // The JSON's values are placed in its own file.
        let json_file = ev.files.iter().position(|f| f.path.ends_with("data.json")).expect("read");
        assert_eq!(data.loc.file, FileId(json_file as u32));
        assert!(m.get("App").is_some_and(Value::is_unknown));
        let faults: Vec<_> = ev
            .faults
            .iter()
            .map(|f| {
                (f.kind, &ev.files[f.loc.file.0 as usize].text[f.loc.span.start as usize..f.loc.span.end as usize])
            })
            .collect();
        assert_eq!(
            faults,
            vec![(FaultKind::NotStatic, "'./lib/style.css'"), (FaultKind::NotStatic, "'./lib/App.vue'")],
            "{:?}",
            ev.faults
        );
        assert!(ev.faults[0].message.contains("opaque module"), "{}", ev.faults[0].message);
        assert!(!ev.files.iter().any(|f| f.path.ends_with("style.css")), "an opaque module is not read");

        // A JSON file that is not JSON: `json-syntax` in that file, and what was read stays.
        write("lib/data.json", "{ \"first\": \"a\", }\n");
        let ev = evaluate_file(&d.join("flow.ts"));
        let bad: Vec<_> = ev.faults.iter().filter(|f| f.kind == FaultKind::JsonSyntax).collect();
        assert_eq!(bad.len(), 1, "{:?}", ev.faults);
        assert!(ev.files[bad[0].loc.file.0 as usize].path.ends_with("data.json"));
        assert_eq!(ev.machine().and_then(|m| m.get("first")).and_then(Value::as_str), Some("a"));
        let _ = std::fs::remove_dir_all(&d);
    }

    /// A global is not a typo, and a recursive function is not a value defined by itself.
    #[test]
    fn globals_and_recursive_functions_are_said_so() {
        let ev = eval(
            "function fact(n) { return n <= 1 ? 1 : n * fact(n - 1); }\n\
             function even(n) { return n === 0 ? true : odd(n - 1); }\n\
             function odd(n) { return n === 0 ? false : even(n - 1); }\n\
             const cyclic = { a: cyclic };\n\
             export const machine = { now: Date.now(), max: Math.max(1, 2), fact, even, cyclic, gone: nowhere };\n",
        );
        let said = |name: &str| -> Vec<&str> {
            ev.faults
                .iter()
                .filter(|f| f.message.starts_with(&format!("`{name}`")))
                .map(|f| f.message.as_str())
                .collect()
        };
        for global in ["Date", "Math"] {
            assert_eq!(said(global), vec![format!("`{global}` is a global of JavaScript, not evaluated statically")]);
        }
        for recursive in ["fact", "even"] {
            let messages = said(recursive);
            assert!(
                !messages.is_empty() && messages.iter().all(|m| m.contains("is recursive, not evaluated")),
                "{messages:?}"
            );
        }
        assert_eq!(said("cyclic"), vec!["`cyclic` refers to itself while it is being defined"]);
        assert_eq!(said("nowhere"), vec!["`nowhere` is not defined in this file"]);
    }

    fn fixtures() -> Vec<PathBuf> {
        // The seed's examples, shared with the xstate cross-check (tests/xstate/fixtures).
        let dir = base::workspace::root().join("tests/xstate/fixtures");
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map(|rd| {
                rd.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|x| x == "ts"))
                    .collect()
            })
            .unwrap_or_default();
        files.sort();
        files
    }

    /// The seed's TSDoc examples evaluate with no diagnostic, and the Machine is the
    /// `createMachine` call the surface says.
    #[test]
    fn seed_examples() {
        let files = fixtures();
        assert!(files.len() >= 2);
        for path in files {
            let ev = evaluate_file(&path);
            assert!(ev.faults.is_empty(), "{}: {:?}", path.display(), ev.faults);
            let m = ev.machine().expect("machine export");
            let call = m.as_call().expect("a call");
            // `customize(workspace(body))`: any depth of wrappers.
            let mut inner = call;
            while matches!(inner.callee, Callee::Kit("workspace" | "customize")) {
                inner = inner.args.first().and_then(Value::as_call).expect("wrapped body");
            }
            assert_eq!(inner.callee, Callee::Method("createMachine"));
            assert!(inner.receiver.as_ref().is_some_and(|r| r.is_kit_call("jr2Setup")));
            let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or("x").to_string();
            insta::assert_snapshot!(format!("fixture_{name}"), show(&ev));
        }
    }

    proptest::proptest! {
        // More cases where CI sets JR2_SLOW.
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: if std::env::var_os("JR2_SLOW").is_some() { 1024 } else { 64 },
            .. Default::default()
        })]
        /// Mutated Workflows (bytes deleted, inserted, duplicated): no panic, bounded time.
        #[test]
        fn mutated_fixtures_never_panic(ops in proptest::collection::vec((0u8..3, 0usize..100_000, 0usize..40, proptest::prelude::any::<u8>()), 1..8)) {
            let base = std::fs::read_to_string(base::workspace::root().join("tests/xstate/fixtures/fix-tests-paramsof.ts")).unwrap_or_default();
            let mut bytes = base.into_bytes();
            for (op, at, len, b) in ops {
                if bytes.is_empty() { break; }
                let at = at % bytes.len();
                let end = (at + len).min(bytes.len());
                match op {
                    0 => { bytes.drain(at..end); }
                    1 => { let set = b"{}[]()`'\",;:.=>$ ax0\n"; bytes.insert(at, set[b as usize % set.len()]); }
                    _ => { let dup: Vec<u8> = bytes[at..end].to_vec(); bytes.splice(at..at, dup); }
                }
            }
            let text = String::from_utf8_lossy(&bytes).to_string();
            let start = std::time::Instant::now();
            let ev = eval(&text);
            proptest::prop_assert!(start.elapsed() < std::time::Duration::from_secs(5));
            for d in &ev.faults {
                proptest::prop_assert!(d.loc.span.end as usize <= text.len());
            }
        }
    }
}
