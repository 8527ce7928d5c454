//! The SCXML front end: an SCXML 1.0 document with the ECMAScript data model into the IR.
//!
//! [`lower`] reads the XML with roxmltree (every node with its byte range) and lowers the
//! `<scxml>` element into an [`ir::Machine`] of [`ir::Origin::Scxml`], beside the typed
//! [`Fault`]s (each at its span) of what it could not read. It never panics: malformed XML is
//! one [`FaultKind::Xml`] fault at its place and no IR; anything else it cannot lower is a fault
//! and the rest goes on, an action it cannot run an [`Action::Opaque`] with the reason.
//!
//! The lowering, element by element:
//! - `<scxml>` is the root state (its `name` the IR's id), `<state>` an atomic or compound state,
//!   `<parallel>`, `<final>`, `<history type>` ([`StateKind::History`] with its default
//!   `<transition>` as a [`Trigger::HistoryDefault`] transition). Every state's key is its `id`
//!   (a state without one gets `$N`, its pre-order index).
//! - A compound state's initial state is its `initial` attribute's (a direct child), else the
//!   first child state in document order; an `<initial>` element, or an `initial` naming deeper
//!   or several states, is a [`Trigger::Initial`] transition too.
//! - `<transition event cond target type>`: one IR transition per event descriptor, in document
//!   order; none is eventless ([`Trigger::Always`]). A descriptor matches as SCXML's does, a
//!   prefix of dot-separated tokens, written as xstate's wildcard: `foo` and `foo.*` are
//!   `foo.*`, `*` is `*`; `done.state.ID` and `done.invoke.ID` name xstate's done events
//!   (`xstate.done.state.ID.*`, `xstate.done.actor.ID.*`). `type="internal"` is `reenter: false`,
//!   the default `external` is `reenter: true`. `cond` is a [`Guard::Expr`].
//! - Executable content: `<raise>`, `<send>` (no target: [`SendTo::Own`]; `#_internal`: a
//!   [`Action::Raise`]; `#_parent`: [`SendTo::Parent`]; any other target or `targetexpr`:
//!   [`SendTo::Actor`]; a `type` other than SCXML's event processor: [`Action::Opaque`]),
//!   `<cancel>`, `<assign>`, `<log>`, `<if>/<elseif>/<else>`, `<foreach>`, and `<script>` (its
//!   assignments lowered where it is only those: `var x = e`, `x = e`, `x++`). An event is `{ "type": name, "data":
//!   payload }`: the payload of `namelist` and `<param>`s is an object, of `<content>` its value.
//!   Each `<onentry>` and `<onexit>` element is a block of its own (an [`Action::Block`] where a
//!   state has several): an error in one stops the rest of it only.
//! - `<data>` (anywhere in the document: early binding; with `binding="late"` a state's `<data>`
//!   is declared `undefined` and given its value when the state is first entered, before its
//!   `<onentry>`, as a `$bound.N` key of the context records) is the context: a constant value in
//!   [`Statechart::context`], any other in [`Statechart::context_expr`]. `<donedata>` is the
//!   final state's [`State::output`]. `<invoke>` of an inline child (`<content><scxml>`) is an
//!   [`Invoke`] whose `machine` is the child, lowered the same way, its `idlocation` the
//!   invoke's [`Invoke::id_location`]; a child's `<param>`s and `namelist` set its data.
//! - ECMAScript expressions are lowered by the Machine front end's lowering of a function's pure
//!   body (`machine::eval::lower_expression`): a data model variable `x` is `context.x`, `_event`,
//!   `_sessionid`, `_name` and `_ioprocessors` (and any undeclared name, whose read the run
//!   refuses as ECMAScript's `ReferenceError`) are [`Expr::Global`]s, `In('s')` is
//!   [`Expr::InState`].
//! - What does not lower into the IR's expressions but parses (a function called, `new`, `++x`
//!   in a condition, a `<script>` of statements) is carried as JavaScript ([`Expr::Js`], run by
//!   the runtime's engine; `Lowerer::carry`) with the data model's semantics; a `<script>`
//!   is then an [`Action::Run`]. The functions of the document's top-level `<script>`s and a
//!   `<data>` whose value is a function are declared before every carried script.
//! - `<data src>`, `<script src>` and `<invoke src>` name files of the document's folder
//!   ([`lower_in`], `Source`): read when the document is lowered, so that the IR holds them.
//!
//! A front end names no rule: a [`Fault`] is its kind, span and message.

use ir::expr::{BinaryOp, LogicalOp, Reference, Root};
use ir::{
    Action, Branch, Builtin, Expr, Guard, HistoryKind, Invoke, Json, JsonMap, Name, Origin, SendTo, Slot, SlotKind,
    State, StateId, StateKind, Statechart, TargetList, Transition, Trigger,
};
use roxmltree::{Document, Node};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use base::Span;

/// SCXML's namespace; an element in another namespace is read past.
pub(crate) const NAMESPACE: &str = "http://www.w3.org/2005/07/scxml";

/// How deeply elements may nest; deeper is a [`FaultKind::Xml`] fault, not a stack overflow.
pub const MAX_DEPTH: usize = 512;

/// The most XML nodes a document may have (roxmltree's limit).
pub(crate) const MAX_NODES: u32 = 1 << 20;

/// The largest file a `src` may name: 1 MiB.
pub const MAX_SRC: u64 = 1 << 20;

/// The most bytes one document's `src`s may read in all, its invoked documents' included.
pub const MAX_SRC_TOTAL: u64 = 16 << 20;

/// How deeply documents may invoke documents by `src` (one that invokes itself stops here).
pub const MAX_SRC_DEPTH: u32 = 8;

/// Where a document's `src`s are read from: a file of its folder (or below it), named by a
/// relative path (`file:` before it read past), a regular file of at most [`MAX_SRC`] bytes
/// whose real path (symbolic links followed) is still in the folder; never a URL, an absolute
/// path, a `..`, a FIFO or a device. What every document of one lowering reads is bounded by
/// [`MAX_SRC_TOTAL`].
pub(crate) struct Source {
    folder: Option<PathBuf>,
    depth: u32,
    read: std::sync::Arc<AtomicU64>,
}

impl Source {
    fn new(folder: Option<&Path>) -> Source {
        // A bare file name's folder is the working one.
        let folder = folder.map(|f| if f.as_os_str().is_empty() { PathBuf::from(".") } else { f.to_path_buf() });
        Source { folder, depth: 0, read: Default::default() }
    }

    /// The text of the file `src` names, or why it is not read.
    fn read(&self, src: &str) -> Result<(String, PathBuf), String> {
        let Some(folder) = &self.folder else {
            return Err("this document was not read from a folder".into());
        };
        let rel = src.strip_prefix("file:").unwrap_or(src);
        let scheme = rel
            .split_once(':')
            .is_some_and(|(s, _)| s.len() > 1 && s.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c)));
        if scheme || rel.is_empty() {
            return Err("jr2 reads a file of the document's folder, named by a relative path".into());
        }
        let path = Path::new(rel);
        if path.components().any(|c| !matches!(c, Component::Normal(_) | Component::CurDir)) {
            return Err("the path leaves the document's folder".into());
        }
        let joined = folder.join(path);
        let (Ok(real), Ok(base)) = (std::fs::canonicalize(&joined), std::fs::canonicalize(folder)) else {
            return Err("no such file".into());
        };
        if !real.starts_with(&base) {
            return Err("the path leads out of the document's folder (a symbolic link)".into());
        }
        let meta = std::fs::metadata(&real).map_err(|e| e.to_string())?;
        if !meta.is_file() {
            return Err(base::read::not_regular(meta.file_type()).to_string());
        }
        if meta.len() > MAX_SRC {
            return Err(format!("the file is larger than {} KiB", MAX_SRC >> 10));
        }
        if self.read.load(Relaxed) + meta.len() > MAX_SRC_TOTAL {
            return Err(format!("the document's files are larger than {} MiB in all", MAX_SRC_TOTAL >> 20));
        }
        let text = base::read::read_text(&real).map_err(|e| e.to_string())?;
        self.read.fetch_add(text.len() as u64, Relaxed);
        Ok((text, real))
    }

    /// The source of a document read from `file`: its folder, one level deeper.
    fn below(&self, file: &Path) -> Source {
        Source { folder: file.parent().map(Path::to_path_buf), depth: self.depth + 1, read: self.read.clone() }
    }
}

/// What a carried script's code is: an expression (its value the script's) or a `<script>`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Body {
    Expression,
    Script,
}

/// The code of every carried script before its own: the data model as ECMAScript's `with`
/// scopes (see `Lowerer::carry`). `$a`, `$p`, `$r` are the engine's three arguments
/// (`ir::expr::Script`); `$ids` is the document's table of state ids, which `In` reads.
const CARRIED_HEAD: &str = r#"(function ($a, $p, $r) {
var $own = Object.prototype.hasOwnProperty;
var In = function (id) { return $own.call($ids, id) && $r.active.indexOf($ids[id]) >= 0; };
var $c = $a.context;
if ($c === null || typeof $c !== "object") $c = {};
var $g = $r.globals;
var $s = new Proxy($c, {
  has: function (t, k) { return typeof k === "string" && ($own.call(t, k) || !(k in globalThis) && !$own.call($g, k) && k !== "In"); },
  get: function (t, k) { if (typeof k !== "string" || $own.call(t, k)) return t[k]; throw new ReferenceError(k + " is not defined"); },
  set: function (t, k, v) { if ($own.call(t, k)) { t[k] = v; return true; } throw new ReferenceError(k + " is not defined"); }
});
"#;

/// Can an expression's text change the data model? An `=` that is no comparison, `++`, `--`,
/// or a call (which may assign). A string holding one of these only costs a copy back.
fn assigns(text: &str) -> bool {
    let b = text.as_bytes();
    let at = |i: usize, k: usize| i.checked_sub(k).and_then(|j| b.get(j)).copied();
    let assignment = |i: usize| {
        let comparison = matches!(b.get(i + 1), Some(b'=' | b'>'))
            || matches!(at(i, 1), Some(b'=' | b'!'))
            // `<=` and `>=`, but not `<<=` and `>>=`.
            || (matches!(at(i, 1), Some(b'<' | b'>')) && !matches!(at(i, 2), Some(b'<' | b'>')));
        !comparison
    };
    text.contains("++")
        || text.contains("--")
        || text.contains('(')
        || b.iter().enumerate().any(|(i, &c)| c == b'=' && assignment(i))
}

/// What kind of thing a [`Fault`] says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FaultKind {
    /// The text is not well-formed XML (or nests past [`MAX_DEPTH`]).
    Xml,
    /// The document is not SCXML: no `<scxml>` root, an element where it cannot be, a missing or
    /// duplicated `id`.
    Structure,
    /// A target (`target`, `initial`, `In()`) names no state.
    Target,
    /// An ECMAScript expression or script that does not parse or does not lower.
    Expression,
    /// An SCXML feature the IR does not hold (a `src`, an I/O processor, `<finalize>`).
    Unsupported,
}

/// What the front end could not lower, at its span in the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub kind: FaultKind,
    pub span: Span,
    pub message: String,
}

/// A document lowered: its IR (none where the XML does not parse or has no `<scxml>` root) and
/// its faults, in document order.
#[derive(Debug)]
pub struct Lowered {
    pub machine: Option<ir::Machine>,
    pub faults: Vec<Fault>,
}

/// Lowers an SCXML document (see the crate's doc), which reads no other file: a `src` is a
/// fault. [`lower_in`] lowers a document read from a folder.
pub fn lower(text: &str) -> Lowered {
    lower_in(text, None)
}

/// Lowers an SCXML document whose `src`s (`<data src>`, `<script src>`, `<invoke src>`) name
/// files of `folder`, the document's own folder (see `Source`).
pub fn lower_in(text: &str, folder: Option<&Path>) -> Lowered {
    let source = Source::new(folder);
    machine::eval::on_evaluator_stack(|| lower_text(text, &source))
}

fn lower_text(text: &str, source: &Source) -> Lowered {
    let options = roxmltree::ParsingOptions { allow_dtd: false, nodes_limit: MAX_NODES, entity_resolver: None };
    let doc = match Document::parse_with_options(text, options) {
        Ok(doc) => doc,
        Err(e) => {
            let at = offset_of(text, e.pos().row, e.pos().col);
            let end = text[at..].chars().next().map_or(at, |c| at + c.len_utf8());
            let fault =
                Fault { kind: FaultKind::Xml, span: span(at..end), message: format!("not well-formed XML: {e}") };
            return Lowered { machine: None, faults: vec![fault] };
        }
    };
    let root = doc.root_element();
    if !is(root, "scxml") {
        let fault = Fault {
            kind: FaultKind::Structure,
            span: span(root.range()),
            message: format!("the document's root is <{}>, not SCXML's <scxml>", root.tag_name().name()),
        };
        return Lowered { machine: None, faults: vec![fault] };
    }
    let mut faults = Vec::new();
    if let Some(deep) = too_deep(root) {
        faults.push(Fault {
            kind: FaultKind::Xml,
            span: span(deep.range()),
            message: format!("the elements nest deeper than {MAX_DEPTH} levels here; jr2 does not read this document"),
        });
        return Lowered { machine: None, faults };
    }
    let chart = Lowerer::lower(root, &mut faults, source);
    faults.sort_by_key(|f| (f.span.start, f.span.end));
    Lowered { machine: Some(ir::Machine::lowered(chart)), faults }
}

/// The first element nested deeper than [`MAX_DEPTH`], found without recursion.
fn too_deep<'a, 'i>(root: Node<'a, 'i>) -> Option<Node<'a, 'i>> {
    root.descendants().filter(|n| n.is_element()).find(|n| n.ancestors().nth(MAX_DEPTH).is_some())
}

/// The byte offset of roxmltree's 1-based row and column (in characters).
fn offset_of(text: &str, row: u32, col: u32) -> usize {
    let mut at = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if i + 1 == row as usize {
            let col = (col as usize).saturating_sub(1);
            return at + line.char_indices().nth(col).map_or(line.len(), |(b, _)| b);
        }
        at += line.len();
    }
    text.len()
}

fn span(r: std::ops::Range<usize>) -> Span {
    Span::new(r.start as u32, r.end as u32)
}

/// Is `n` the SCXML element `name` (in SCXML's namespace, or in none)?
fn is(n: Node<'_, '_>, name: &str) -> bool {
    n.is_element() && n.tag_name().name() == name && n.tag_name().namespace().is_none_or(|ns| ns == NAMESPACE)
}

/// Is `n` an SCXML element (not one of another namespace)?
fn scxml_element(n: Node<'_, '_>) -> bool {
    n.is_element() && n.tag_name().namespace().is_none_or(|ns| ns == NAMESPACE)
}

fn children<'a, 'i>(n: Node<'a, 'i>) -> impl Iterator<Item = Node<'a, 'i>> {
    n.children().filter(|c| scxml_element(*c))
}

fn is_state(n: Node<'_, '_>) -> bool {
    ["state", "parallel", "final", "history"].iter().any(|k| is(n, k))
}

fn str_lit(s: &str) -> Expr {
    Expr::Literal(Json::String(s.into()))
}

fn context_ref(name: &str) -> Expr {
    Expr::Ref(Reference { root: Root::Context, path: smallvec::smallvec![Name::from(name)] })
}

/// What an SCXML expression's free names mean (see the crate's doc).
struct Scope<'x> {
    vars: &'x HashSet<String>,
    ids: &'x HashMap<String, StateId>,
}

/// The run's globals of an SCXML session.
const GLOBALS: &[&str] = &["_event", "_sessionid", "_name", "_ioprocessors", "_x"];

impl machine::eval::Names for Scope<'_> {
    fn name(&self, name: &str) -> Option<Expr> {
        if self.vars.contains(name) && !GLOBALS.contains(&name) {
            Some(context_ref(name))
        } else {
            // A system variable, or a name the data model does not declare (its read is the
            // run's error, as ECMAScript's ReferenceError is).
            Some(Expr::Global(name.into()))
        }
    }

    fn call(&self, callee: &str, args: Vec<Expr>) -> Option<Expr> {
        let func = match callee {
            "In" => {
                return match args.as_slice() {
                    [Expr::Literal(Json::String(id))] => self.ids.get(id.as_str()).map(|s| Expr::InState(*s)),
                    _ => None,
                };
            }
            "String" => Builtin::String,
            "Number" => Builtin::Number,
            "Boolean" => Builtin::Boolean,
            "JSON.stringify" => Builtin::JsonStringify,
            "Array.isArray" => Builtin::IsArray,
            "Math.pow" => Builtin::MathPow,
            _ => return None,
        };
        Some(Expr::Call { func, args })
    }
}

/// One document's lowering: the tree first (every state's id known before any target or `In()`
/// is read), then each state's content.
struct Lowerer<'a, 'i, 'f> {
    states: Vec<State>,
    /// Each state's element, by [`StateId`].
    nodes: Vec<Node<'a, 'i>>,
    ids: HashMap<String, StateId>,
    vars: HashSet<String>,
    transitions: Vec<Transition>,
    slots: ir::FxIndexMap<Name, Slot>,
    faults: &'f mut Vec<Fault>,
    /// Where the document's `src`s are read from.
    source: &'f Source,
    /// What every carried script declares before its own code: the functions of the document's
    /// top-level `<script>`s and the `<data>` whose value is a function (a run's context holds
    /// no function), each its name and its JavaScript.
    prelude: Vec<(String, String)>,
    /// The `<data>` carried in the prelude, not in the context.
    function_data: HashSet<String>,
    /// The text of each `<script src>` read so far, by its element.
    scripts: HashMap<roxmltree::NodeId, Option<String>>,
}

impl<'a, 'i, 'f> Lowerer<'a, 'i, 'f> {
    fn lower(root: Node<'a, 'i>, faults: &'f mut Vec<Fault>, source: &'f Source) -> Statechart {
        let mut l = Lowerer {
            states: Vec::new(),
            nodes: Vec::new(),
            ids: HashMap::new(),
            vars: HashSet::new(),
            transitions: Vec::new(),
            slots: ir::FxIndexMap::default(),
            faults,
            source,
            prelude: Vec::new(),
            function_data: HashSet::new(),
            scripts: HashMap::new(),
        };
        l.tree(root, None);
        l.declarations(root);
        l.prelude(root);
        for i in 0..l.states.len() {
            l.content(StateId(i as u32));
        }
        let (context, context_expr) = l.data(root);
        let name = root.attribute("name").unwrap_or("scxml").to_string();
        if let Some(dm) = root.attribute("datamodel") {
            if dm != "ecmascript" {
                l.fault(
                    FaultKind::Unsupported,
                    attr_span(root, "datamodel"),
                    format!("the \"{dm}\" data model is not supported; jr2 reads SCXML with the ECMAScript data model"),
                );
            }
        }
        Statechart {
            id: name,
            origin: Origin::Scxml,
            states: l.states,
            transitions: l.transitions,
            events: ir::FxIndexMap::default(),
            slots: l.slots,
            context: Some(context),
            context_expr,
            output: None,
            implementations: ir::Implementations::default(),
            workspace: None,
        }
    }

    fn fault(&mut self, kind: FaultKind, span: Span, message: impl Into<String>) {
        self.faults.push(Fault { kind, span, message: message.into() });
    }

    // ---- what the document reads and declares for its scripts ----

    /// The file an element's `src` names, read (`Source`); a fault where it is not.
    fn read_src(&mut self, n: Node<'a, 'i>) -> Option<String> {
        self.read_src_file(n).map(|(text, _)| text)
    }

    fn read_src_file(&mut self, n: Node<'a, 'i>) -> Option<(String, PathBuf)> {
        let src = n.attribute("src")?;
        match self.source.read(src) {
            Ok(read) => Some(read),
            Err(why) => {
                self.fault(FaultKind::Unsupported, attr_span(n, "src"), format!("\"{src}\" is not read: {why}"));
                None
            }
        }
    }

    /// A `<script>`'s code: its text, or the file its `src` names (read once).
    fn script_text(&mut self, n: Node<'a, 'i>) -> Option<String> {
        if n.attribute("src").is_none() {
            return Some(text_of(n));
        }
        if let Some(text) = self.scripts.get(&n.id()) {
            return text.clone();
        }
        let text = self.read_src(n);
        self.scripts.insert(n.id(), text.clone());
        text
    }

    /// The document an `<invoke src>` names, lowered as an inline child is; its faults are
    /// reported at the `src`, as they are in another file.
    fn src_document(&mut self, n: Node<'a, 'i>) -> Option<Statechart> {
        let src = n.attribute("src").unwrap_or_default().to_string();
        if self.source.depth >= MAX_SRC_DEPTH {
            let message =
                format!("\"{src}\" is not read: documents invoke documents deeper than {MAX_SRC_DEPTH} levels");
            self.fault(FaultKind::Unsupported, attr_span(n, "src"), message);
            return None;
        }
        let (text, file) = self.read_src_file(n)?;
        let source = self.source.below(&file);
        let lowered = lower_text(&text, &source);
        let at = attr_span(n, "src");
        for f in lowered.faults.iter().take(base::list::MAX_LISTED) {
            self.fault(f.kind, at, format!("in \"{src}\": {}", f.message));
        }
        Some(lowered.machine?.statechart().clone())
    }

    /// The prelude every carried script declares (`Lowerer::prelude`): the functions of the
    /// document's top-level `<script>`s, and each `<data>` whose value is a function expression.
    fn prelude(&mut self, root: Node<'a, 'i>) {
        for c in children_named(root, "script") {
            if let Some(text) = self.script_text(c) {
                for (name, range) in machine::eval::script_functions(&text) {
                    if let Some(code) = text.get(range) {
                        self.prelude.push((name, code.to_string()));
                    }
                }
            }
        }
        let mut stack = vec![root];
        while let Some(n) = stack.pop() {
            if is(n, "invoke") {
                continue;
            }
            if is(n, "data") {
                if let (Some(id), Some(expr)) = (n.attribute("id"), n.attribute("expr")) {
                    let e = expr.trim_start();
                    let function = e.strip_prefix("function").is_some_and(|r| r.starts_with(['(', ' ', '\t', '\n']));
                    if function && is_identifier(id) {
                        self.prelude.push((id.to_string(), format!("let {id} = ({expr}\n);")));
                        self.function_data.insert(id.to_string());
                    }
                }
            }
            stack.extend(children(n));
        }
    }

    /// An expression or a `<script>` the IR's expressions cannot hold, carried as JavaScript
    /// ([`Expr::Js`]) with the data model's semantics: its free names read and write the
    /// context's keys (the data model's variables) through a `with` over a proxy of the
    /// context, `_event`, `_sessionid`, `_name` and `_ioprocessors` are the run's globals (a
    /// `with` over them), `In('id')` reads the run's active states by the document's table of
    /// state ids, and the prelude's functions are declared first (but for those the script
    /// declares itself). A name the data model does not declare, read or assigned, is
    /// ECMAScript's `ReferenceError` (the run's `error.execution`). It `writes` (the context
    /// taken back) where it may assign: a script, an expression with `=`, `++`, `--` or a call.
    fn carry(&self, text: &str, body: Body) -> Expr {
        let own: HashSet<String> = match body {
            Body::Script => machine::eval::script_functions(text).into_iter().map(|(n, _)| n).collect(),
            Body::Expression => HashSet::new(),
        };
        let prelude: Vec<&str> =
            self.prelude.iter().filter(|(n, _)| !own.contains(n)).map(|(_, code)| code.as_str()).collect();
        let mut code = String::from(CARRIED_HEAD);
        // The table of state ids, sorted (the code is part of the IR's identity).
        let ids: BTreeMap<&str, u32> = if text.contains("In") || prelude.iter().any(|p| p.contains("In")) {
            self.ids.iter().map(|(k, v)| (k.as_str(), v.0)).collect()
        } else {
            BTreeMap::new()
        };
        code.push_str("var $ids = ");
        code.push_str(&serde_json::to_string(&ids).unwrap_or_else(|_| "{}".into()));
        code.push_str(";\nwith ($g) with ($s) {\n");
        for p in prelude {
            code.push_str(p);
            code.push('\n');
        }
        match body {
            Body::Expression => {
                code.push_str("return (");
                code.push_str(text);
                code.push_str("\n);");
            }
            Body::Script => code.push_str(text),
        }
        code.push_str("\n}\n})");
        let writes = body == Body::Script || assigns(text);
        Expr::Js(std::sync::Arc::new(ir::expr::Script { code, args: vec![Root::Context], run: true, writes }))
    }

    // ---- the tree ----

    /// Adds the state of element `n` and, in pre-order, the states below it.
    fn tree(&mut self, n: Node<'a, 'i>, parent: Option<StateId>) -> StateId {
        let id = StateId(self.states.len() as u32);
        let kind = if is(n, "parallel") {
            StateKind::Parallel
        } else if is(n, "final") {
            StateKind::Final
        } else if is(n, "history") {
            StateKind::History
        } else if children(n).any(is_state) {
            StateKind::Compound
        } else {
            StateKind::Atomic
        };
        let key: Name = match (parent, n.attribute("id")) {
            (None, _) => Name::default(),
            (Some(_), Some(i)) => i.into(),
            (Some(_), None) => compact_str::format_compact!("${}", id.0),
        };
        let mut state = State::new(key, kind, parent);
        if parent.is_some() {
            if let Some(i) = n.attribute("id") {
                if self.ids.insert(i.to_string(), id).is_some() {
                    self.fault(
                        FaultKind::Structure,
                        attr_span(n, "id"),
                        format!("the id \"{i}\" is used by another state"),
                    );
                }
                state.id = Some(i.to_string());
            }
        }
        if kind == StateKind::History {
            state.history = Some(match n.attribute("type") {
                Some("deep") => HistoryKind::Deep,
                _ => HistoryKind::Shallow,
            });
        }
        self.states.push(state);
        self.nodes.push(n);
        if let Some(p) = parent {
            self.states[p.index()].children.push(id);
        }
        for c in children(n) {
            if is_state(c) {
                if kind == StateKind::Final || kind == StateKind::History {
                    self.fault(
                        FaultKind::Structure,
                        span(c.range()),
                        format!("a <{}> cannot hold states", n.tag_name().name()),
                    );
                    continue;
                }
                self.tree(c, Some(id));
            }
        }
        id
    }

    /// The data model's variables: every `<data id>`, `<foreach>` item and index, and a script's
    /// declarations, outside inline children.
    fn declarations(&mut self, root: Node<'a, 'i>) {
        let mut stack = vec![root];
        while let Some(n) = stack.pop() {
            if is(n, "data") {
                if let Some(id) = n.attribute("id") {
                    self.vars.insert(id.to_string());
                }
            } else if is(n, "foreach") {
                for a in ["item", "index"] {
                    if let Some(v) = n.attribute(a) {
                        self.vars.insert(v.to_string());
                    }
                }
            } else if is(n, "script") {
                self.vars.extend(machine::eval::script_declarations(&text_of(n)));
            } else if is(n, "invoke") {
                // An inline child's data is its own.
                continue;
            }
            stack.extend(children(n));
        }
    }

    /// The initial context: each `<data>`'s value, a constant one in the context and the others
    /// in its expression. A `<data>` of no value is declared `undefined` (in the expression: JSON
    /// has no `undefined`); an invoked child's `<param>`s set its data over these values.
    fn data(&mut self, root: Node<'a, 'i>) -> (Json, Option<Expr>) {
        let mut constant = JsonMap::new();
        let mut computed: Vec<(Name, Expr)> = Vec::new();
        let mut stack = vec![root];
        let mut found = Vec::new();
        let mut scripts = Vec::new();
        while let Some(n) = stack.pop() {
            if is(n, "data") {
                found.push(n);
            } else if is(n, "script") {
                scripts.push(n);
            } else if is(n, "invoke") {
                continue;
            }
            stack.extend(children(n).collect::<Vec<_>>().into_iter().rev());
        }
        // Late binding: a state's <data> is declared (`undefined`) at start and given its value
        // when the state is first entered.
        let late = root.attribute("binding") == Some("late");
        let mut bound_late: BTreeMap<usize, Vec<Action>> = BTreeMap::new();
        for n in found {
            let Some(id) = n.attribute("id") else {
                self.fault(FaultKind::Structure, span(n.range()), "a <data> has no id");
                continue;
            };
            if self.function_data.contains(id) {
                continue;
            }
            let owner = late
                .then(|| n.parent_element().and_then(|d| d.parent_element()))
                .flatten()
                .filter(|s| *s != root)
                .and_then(|s| self.nodes.iter().position(|x| *x == s));
            let value = if n.attribute("expr").is_some() {
                self.expr(n, "expr")
            } else if n.attribute("src").is_none() && children(n).next().is_none() && text_of(n).trim().is_empty() {
                // No value: the variable is declared, `undefined` (so that an <assign> to it is
                // one to a declared location).
                Some(Expr::Undefined)
            } else if n.attribute("src").is_some() {
                // The file's text, read when the document is lowered, as the element's own
                // text would be.
                self.read_src(n).and_then(|text| self.text_value(&text))
            } else {
                self.content_value(n)
            };
            if let Some(state) = owner {
                computed.push((id.into(), Expr::Undefined));
                let assign = Action::AssignTo { location: context_ref(id), value: value.unwrap_or(Expr::Undefined) };
                // Each its own block: one that fails leaves the others their values.
                bound_late.entry(state).or_default().push(Action::Block { actions: vec![assign] });
                continue;
            }
            match value {
                Some(Expr::Literal(j)) => constant.push(Name::from(id), j),
                Some(e) => computed.push((id.into(), e)),
                None => {}
            }
        }
        // A script's `var`s are the data model's variables too, `undefined` until it runs.
        for n in scripts {
            for v in machine::eval::script_declarations(&text_of(n)) {
                if constant.get(v.as_str()).is_none() && !computed.iter().any(|(k, _)| k == v.as_str()) {
                    computed.push((v.into(), Expr::Undefined));
                }
            }
        }
        for (state, assigns) in bound_late {
            // Whether the state was entered, a key no script can name (it is no identifier).
            let flag = format!("$bound.{state}");
            constant.push(Name::from(flag.as_str()), Json::Bool(false));
            let mut actions =
                vec![Action::AssignTo { location: context_ref(&flag), value: Expr::Literal(Json::Bool(true)) }];
            actions.extend(assigns);
            let first = Expr::Binary {
                op: BinaryOp::StrictEq,
                left: Box::new(context_ref(&flag)),
                right: Box::new(Expr::Literal(Json::Bool(false))),
            };
            let bind = Action::If { branches: vec![Branch { cond: Some(first), actions }] };
            // Before the state's own <onentry> blocks, a block of its own.
            let entry = std::mem::take(&mut self.states[state].entry);
            let mut blocks = vec![Action::Block { actions: vec![bind] }];
            if entry.iter().all(|a| matches!(a, Action::Block { .. })) {
                blocks.extend(entry);
            } else {
                blocks.push(Action::Block { actions: entry });
            }
            self.states[state].entry = blocks;
        }
        let computed = (!computed.is_empty()).then_some(Expr::Object(computed));
        (Json::Object(constant), computed)
    }

    // ---- each state's content ----

    fn content(&mut self, s: StateId) {
        let n = self.nodes[s.index()];
        let kind = self.states[s.index()].kind;
        // Each <onentry> and <onexit> is its own block: an error in one stops the rest of it only.
        let mut entry: Vec<Vec<Action>> = Vec::new();
        let mut exit: Vec<Vec<Action>> = Vec::new();
        let mut initial_element = None;
        for c in children(n) {
            match c.tag_name().name() {
                "onentry" => entry.push(self.actions(c)),
                "onexit" => exit.push(self.actions(c)),
                "transition" if kind == StateKind::History => {
                    let mut t = self.transition(s, c, Trigger::HistoryDefault);
                    if let Some(t) = t.pop() {
                        self.transitions.push(t);
                    }
                }
                "transition" => {
                    let ts = self.transition(s, c, Trigger::Always);
                    self.transitions.extend(ts);
                }
                "initial" => initial_element = Some(c),
                "invoke" => self.invoke(s, c),
                "donedata" => self.states[s.index()].output = self.donedata(c),
                "script" if s == StateId::ROOT => entry.push(self.script(c)),
                "datamodel" | "data" | "state" | "parallel" | "final" | "history" => {}
                other => self.fault(
                    FaultKind::Structure,
                    span(c.range()),
                    format!("a <{other}> cannot be here; it is read past"),
                ),
            }
        }
        let st = &mut self.states[s.index()];
        st.entry = blocks(entry);
        st.exit = blocks(exit);
        if matches!(kind, StateKind::Compound) || (s == StateId::ROOT && !self.states[0].children.is_empty()) {
            self.initial(s, n, initial_element);
        }
    }

    /// A compound state's initial state and, where it needs one, its initial transition.
    fn initial(&mut self, s: StateId, n: Node<'a, 'i>, element: Option<Node<'a, 'i>>) {
        let children: Vec<StateId> = self.states[s.index()].children.clone();
        let first = children.iter().copied().find(|c| self.states[c.index()].kind != StateKind::History);
        let (targets, actions, explicit) = if let Some(e) = element {
            let Some(t) = children_named(e, "transition").next() else {
                self.fault(FaultKind::Structure, span(e.range()), "an <initial> holds one <transition>");
                self.states[s.index()].initial = first;
                return;
            };
            (self.targets(t, "target"), self.actions(t), true)
        } else if n.attribute("initial").is_some() {
            (self.targets(n, "initial"), Vec::new(), false)
        } else {
            self.states[s.index()].initial = first;
            return;
        };
        let Some(&target) = targets.first() else {
            self.states[s.index()].initial = first;
            return;
        };
        let child = children.iter().copied().find(|c| self.is_ancestor_or_self(*c, target));
        if targets.iter().any(|t| !self.is_ancestor_or_self(s, *t) || *t == s) || child.is_none() {
            self.fault(
                FaultKind::Target,
                if explicit { span(element.map_or(n.range(), |e| e.range())) } else { attr_span(n, "initial") },
                "an initial state is a state below its parent",
            );
            self.states[s.index()].initial = first;
            return;
        }
        self.states[s.index()].initial = child;
        let direct = targets.len() == 1 && child == Some(target);
        if explicit || !direct {
            self.transitions.push(Transition {
                source: s,
                trigger: Trigger::Initial,
                targets,
                guard: None,
                actions,
                reenter: false,
            });
        }
    }

    fn is_ancestor_or_self(&self, a: StateId, b: StateId) -> bool {
        let mut at = Some(b);
        while let Some(x) = at {
            if x == a {
                return true;
            }
            at = self.states[x.index()].parent;
        }
        false
    }

    /// The states an attribute's space-separated ids name; an unknown one is a fault.
    fn targets(&mut self, n: Node<'a, 'i>, attr: &str) -> TargetList {
        let mut out = TargetList::new();
        for id in n.attribute(attr).unwrap_or("").split_whitespace() {
            match self.ids.get(id) {
                Some(s) => out.push(*s),
                None => self.fault(FaultKind::Target, attr_span(n, attr), format!("no state has the id \"{id}\"")),
            }
        }
        out
    }

    /// A `<transition>`: one IR transition per event descriptor (`default` where it has none).
    fn transition(&mut self, s: StateId, t: Node<'a, 'i>, default: Trigger) -> Vec<Transition> {
        let targets = self.targets(t, "target");
        if t.attribute("target").is_some_and(|a| !a.trim().is_empty()) && targets.is_empty() {
            return Vec::new();
        }
        let guard = t.attribute("cond").map(|_| match self.expr(t, "cond") {
            Some(expr) => Guard::Expr { expr },
            // Not lowered (a fault says why): a guard the run cannot evaluate.
            None => Guard::Named { name: "cond".into(), params: None },
        });
        let actions = self.actions(t);
        let reenter = t.attribute("type") != Some("internal");
        let triggers: Vec<Trigger> = match t.attribute("event") {
            Some(events) if !events.trim().is_empty() && default == Trigger::Always => {
                events.split_whitespace().map(|d| Trigger::Event(descriptor(d))).collect()
            }
            _ => vec![default],
        };
        triggers
            .into_iter()
            .map(|trigger| Transition {
                source: s,
                trigger,
                targets: targets.clone(),
                guard: guard.clone(),
                actions: actions.clone(),
                reenter,
            })
            .collect()
    }

    fn invoke(&mut self, s: StateId, n: Node<'a, 'i>) {
        // A `typeexpr` the run computes is taken as the SCXML type, the one invoke type jr2 has
        // (the IR's invoke holds no type for the run to check).
        let ty = match self.send_type(n) {
            Ok(Some(SendType::Dynamic(_)) | None) => "scxml".to_string(),
            Ok(Some(SendType::Const(ty))) => ty,
            Err(_) => return,
        };
        if !matches!(ty.as_str(), "scxml" | "http://www.w3.org/TR/scxml/" | "http://www.w3.org/TR/scxml") {
            self.fault(FaultKind::Unsupported, type_span(n), format!("an <invoke> of type \"{ty}\" is not supported"));
            return;
        }
        if n.attribute("srcexpr").is_some() {
            self.fault(
                FaultKind::Unsupported,
                attr_span(n, "srcexpr"),
                "an <invoke srcexpr> is not supported: jr2 invokes a document it reads when it lowers this one \
                 (<content><scxml>, or a src naming a file)",
            );
            return;
        }
        for f in children_named(n, "finalize") {
            self.fault(FaultKind::Unsupported, span(f.range()), "<finalize> is not supported; it is read past");
        }
        let machine = if n.attribute("src").is_some() {
            // The document the src names, read now: the IR holds it as it holds an inline child.
            let Some(machine) = self.src_document(n) else { return };
            machine
        } else {
            let child = children_named(n, "content").next().and_then(|c| children(c).find(|x| is(*x, "scxml")));
            let Some(child) = child else {
                self.fault(
                    FaultKind::Structure,
                    span(n.range()),
                    "an <invoke> without an inline <content><scxml> child",
                );
                return;
            };
            Lowerer::lower(child, self.faults, self.source)
        };
        let input = self.fields(n);
        let id = n.attribute("id").map(Name::from);
        let id_location = if n.attribute("idlocation").is_some() { self.location(n, "idlocation") } else { None };
        self.slots.insert("scxml".into(), Slot { kind: SlotKind::Machine, effect: None, definition: None });
        self.states[s.index()].invokes.push(Invoke {
            src: "scxml".into(),
            id,
            kind: SlotKind::Machine,
            input: input.map(std::sync::Arc::new),
            machine: Some(Box::new(machine)),
            autoforward: n.attribute("autoforward") == Some("true"),
            id_location,
        });
    }

    fn donedata(&mut self, n: Node<'a, 'i>) -> Option<Expr> {
        self.payload(n)
    }

    // ---- executable content ----

    fn actions(&mut self, n: Node<'a, 'i>) -> Vec<Action> {
        let mut out = Vec::new();
        for c in children(n) {
            out.extend(self.action(c));
        }
        out
    }

    fn action(&mut self, n: Node<'a, 'i>) -> Vec<Action> {
        let name = n.tag_name().name();
        let one = match name {
            "raise" => match n.attribute("event") {
                Some(e) => Action::Raise { event: event_object(str_lit(e), None), delay: None, id: None },
                None => {
                    self.fault(FaultKind::Structure, span(n.range()), "a <raise> names its event");
                    return Vec::new();
                }
            },
            "send" => self.send(n),
            "cancel" => {
                let id = if let Some(id) = n.attribute("sendid") {
                    Some(str_lit(id))
                } else if n.attribute("sendidexpr").is_some() {
                    self.expr(n, "sendidexpr")
                } else {
                    self.fault(FaultKind::Structure, span(n.range()), "a <cancel> names its sendid or sendidexpr");
                    None
                };
                match id {
                    Some(id) => Action::Cancel { id },
                    None => return Vec::new(),
                }
            }
            "assign" => {
                let Some(location) = self.location(n, "location") else { return vec![opaque("an unlowered <assign>")] };
                let value = if n.attribute("expr").is_some() { self.expr(n, "expr") } else { self.content_value(n) };
                match value {
                    Some(value) => Action::AssignTo { location, value },
                    None => return vec![opaque("an unlowered <assign>")],
                }
            }
            "log" => Action::Log {
                label: n.attribute("label").map(str::to_string),
                value: if n.attribute("expr").is_some() { self.expr(n, "expr") } else { None },
            },
            "if" => self.if_action(n),
            "foreach" => {
                let (Some(item), Some(array)) = (n.attribute("item"), self.expr(n, "array")) else {
                    if n.attribute("item").is_none() {
                        self.fault(FaultKind::Structure, span(n.range()), "a <foreach> names its item");
                    }
                    return vec![opaque("an unlowered <foreach>")];
                };
                // An item or index that is no variable name is the run's error.execution when
                // the <foreach> is evaluated (its array an expression whose evaluation fails),
                // and none of its content runs.
                let illegal = std::iter::once(item).chain(n.attribute("index")).find(|v| !is_identifier(v));
                let array = match illegal {
                    Some(v) => Expr::Error(format!("a <foreach> item or index `{v}` is not a variable name")),
                    None => array,
                };
                Action::Foreach {
                    array,
                    item: item.into(),
                    index: n.attribute("index").map(Name::from),
                    actions: self.actions(n),
                }
            }
            "script" => return self.script(n),
            other => {
                self.fault(FaultKind::Structure, span(n.range()), format!("<{other}> is not executable content"));
                return Vec::new();
            }
        };
        vec![one]
    }

    fn if_action(&mut self, n: Node<'a, 'i>) -> Action {
        let mut branches = vec![Branch {
            cond: Some(self.expr(n, "cond").unwrap_or(Expr::Global("<cond>".into()))),
            actions: Vec::new(),
        }];
        for c in children(n) {
            if is(c, "elseif") {
                let cond = self.expr(c, "cond").unwrap_or(Expr::Global("<cond>".into()));
                branches.push(Branch { cond: Some(cond), actions: Vec::new() });
            } else if is(c, "else") {
                branches.push(Branch { cond: None, actions: Vec::new() });
            } else {
                let actions = self.action(c);
                if let Some(b) = branches.last_mut() {
                    b.actions.extend(actions);
                }
            }
        }
        Action::If { branches }
    }

    fn send(&mut self, n: Node<'a, 'i>) -> Action {
        match self.send_type(n) {
            Err(reason) => opaque(&reason),
            Ok(None) => self.send_scxml(n),
            Ok(Some(SendType::Const(ty))) if SCXML_PROCESSOR.contains(&ty.as_str()) => self.send_scxml(n),
            Ok(Some(SendType::Const(ty))) => {
                let reason = format!("the event I/O processor \"{ty}\" is not supported");
                self.fault(FaultKind::Unsupported, type_span(n), reason.clone());
                opaque(&reason)
            }
            // A type the run computes: the send where it names the SCXML processor, else
            // `error.execution` (an event whose evaluation fails), as the spec asks of an
            // unsupported type.
            Ok(Some(SendType::Dynamic(ty))) => {
                let names = SCXML_PROCESSOR.iter().map(|p| Expr::Binary {
                    op: BinaryOp::StrictEq,
                    left: Box::new(ty.clone()),
                    right: Box::new(str_lit(p)),
                });
                let cond = names
                    .reduce(|a, b| Expr::Logical { op: LogicalOp::Or, left: Box::new(a), right: Box::new(b) })
                    .unwrap_or_else(|| str_lit(""));
                let unsupported = Action::Raise {
                    event: Expr::Error("a <send> of a type other than the SCXML event I/O processor".into()),
                    delay: None,
                    id: None,
                };
                Action::If {
                    branches: vec![
                        Branch { cond: Some(cond), actions: vec![self.send_scxml(n)] },
                        Branch { cond: None, actions: vec![unsupported] },
                    ],
                }
            }
        }
    }

    /// A `<send>` through the SCXML event I/O processor.
    fn send_scxml(&mut self, n: Node<'a, 'i>) -> Action {
        let name = if let Some(e) = n.attribute("event") {
            Some(str_lit(e))
        } else if n.attribute("eventexpr").is_some() {
            match self.expr(n, "eventexpr") {
                Some(e) => Some(e),
                None => return opaque("an unlowered <send eventexpr>"),
            }
        } else {
            None
        };
        let data = self.payload(n);
        let event = event_object(name.unwrap_or_else(|| str_lit("")), data);
        let delay = if let Some(d) = n.attribute("delay") {
            Some(str_lit(d))
        } else if n.attribute("delayexpr").is_some() {
            match self.expr(n, "delayexpr") {
                Some(d) => Some(d),
                None => return opaque("an unlowered <send delayexpr>"),
            }
        } else {
            None
        };
        let id = n.attribute("id").map(str_lit);
        let id_location = if n.attribute("idlocation").is_some() { self.location(n, "idlocation") } else { None };
        let to = if let Some(target) = n.attribute("target") {
            match target {
                "#_internal" => return Action::Raise { event, delay, id },
                "#_parent" => SendTo::Parent,
                t => SendTo::Actor(str_lit(t)),
            }
        } else if n.attribute("targetexpr").is_some() {
            match self.expr(n, "targetexpr") {
                Some(t) => SendTo::Actor(t),
                None => return opaque("an unlowered <send targetexpr>"),
            }
        } else {
            SendTo::Own
        };
        Action::Send { to, event, delay, id, id_location }
    }

    /// A `<send>`'s or `<invoke>`'s `type`, or its `typeexpr` (a constant where it lowers to
    /// one); `None` where it has neither; `Err` (with a fault) where its `typeexpr` does not
    /// lower.
    fn send_type(&mut self, n: Node<'a, 'i>) -> Result<Option<SendType>, String> {
        if let Some(ty) = n.attribute("type") {
            return Ok(Some(SendType::Const(ty.to_string())));
        }
        if n.attribute("typeexpr").is_none() {
            return Ok(None);
        }
        match self.expr(n, "typeexpr") {
            Some(Expr::Literal(Json::String(ty))) => Ok(Some(SendType::Const(ty.to_string()))),
            Some(e) => Ok(Some(SendType::Dynamic(e))),
            None => Err(format!("an unlowered <{} typeexpr>", n.tag_name().name())),
        }
    }

    /// The payload of a `<send>`, `<invoke>` or `<donedata>`: its `namelist` and `<param>`s as an
    /// object, or its `<content>`'s value; `None` where it has none.
    fn payload(&mut self, n: Node<'a, 'i>) -> Option<Expr> {
        let fields = self.fields(n);
        if let Some(c) = children_named(n, "content").next() {
            if fields.is_some() {
                self.fault(
                    FaultKind::Structure,
                    span(c.range()),
                    "a <content> cannot be beside a namelist or <param>s",
                );
            }
            if c.attribute("expr").is_some() {
                return self.expr(c, "expr");
            }
            return self.content_value(c);
        }
        fields
    }

    /// The `namelist` and `<param>`s of an element as an object; `None` where it has neither.
    fn fields(&mut self, n: Node<'a, 'i>) -> Option<Expr> {
        let mut fields: Vec<(Name, Expr)> = Vec::new();
        let mut any = false;
        if let Some(names) = n.attribute("namelist") {
            any = true;
            for v in names.split_whitespace() {
                fields.push((v.into(), self.name_value(v)));
            }
        }
        for p in children_named(n, "param") {
            any = true;
            let Some(name) = p.attribute("name") else {
                self.fault(FaultKind::Structure, span(p.range()), "a <param> has a name");
                continue;
            };
            let value = if p.attribute("expr").is_some() {
                self.expr(p, "expr")
            } else if p.attribute("location").is_some() {
                self.location(p, "location")
            } else {
                self.fault(FaultKind::Structure, span(p.range()), "a <param> has an expr or a location");
                None
            };
            fields.push((name.into(), value.unwrap_or(Expr::Undefined)));
        }
        any.then_some(Expr::Object(fields))
    }

    /// A name of a `namelist`, as the expression of its value.
    fn name_value(&mut self, v: &str) -> Expr {
        let scope = Scope { vars: &self.vars, ids: &self.ids };
        machine::eval::lower_expression(v, &scope).unwrap_or(Expr::Global(v.into()))
    }

    /// An element's text content as a value: an expression where it is one (a number, an object
    /// literal, a string in quotes), else the text itself (space normalized); `None` if empty.
    fn content_value(&mut self, n: Node<'a, 'i>) -> Option<Expr> {
        if children(n).next().is_some() {
            self.fault(
                FaultKind::Unsupported,
                span(n.range()),
                "markup content is not supported; jr2 reads text or an expression",
            );
            return None;
        }
        self.text_value(&text_of(n))
    }

    /// A text as a value (an element's or a file's): an expression where it is one, else the
    /// text itself (space normalized); `None` if empty.
    fn text_value(&mut self, text: &str) -> Option<Expr> {
        let text = text.trim();
        if text.is_empty() {
            return None;
        }
        let scope = Scope { vars: &self.vars, ids: &self.ids };
        if let Ok(e) = machine::eval::lower_expression(text, &scope) {
            if !matches!(e, Expr::Global(_)) {
                return Some(e);
            }
        }
        Some(str_lit(&text.split_whitespace().collect::<Vec<_>>().join(" ")))
    }

    /// A `<script>`: its assignments where it is only those (the fast path), else the script
    /// carried whole (`Lowerer::carry`) as an [`Action::Run`], as it is run for its effect on
    /// the data model; a script that does not parse is an [`Action::Opaque`] (the run's
    /// `error.execution`) and a fault.
    fn script(&mut self, n: Node<'a, 'i>) -> Vec<Action> {
        let Some(text) = self.script_text(n) else { return vec![opaque("a <script src> jr2 could not read")] };
        let scope = Scope { vars: &self.vars, ids: &self.ids };
        match machine::eval::lower_script(&text, &scope) {
            Ok(steps) => steps
                .into_iter()
                .map(|s| match s {
                    machine::eval::ScriptStep::Assign { location, value } => Action::AssignTo { location, value },
                })
                .collect(),
            Err(f) if f.kind != machine::FaultKind::TsSyntax => {
                vec![Action::Run { value: self.carry(&text, Body::Script) }]
            }
            Err(f) => {
                let at = if n.attribute("src").is_some() {
                    attr_span(n, "src").start
                } else {
                    text_span(n).start + f.loc.span.start
                };
                self.fault(
                    FaultKind::Unsupported,
                    Span::new(at, at + f.loc.span.len()),
                    format!("this <script> is not lowered: {}", f.message),
                );
                vec![opaque(&format!("a <script> jr2 does not lower: {}", f.message))]
            }
        }
    }

    /// An attribute's ECMAScript expression, lowered; a fault where it does not parse (and an
    /// [`Expr::Error`] the run meets as its error) or does not lower (and `None`).
    fn expr(&mut self, n: Node<'a, 'i>, attr: &str) -> Option<Expr> {
        self.expression(n, attr, true)
    }

    /// An attribute's expression, lowered; where it parses but does not lower, carried as a
    /// script (`Lowerer::carry`) when `carry` says so, else a fault and `None`.
    fn expression(&mut self, n: Node<'a, 'i>, attr: &str, carry: bool) -> Option<Expr> {
        let text = n.attribute(attr)?;
        // A statement's `;` after the expression (`expr="new f();"`) is read past, as the
        // interpreters that evaluate the attribute as a script do.
        let text = text.trim_end().trim_end_matches(';');
        let scope = Scope { vars: &self.vars, ids: &self.ids };
        match machine::eval::lower_expression(text, &scope) {
            Ok(e) => Some(e),
            Err(f) if carry && f.kind != machine::FaultKind::TsSyntax => Some(self.carry(text, Body::Expression)),
            Err(f) => {
                let whole = attr_span(n, attr);
                let start = (whole.start + f.loc.span.start).min(whole.end);
                let end = (whole.start + f.loc.span.end).clamp(start, whole.end);
                let syntax = f.kind == machine::FaultKind::TsSyntax;
                let what = if syntax { "does not parse" } else { "is not lowered" };
                let message = format!("`{text}` {what}: {}", f.message);
                self.fault(FaultKind::Expression, Span::new(start, end), message.clone());
                // ECMAScript that does not parse is the run's error where it is evaluated
                // (SCXML's error.execution); what does not lower is not lowered.
                syntax.then_some(Expr::Error(message))
            }
        }
    }

    /// An attribute's location (`x`, `x.y`, `x[0]`): a context reference or a member chain over one.
    /// (A location is never carried: an assignment writes a place the run can name.)
    fn location(&mut self, n: Node<'a, 'i>, attr: &str) -> Option<Expr> {
        self.expression(n, attr, false)
    }
}

/// An SCXML event descriptor as an xstate one (see the crate's doc).
fn descriptor(d: &str) -> Name {
    let d = d.strip_suffix(".*").or_else(|| d.strip_suffix('.')).unwrap_or(d);
    if d == "*" || d.is_empty() {
        return "*".into();
    }
    let d = if let Some(rest) = d.strip_prefix("done.invoke") {
        format!("xstate.done.actor{rest}")
    } else if let Some(rest) = d.strip_prefix("done.state") {
        format!("xstate.done.state{rest}")
    } else if d == "done" {
        "xstate.done".to_string()
    } else {
        d.to_string()
    };
    compact_str::format_compact!("{d}.*")
}

/// A state's blocks of executable content as its actions: one block's own, several blocks each
/// an [`Action::Block`].
fn blocks(mut blocks: Vec<Vec<Action>>) -> Vec<Action> {
    blocks.retain(|b| !b.is_empty());
    if blocks.len() < 2 {
        return blocks.pop().unwrap_or_default();
    }
    blocks.into_iter().map(|actions| Action::Block { actions }).collect()
}

/// `{ "type": name, "data": payload }`, without `data` where there is none.
fn event_object(name: Expr, data: Option<Expr>) -> Expr {
    let mut fields = vec![(Name::from("type"), name)];
    if let Some(d) = data {
        fields.push(("data".into(), d));
    }
    Expr::Object(fields)
}

/// The names of the SCXML event I/O processor (the spec's URI, and its short name).
const SCXML_PROCESSOR: &[&str] = &["http://www.w3.org/TR/scxml/#SCXMLEventProcessor", "scxml"];

/// A `<send>`'s or `<invoke>`'s type: written, or computed by the run.
enum SendType {
    Const(String),
    Dynamic(Expr),
}

/// Is `v` an ECMAScript identifier that may name a variable (not a reserved word)?
fn is_identifier(v: &str) -> bool {
    const RESERVED: &[&str] = &[
        "break",
        "case",
        "catch",
        "class",
        "const",
        "continue",
        "debugger",
        "default",
        "delete",
        "do",
        "else",
        "enum",
        "export",
        "extends",
        "false",
        "finally",
        "for",
        "function",
        "if",
        "import",
        "in",
        "instanceof",
        "new",
        "null",
        "return",
        "super",
        "switch",
        "this",
        "throw",
        "true",
        "try",
        "typeof",
        "var",
        "void",
        "while",
        "with",
        "yield",
        "let",
        "static",
        "implements",
        "interface",
        "package",
        "private",
        "protected",
        "public",
        "await",
    ];
    let mut chars = v.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_alphanumeric() || c == '_' || c == '$')
        && !RESERVED.contains(&v)
}

fn opaque(reason: &str) -> Action {
    Action::Opaque { reason: reason.to_string() }
}

fn children_named<'a, 'i>(n: Node<'a, 'i>, name: &'static str) -> impl Iterator<Item = Node<'a, 'i>> {
    children(n).filter(move |c| is(*c, name))
}

/// An element's text (its text and CDATA children, concatenated).
fn text_of(n: Node<'_, '_>) -> String {
    n.children().filter(|c| c.is_text()).filter_map(|c| c.text()).collect()
}

/// Where an element's text is (its first text child's range, else the element's).
fn text_span(n: Node<'_, '_>) -> Span {
    span(n.children().find(|c| c.is_text()).map_or(n.range(), |c| c.range()))
}

/// Where a `<send>`'s or `<invoke>`'s type is written (`type` or `typeexpr`).
fn type_span(n: Node<'_, '_>) -> Span {
    attr_span(n, if n.attribute("type").is_some() { "type" } else { "typeexpr" })
}

/// An attribute's value's span, or the element's where it has none.
fn attr_span(n: Node<'_, '_>, attr: &str) -> Span {
    span(n.attribute_node(attr).map_or(n.range(), |a| a.range_value()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only an expression that may change the data model has its context taken back.
    #[test]
    fn what_may_assign_is_written_back() {
        for e in ["++n == 2", "n-- > 0", "x = 1", "x += 1", "x <<= 1", "f(x)", "a.b = c"] {
            assert!(assigns(e), "{e}");
        }
        for e in ["n == 2", "n === 2", "n != 1", "n <= 1", "n >= 1", "[a, b].length > 0 || c"] {
            assert!(!assigns(e), "{e}");
        }
    }
}
