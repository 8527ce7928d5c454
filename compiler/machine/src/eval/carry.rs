//! A function that does not lower, carried as JavaScript (issue 34: every function runs).
//!
//! Where a function's body does not lower into an [`Expr`] (`analysis.rs`), the evaluator
//! carries it: its own text with its TypeScript types blanked, inside one closed expression that
//! puts before it everything it closes over, `(() => { "use strict"; <captures>; return (<fn>);
//! })()` ([`ir::expr::Script`]). Or it refuses it, with the reason naming what no run can have.
//!
//! - **Types** are blanked with spaces (newlines kept), as Node's strip-types and ts-blank-space
//!   do: type annotations, type parameters and arguments, `as T`, `satisfies T`, `<T>x`, a
//!   non-null `!`, an optional `?` of a parameter, `interface` and `type` declarations, `declare`d
//!   bindings, overload signatures, class members' TypeScript modifiers. The JavaScript keeps the
//!   source's lines and columns inside the function. TypeScript that is not erasable (an `enum`,
//!   a `namespace`, a parameter property, a decorator, `import x =`) is refused, naming it.
//! - **Captures**: each top-level statement of a file is read once, while its AST lives
//!   ([`Table`]): what it declares, what names it reads free (references minus every name bound
//!   inside it: a parameter or local that shadows a module name is no capture), its text with the
//!   types blanked. A carried function's free names are followed through the table: a module
//!   `const`, function or class is copied (in source order, each once, with what it reads in
//!   turn); a binding imported by a relative import from a file of the Instance becomes
//!   `const b = (() => { <that file's captures>; return a; })();` (so names of two files never
//!   collide; a JSON module is its text); a standard ECMAScript global ([`GLOBALS`]) is the
//!   engine's.
//! - **Refused**: a binding imported from a package (the kit, xstate and zod too: the engine has
//!   none of them), a free name that is not a standard ECMAScript global (`fetch`, `process`,
//!   `require`, `window`, `setTimeout`, ...), a module `let` or `var` (a run keeps no module
//!   state), a dynamic `import()`, and the mapper argument's `self`, `system`, `spawn` or
//!   `enqueue` (actor references, which a run in the engine cannot have).
//!
//! Bounds: a script is at most [`MAX_SCRIPT`] bytes, imports are followed [`MAX_MODULE_DEPTH`]
//! deep, and a cycle of imports is refused, not followed.

use super::*;
use oxc_ast_visit::{walk, Visit};
use oxc_syntax::scope::ScopeFlags;
use std::collections::BTreeSet;

/// The largest script carried; a bigger one is refused ("too big").
pub(crate) const MAX_SCRIPT: usize = 1 << 20;

/// The free names a carried function may read besides its captures: the standard ECMAScript
/// globals a run's engine has (no I/O, no timers, no `eval` or `Function`, no `Promise`: a run
/// holds no promise), and `console`.
const GLOBALS: &[&str] = &[
    "Object",
    "Array",
    "Math",
    "JSON",
    "Number",
    "String",
    "Boolean",
    "Date",
    "RegExp",
    "Map",
    "Set",
    "WeakMap",
    "WeakSet",
    "Symbol",
    "BigInt",
    "Reflect",
    "Proxy",
    "Error",
    "TypeError",
    "RangeError",
    "SyntaxError",
    "ReferenceError",
    "EvalError",
    "URIError",
    "AggregateError",
    "parseInt",
    "parseFloat",
    "isNaN",
    "isFinite",
    "encodeURIComponent",
    "decodeURIComponent",
    "encodeURI",
    "decodeURI",
    "undefined",
    "NaN",
    "Infinity",
    "globalThis",
    "console",
    "arguments",
];

/// The properties of xstate's mapper argument that are actor references.
const ACTOR_ARGS: &[&str] = &["self", "system", "spawn", "enqueue"];

/// What one visit of a node found: the type spans to blank, what is not erasable, the names it
/// reads and binds.
#[derive(Default)]
struct Scan<'a> {
    text: &'a str,
    blanks: Vec<(u32, u32)>,
    /// Blanked with their line breaks too: an arrow's return type written over lines (a line
    /// break left between `)` and `=>` would end the arrow: no line terminator may come there).
    flat: Vec<(u32, u32)>,
    refusal: Option<String>,
    refs: Vec<&'a str>,
    binds: rustc_hash::FxHashSet<&'a str>,
    /// The name of the mapper argument (a function's first parameter, a plain name) and whether
    /// an actor reference was read off it.
    args_name: Option<&'a str>,
    actor_arg: Option<&'static str>,
}

impl<'a> Scan<'a> {
    fn new(text: &'a str) -> Self {
        Scan { text, ..Scan::default() }
    }

    fn blank(&mut self, start: u32, end: u32) {
        if start < end {
            self.blanks.push((start, end));
        }
    }

    fn refuse(&mut self, what: &str) {
        if self.refusal.is_none() {
            self.refusal = Some(what.to_string());
        }
    }

    /// Blanks the first of `chars` in `start..end` (an optional `?`, a definite `!`).
    fn blank_char_in(&mut self, start: u32, end: u32, chars: &[u8]) {
        let bytes = self.text.as_bytes();
        let (s, e) = (start as usize, (end as usize).min(bytes.len()));
        if let Some(i) = bytes.get(s..e).and_then(|b| b.iter().position(|c| chars.contains(c))) {
            let at = (s + i) as u32;
            self.blank(at, at + 1);
        }
    }

    /// Blanks the TypeScript modifiers written before a class member's key.
    fn blank_modifiers(&mut self, start: u32, key_start: u32) {
        let Some(prefix) = self.text.get(start as usize..key_start as usize) else { return };
        let mut at = 0;
        for word in prefix.split(|c: char| !c.is_ascii_alphanumeric()) {
            let here = start + at as u32;
            at += word.len() + 1;
            if matches!(word, "public" | "private" | "protected" | "readonly" | "override" | "declare" | "abstract") {
                self.blank(here, here + word.len() as u32);
            }
        }
    }

    /// The names read and not bound inside, once each, in the order first read.
    fn free(&self) -> Vec<String> {
        let mut seen = rustc_hash::FxHashSet::default();
        self.refs.iter().filter(|n| !self.binds.contains(*n) && seen.insert(**n)).map(|n| n.to_string()).collect()
    }
}

impl<'a> Visit<'a> for Scan<'a> {
    fn visit_identifier_reference(&mut self, it: &IdentifierReference<'a>) {
        self.refs.push(it.name.as_str());
    }

    fn visit_binding_identifier(&mut self, it: &BindingIdentifier<'a>) {
        self.binds.insert(it.name.as_str());
    }

    fn visit_arrow_function_expression(&mut self, it: &ArrowFunctionExpression<'a>) {
        if let Some(rt) = &it.return_type {
            if self.text.get(rt.span.start as usize..rt.span.end as usize).is_some_and(|t| t.contains('\n')) {
                self.flat.push((rt.span.start, rt.span.end));
            }
        }
        walk::walk_arrow_function_expression(self, it);
    }

    fn visit_ts_type_annotation(&mut self, it: &TSTypeAnnotation<'a>) {
        self.blank(it.span.start, it.span.end);
    }

    fn visit_ts_type_parameter_declaration(&mut self, it: &TSTypeParameterDeclaration<'a>) {
        self.blank(it.span.start, it.span.end);
    }

    fn visit_ts_type_parameter_instantiation(&mut self, it: &TSTypeParameterInstantiation<'a>) {
        self.blank(it.span.start, it.span.end);
    }

    fn visit_ts_as_expression(&mut self, it: &TSAsExpression<'a>) {
        self.visit_expression(&it.expression);
        self.blank(it.expression.span().end, it.span.end);
    }

    fn visit_ts_satisfies_expression(&mut self, it: &TSSatisfiesExpression<'a>) {
        self.visit_expression(&it.expression);
        self.blank(it.expression.span().end, it.span.end);
    }

    fn visit_ts_type_assertion(&mut self, it: &TSTypeAssertion<'a>) {
        self.blank(it.span.start, it.expression.span().start);
        self.visit_expression(&it.expression);
    }

    fn visit_ts_non_null_expression(&mut self, it: &TSNonNullExpression<'a>) {
        self.visit_expression(&it.expression);
        self.blank(it.expression.span().end, it.span.end);
    }

    fn visit_ts_interface_declaration(&mut self, it: &TSInterfaceDeclaration<'a>) {
        self.blank(it.span.start, it.span.end);
    }

    fn visit_ts_type_alias_declaration(&mut self, it: &TSTypeAliasDeclaration<'a>) {
        self.blank(it.span.start, it.span.end);
    }

    fn visit_ts_enum_declaration(&mut self, it: &TSEnumDeclaration<'a>) {
        if it.declare {
            self.blank(it.span.start, it.span.end);
        } else {
            self.refuse("an `enum`");
        }
    }

    fn visit_ts_namespace_declaration(&mut self, it: &TSNamespaceDeclaration<'a>) {
        if it.declare {
            self.blank(it.span.start, it.span.end);
        } else {
            self.refuse("a `namespace`");
        }
    }

    fn visit_ts_external_module_declaration(&mut self, it: &TSExternalModuleDeclaration<'a>) {
        self.blank(it.span.start, it.span.end);
    }

    fn visit_ts_global_declaration(&mut self, it: &TSGlobalDeclaration<'a>) {
        self.blank(it.span.start, it.span.end);
    }

    fn visit_ts_import_equals_declaration(&mut self, _: &TSImportEqualsDeclaration<'a>) {
        self.refuse("an `import x =` declaration");
    }

    fn visit_ts_export_assignment(&mut self, _: &TSExportAssignment<'a>) {
        self.refuse("an `export =` assignment");
    }

    fn visit_decorator(&mut self, _: &Decorator<'a>) {
        self.refuse("a decorator");
    }

    fn visit_import_expression(&mut self, _: &ImportExpression<'a>) {
        self.refuse("a dynamic `import()`");
    }

    // `implements X<T>`: blanked whole by `visit_class`; its names are types, no reads.
    fn visit_ts_class_implements(&mut self, _: &TSClassImplements<'a>) {}

    fn visit_ts_index_signature(&mut self, it: &TSIndexSignature<'a>) {
        self.blank(it.span.start, it.span.end);
    }

    fn visit_ts_this_parameter(&mut self, it: &TSThisParameter<'a>) {
        self.blank(it.span.start, it.span.end);
        // The comma after it, where a parameter follows.
        let rest = self.text.get(it.span.end as usize..).unwrap_or("");
        if let Some(i) = rest.find(|c: char| !c.is_whitespace()) {
            if rest[i..].starts_with(',') {
                let at = it.span.end + i as u32;
                self.blank(at, at + 1);
            }
        }
    }

    fn visit_formal_parameter(&mut self, it: &FormalParameter<'a>) {
        if it.accessibility.is_some() || it.readonly || it.r#override {
            self.refuse("a parameter property");
        }
        if it.optional {
            let end = it.type_annotation.as_ref().map_or(it.span.end, |t| t.span.start);
            self.blank_char_in(it.pattern.span().end, end, b"?");
        }
        walk::walk_formal_parameter(self, it);
    }

    fn visit_variable_declaration(&mut self, it: &VariableDeclaration<'a>) {
        if it.declare {
            self.blank(it.span.start, it.span.end);
            return;
        }
        walk::walk_variable_declaration(self, it);
    }

    fn visit_variable_declarator(&mut self, it: &VariableDeclarator<'a>) {
        if it.definite {
            let end = it.type_annotation.as_ref().map_or(it.span.end, |t| t.span.start);
            self.blank_char_in(it.id.span().end, end, b"!");
        }
        // `const { self } = args`: an actor reference read off the mapper argument.
        if let (Some(Expression::Identifier(init)), BindingPattern::ObjectPattern(o), Some(args)) =
            (&it.init, &it.id, self.args_name)
        {
            if init.name == args {
                self.note_actor_keys(o);
            }
        }
        walk::walk_variable_declarator(self, it);
    }

    fn visit_function(&mut self, it: &Function<'a>, flags: ScopeFlags) {
        // An overload signature or a `declare function`: types only.
        if it.declare || it.body.is_none() {
            self.blank(it.span.start, it.span.end);
            return;
        }
        walk::walk_function(self, it, flags);
    }

    fn visit_class(&mut self, it: &Class<'a>) {
        if it.declare {
            self.blank(it.span.start, it.span.end);
            return;
        }
        if it.r#abstract {
            let head = self.text.get(it.span.start as usize..it.span.end as usize).unwrap_or("");
            if let Some(i) = head.find("abstract") {
                self.blank(it.span.start + i as u32, it.span.start + i as u32 + "abstract".len() as u32);
            }
        }
        if let (Some(first), Some(last)) = (it.implements.first(), it.implements.last()) {
            let before = self.text.get(it.span.start as usize..first.span.start as usize).unwrap_or("");
            if let Some(i) = before.rfind("implements") {
                self.blank(it.span.start + i as u32, last.span.end);
            }
        }
        walk::walk_class(self, it);
    }

    fn visit_property_definition(&mut self, it: &PropertyDefinition<'a>) {
        if it.declare || it.r#type.is_abstract() {
            self.blank(it.span.start, it.span.end);
            return;
        }
        self.blank_modifiers(it.span.start, it.key.span().start);
        let end = it
            .type_annotation
            .as_ref()
            .map(|t| t.span.start)
            .or(it.value.as_ref().map(|v| v.span().start))
            .unwrap_or(it.span.end);
        self.blank_char_in(it.key.span().end, end, b"?!");
        walk::walk_property_definition(self, it);
    }

    fn visit_method_definition(&mut self, it: &MethodDefinition<'a>) {
        if it.value.body.is_none() || it.r#type.is_abstract() {
            self.blank(it.span.start, it.span.end);
            return;
        }
        self.blank_modifiers(it.span.start, it.key.span().start);
        if it.optional {
            self.blank_char_in(it.key.span().end, it.value.params.span.start, b"?");
        }
        walk::walk_method_definition(self, it);
    }

    fn visit_static_member_expression(&mut self, it: &StaticMemberExpression<'a>) {
        if let (Expression::Identifier(o), Some(args)) = (&it.object, self.args_name) {
            if o.name == args {
                if let Some(k) = ACTOR_ARGS.iter().find(|k| **k == it.property.name.as_str()) {
                    self.actor_arg.get_or_insert(k);
                }
            }
        }
        walk::walk_static_member_expression(self, it);
    }
}

impl<'a> Scan<'a> {
    fn note_actor_keys(&mut self, o: &ObjectPattern<'a>) {
        for p in &o.properties {
            if let Some(k) = pattern_key(p).and_then(|k| ACTOR_ARGS.iter().find(|a| **a == k)) {
                self.actor_arg.get_or_insert(k);
            }
        }
    }

    /// Reads a carried function's first parameter: a destructured actor reference, or the name
    /// of the arguments object, whose members are read as the body is visited.
    fn first_param(&mut self, params: &FormalParameters<'a>) {
        match params.items.first().map(|p| &p.pattern) {
            Some(BindingPattern::ObjectPattern(o)) => self.note_actor_keys(o),
            Some(BindingPattern::AssignmentPattern(a)) => {
                if let BindingPattern::ObjectPattern(o) = &a.left {
                    self.note_actor_keys(o);
                }
            }
            Some(BindingPattern::BindingIdentifier(id)) => self.args_name = Some(id.name.as_str()),
            _ => {}
        }
    }
}

/// A file's text with the spans blanked: each byte a space, newlines kept (so lines and
/// columns stay the source's) but in the `flat` spans.
fn blanked(text: &str, blanks: &[(u32, u32)], flat: &[(u32, u32)]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for &(s, e) in blanks {
        let (s, e) = (s as usize, (e as usize).min(bytes.len()));
        for b in bytes.get_mut(s..e).into_iter().flatten() {
            if !matches!(*b, b'\n' | b'\r') {
                *b = b' ';
            }
        }
    }
    for &(s, e) in flat {
        let (s, e) = (s as usize, (e as usize).min(bytes.len()));
        bytes.get_mut(s..e).into_iter().flatten().for_each(|b| *b = b' ');
    }
    // Spans are at character boundaries, and a blanked character is all spaces: still UTF-8.
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// What a module-level name of a file is, for a carried function that reads it.
#[derive(Clone, Debug)]
enum Top {
    /// A `const`, a function or a class declared by the statement of this index.
    Decl(usize),
    /// A `let` or a `var` (a run keeps no module state).
    Mutable(&'static str),
    /// TypeScript that is not erasable, or a `declare`d binding with no value.
    NoValue(&'static str),
    /// Imported: the specifier as written, and the export's name (`None`: a namespace).
    Import { spec: String, name: Option<String> },
}

/// A top-level statement that declares values: its text span, the names it reads free, and why it
/// cannot be carried (TypeScript that is not erasable inside it).
#[derive(Debug)]
struct Decl {
    span: (u32, u32),
    free: Vec<String>,
    refusal: Option<String>,
}

/// Enters a declaration's statement (its span, scanned by the visit given) in a table: its index.
type DeclFn<'f, 'a> = dyn FnMut(&mut Table, oxc_span::Span, &dyn Fn(&mut Scan<'a>)) -> usize + 'f;

/// What an export of a file is.
#[derive(Clone, Debug)]
enum Export {
    /// A module-level name of the file.
    Local(String),
    /// `export default <expression>`: the statement of this index, whose text is the expression.
    Expr(usize),
    /// Re-exported from another file: its specifier and the name there (`None`: a namespace).
    From { spec: String, name: Option<String> },
}

/// One file's module level, read once while its AST lives: what a carried function of any file
/// may capture from it.
#[derive(Debug, Default)]
pub(super) struct Table {
    blanked: String,
    decls: Vec<Decl>,
    names: FxMap<String, Top>,
    exports: IndexMap<String, Export>,
    /// `export * from "..."`'s specifiers.
    stars: Vec<String>,
}

impl Table {
    pub(super) fn new<'a>(program: &Program<'a>, text: &'a str) -> Table {
        let mut t = Table::default();
        let mut blanks = Vec::new();
        let mut flat = Vec::new();
        for stmt in &program.body {
            t.statement(stmt, text, &mut blanks, &mut flat);
        }
        blanks.sort_unstable();
        t.blanked = blanked(text, &blanks, &flat);
        t
    }

    /// Reads one top-level statement (its types' blanks are added to `blanks`).
    fn statement<'a>(
        &mut self,
        stmt: &Statement<'a>,
        text: &'a str,
        blanks: &mut Vec<(u32, u32)>,
        flat: &mut Vec<(u32, u32)>,
    ) {
        // A declaration's statement: scanned for what it reads and binds.
        let mut decl = |t: &mut Table, span: oxc_span::Span, visit: &dyn Fn(&mut Scan<'a>)| -> usize {
            let mut scan = Scan::new(text);
            visit(&mut scan);
            let free = scan.free();
            blanks.extend(scan.blanks);
            flat.extend(scan.flat);
            t.decls.push(Decl { span: (span.start, span.end), free, refusal: scan.refusal });
            t.decls.len() - 1
        };
        match stmt {
            Statement::ImportDeclaration(i) => {
                if i.import_kind.is_type() {
                    return;
                }
                for s in i.specifiers.iter().flatten() {
                    let (local, name) = match s {
                        ImportDeclarationSpecifier::ImportSpecifier(s) => {
                            if s.import_kind.is_type() {
                                continue;
                            }
                            (s.local.name.as_str(), Some(module_export_name(&s.imported).to_string()))
                        }
                        ImportDeclarationSpecifier::ImportDefaultSpecifier(s) => {
                            (s.local.name.as_str(), Some("default".to_string()))
                        }
                        ImportDeclarationSpecifier::ImportNamespaceSpecifier(s) => (s.local.name.as_str(), None),
                    };
                    self.names.insert(local.to_string(), Top::Import { spec: i.source.value.to_string(), name });
                }
            }
            Statement::ExportDeclaration(e) => {
                for name in self.declaration(&e.declaration, &mut decl) {
                    self.exports.insert(name.clone(), Export::Local(name));
                }
            }
            Statement::ExportNamedDeclaration(e) => {
                if e.export_kind.is_type() {
                    return;
                }
                for s in e.specifiers.iter().filter(|s| !s.export_kind.is_type()) {
                    let local = module_export_name(&s.local).to_string();
                    self.exports.insert(module_export_name(&s.exported).to_string(), Export::Local(local));
                }
            }
            Statement::ExportFromDeclaration(e) => {
                if e.export_kind.is_type() {
                    return;
                }
                for s in e.specifiers.iter().filter(|s| !s.export_kind.is_type()) {
                    let from = Export::From {
                        spec: e.source.value.to_string(),
                        name: Some(module_export_name(&s.local).to_string()),
                    };
                    self.exports.insert(module_export_name(&s.exported).to_string(), from);
                }
            }
            Statement::ExportAllDeclaration(e) => {
                if e.export_kind.is_type() {
                    return;
                }
                match &e.exported {
                    Some(x) => {
                        let from = Export::From { spec: e.source.value.to_string(), name: None };
                        self.exports.insert(module_export_name(x).to_string(), from);
                    }
                    None => self.stars.push(e.source.value.to_string()),
                }
            }
            Statement::ExportDefaultDeclaration(e) => match &e.declaration {
                ExportDefaultDeclarationKind::FunctionDeclaration(f) => {
                    let i = decl(self, f.span, &|s| s.visit_function(f, ScopeFlags::Function));
                    match &f.id {
                        Some(id) => {
                            self.names.insert(id.name.to_string(), Top::Decl(i));
                            self.exports.insert("default".into(), Export::Local(id.name.to_string()));
                        }
                        None => {
                            self.exports.insert("default".into(), Export::Expr(i));
                        }
                    }
                }
                ExportDefaultDeclarationKind::ClassDeclaration(c) => {
                    let i = decl(self, c.span, &|s| s.visit_class(c));
                    match &c.id {
                        Some(id) => {
                            self.names.insert(id.name.to_string(), Top::Decl(i));
                            self.exports.insert("default".into(), Export::Local(id.name.to_string()));
                        }
                        None => {
                            self.exports.insert("default".into(), Export::Expr(i));
                        }
                    }
                }
                ExportDefaultDeclarationKind::TSInterfaceDeclaration(_) => {}
                other => {
                    if let Some(x) = other.as_expression() {
                        let i = decl(self, x.span(), &|s| s.visit_expression(x));
                        self.exports.insert("default".into(), Export::Expr(i));
                    }
                }
            },
            other => {
                if let Some(d) = other.as_declaration() {
                    self.declaration(d, &mut decl);
                }
            }
        }
    }

    /// A declaration's names, each entered in the table.
    fn declaration<'a>(&mut self, d: &Declaration<'a>, decl: &mut DeclFn<'_, 'a>) -> Vec<String> {
        let mut names = Vec::new();
        match d {
            Declaration::VariableDeclaration(v) => {
                let mut declared = Vec::new();
                for x in &v.declarations {
                    pattern_names(&x.id, &mut declared);
                }
                let top = if v.declare {
                    Top::NoValue("a `declare`d binding with no value")
                } else {
                    match v.kind {
                        VariableDeclarationKind::Const => {
                            Top::Decl(decl(self, v.span, &|s| s.visit_variable_declaration(v)))
                        }
                        VariableDeclarationKind::Let => Top::Mutable("let"),
                        VariableDeclarationKind::Var => Top::Mutable("var"),
                        _ => Top::Mutable("using"),
                    }
                };
                for (n, _) in declared {
                    self.names.insert(n.to_string(), top.clone());
                    names.push(n.to_string());
                }
            }
            Declaration::FunctionDeclaration(f) => {
                let Some(id) = &f.id else { return names };
                if f.declare {
                    self.names.insert(id.name.to_string(), Top::NoValue("a `declare`d binding with no value"));
                } else if f.body.is_some() {
                    // An overload signature has no body: the implementation is the declaration.
                    let i = decl(self, f.span, &|s| s.visit_function(f, ScopeFlags::Function));
                    self.names.insert(id.name.to_string(), Top::Decl(i));
                }
                names.push(id.name.to_string());
            }
            Declaration::ClassDeclaration(c) => {
                let Some(id) = &c.id else { return names };
                let top = if c.declare {
                    Top::NoValue("a `declare`d binding with no value")
                } else {
                    Top::Decl(decl(self, c.span, &|s| s.visit_class(c)))
                };
                self.names.insert(id.name.to_string(), top);
                names.push(id.name.to_string());
            }
            Declaration::TSEnumDeclaration(e) => {
                self.names.insert(e.id.name.to_string(), Top::NoValue("an `enum` (TypeScript that is not erasable)"));
                names.push(e.id.name.to_string());
            }
            Declaration::TSNamespaceDeclaration(m) if !m.declare => {
                self.names
                    .insert(m.id.name.to_string(), Top::NoValue("a `namespace` (TypeScript that is not erasable)"));
            }
            _ => {}
        }
        names
    }

    fn text(&self, (s, e): (u32, u32)) -> &str {
        self.blanked.get(s as usize..e as usize).unwrap_or("")
    }
}

/// A carried function of the file being evaluated: its span, how its text becomes an
/// expression, and what its own scan found.
pub(super) enum FnNode<'a, 'b> {
    Arrow(&'b ArrowFunctionExpression<'a>),
    Function(&'b Function<'a>),
}

impl<'a, 'g, 's, 'v> Cx<'a, 'g, 's, 'v> {
    /// The function carried as JavaScript, or why it cannot be.
    pub(super) fn carry(&mut self, f: FnNode<'a, '_>) -> Result<std::sync::Arc<ir::expr::Script>, std::sync::Arc<str>> {
        let mut scan = Scan::new(self.text);
        let span = match f {
            FnNode::Arrow(a) => {
                scan.first_param(&a.params);
                scan.visit_arrow_function_expression(a);
                a.span
            }
            FnNode::Function(x) => {
                scan.first_param(&x.params);
                scan.visit_function(x, ScopeFlags::Function);
                x.span
            }
        };
        if let Some(what) = &scan.refusal {
            return Err(format!("it holds {what}, TypeScript that is not erasable").into());
        }
        if let Some(k) = scan.actor_arg {
            return Err(format!(
                "it reads `{k}` off its argument, an actor reference that a run in the engine cannot have"
            )
            .into());
        }
        if let (Some(None), Some(program)) = (self.g.tables.get(self.file.0 as usize), self.program) {
            self.g.tables[self.file.0 as usize] = Some(Table::new(program, self.text));
        }
        let Some(table) = self.g.tables.get(self.file.0 as usize).and_then(Option::as_ref) else {
            return Err("its file's module level was not read".into());
        };
        let body = table.text((span.start, span.end));
        // A method (`isReady({ context }) { ... }`): its function's text starts at the parameters.
        let code = match f {
            FnNode::Function(x) if !body.starts_with("function") && !body.starts_with("async") => {
                format!(
                    "{}function{}{}",
                    if x.r#async { "async " } else { "" },
                    if x.generator { "*" } else { "" },
                    body
                )
            }
            _ => body.to_string(),
        };
        let mut b = Builder { g: &*self.g, open: Vec::new() };
        b.closure(self.file, scan.free(), &code, 0)
            .map(|code| {
                // A Machine's function: its value is its only effect (no SCXML `run` or `writes`).
                let args = vec![Root::Context, Root::Event];
                std::sync::Arc::new(ir::expr::Script { code, args, ..ir::expr::Script::default() })
            })
            .map_err(Into::into)
    }
}

/// Writes a carried function's closure over the tables of the evaluation's files.
struct Builder<'g, 's, 'v> {
    g: &'g Graph<'s, 'v>,
    /// The imports being followed (file, export), to refuse a cycle.
    open: Vec<(FileId, Option<String>)>,
}

impl Builder<'_, '_, '_> {
    /// `(() => { "use strict"; <what free names of `file` capture>; return (<ret>); })()`.
    fn closure(&mut self, file: FileId, free: Vec<String>, ret: &str, depth: usize) -> Result<String, String> {
        if depth > MAX_MODULE_DEPTH {
            return Err(format!("its imports are nested more than {MAX_MODULE_DEPTH} deep"));
        }
        let table = self.table(file)?;
        let mut decls = BTreeSet::new();
        let mut imports: Vec<(String, String, Option<String>)> = Vec::new();
        let mut seen = rustc_hash::FxHashSet::default();
        let mut stack = free;
        stack.reverse();
        while let Some(n) = stack.pop() {
            if !seen.insert(n.clone()) {
                continue;
            }
            match table.names.get(&n) {
                Some(Top::Decl(i)) => {
                    if decls.insert(*i) {
                        let d = &table.decls[*i];
                        if let Some(what) = &d.refusal {
                            return Err(format!("it captures `{n}`, which holds {what}, TypeScript that is not erasable"));
                        }
                        stack.extend(d.free.iter().rev().cloned());
                    }
                }
                Some(Top::Mutable(kind)) => {
                    return Err(format!(
                        "it captures the module `{kind}` `{n}`: a run keeps no module state, so only a module `const` is carried"
                    ))
                }
                Some(Top::NoValue(what)) => return Err(format!("it captures `{n}`, {what}")),
                Some(Top::Import { spec, name }) => imports.push((n.clone(), spec.clone(), name.clone())),
                None if GLOBALS.contains(&n.as_str()) => {}
                None => {
                    return Err(format!(
                        "it reads `{n}`, which is not a standard ECMAScript global (a run has no I/O, no timers and no host)"
                    ))
                }
            }
        }
        let mut own = String::new();
        for i in decls {
            let text = table.text(table.decls[i].span);
            own.push_str(text);
            // A statement written without its `;` (the next line is no longer next to it).
            if !text.trim_end().ends_with([';', '}']) {
                own.push(';');
            }
            own.push('\n');
            self.bound(&own)?;
        }
        let mut out = String::from("(() => { \"use strict\";\n");
        for (local, spec, name) in imports {
            let value = self.import(file, &local, &spec, name, depth)?;
            out.push_str(&format!("const {local} = {value};\n"));
            self.bound(&out)?;
        }
        out.push_str(&own);
        out.push_str("return (");
        out.push_str(ret);
        out.push_str(");\n})()");
        self.bound(&out)?;
        Ok(out)
    }

    fn bound(&self, out: &str) -> Result<(), String> {
        if out.len() > MAX_SCRIPT {
            return Err(format!("too big: what it closes over is more than {MAX_SCRIPT} bytes"));
        }
        Ok(())
    }

    fn table(&self, file: FileId) -> Result<&Table, String> {
        self.g
            .tables
            .get(file.0 as usize)
            .and_then(Option::as_ref)
            .ok_or_else(|| format!("it captures from \"{}\", a file being read (an import cycle)", self.path(file)))
    }

    fn path(&self, file: FileId) -> String {
        self.g.files.get(file.0 as usize).map(|f| f.path.display().to_string()).unwrap_or_default()
    }

    /// The value of `name` (an export; `None`: the namespace) of the file `spec` names from
    /// `from`, as an expression; `local` is the name it is read as, for a refusal.
    fn import(
        &mut self,
        from: FileId,
        local: &str,
        spec: &str,
        name: Option<String>,
        depth: usize,
    ) -> Result<String, String> {
        let file = match classify(spec) {
            Specifier::Known(_) | Specifier::Package(_) => {
                return Err(format!(
                    "it uses `{local}`, imported from the package \"{spec}\", which a run does not have"
                ))
            }
            Specifier::Relative(rel) => {
                let dir = self.g.files[from.0 as usize].path.parent().map(Path::to_path_buf).unwrap_or_default();
                let found = module::resolve(self.g.sources, &dir, &rel)
                    .filter(|found| found.kind != ModuleKind::Opaque && self.g.inside_root(&found.path))
                    .and_then(|found| {
                        Some((self.g.ids.get(&self.g.sources.identity(&found.path)).copied()?, found.kind))
                    });
                match found {
                    Some(f) => f,
                    None => return Err(format!("it uses `{local}`, imported from \"{spec}\", which jr2 did not read")),
                }
            }
        };
        self.export(file, local, name, depth)
    }

    fn export(
        &mut self,
        (file, kind): (FileId, ModuleKind),
        local: &str,
        name: Option<String>,
        depth: usize,
    ) -> Result<String, String> {
        if self.open.iter().any(|(f, n)| *f == file && *n == name) || depth > MAX_MODULE_DEPTH {
            return Err(format!("it uses `{local}`, whose imports go round in a cycle"));
        }
        // A JSON module is its own text: an expression.
        if kind == ModuleKind::Json {
            let text = &self.g.files[file.0 as usize].text;
            return Ok(match name.as_deref() {
                None | Some("default") => format!("({text})"),
                Some(n) => format!("({text})[{}]", serde_json::to_string(n).unwrap_or_default()),
            });
        }
        self.open.push((file, name.clone()));
        let out = self.export_inner(file, local, name, depth);
        self.open.pop();
        out
    }

    fn export_inner(
        &mut self,
        file: FileId,
        local: &str,
        name: Option<String>,
        depth: usize,
    ) -> Result<String, String> {
        let table = self.table(file)?;
        let Some(name) = name else {
            // A namespace: an object of its exports.
            let mut fields = Vec::new();
            for k in table.exports.keys().cloned().collect::<Vec<_>>() {
                let v = self.export((file, ModuleKind::Code), local, Some(k.clone()), depth + 1)?;
                fields.push(format!("{}: {v}", serde_json::to_string(&k).unwrap_or_default()));
            }
            return Ok(format!("Object.freeze({{ {} }})", fields.join(", ")));
        };
        match table.exports.get(&name).cloned() {
            Some(Export::Local(l)) => match table.names.get(&l) {
                Some(Top::Import { spec, name }) => {
                    let (spec, name) = (spec.clone(), name.clone());
                    self.import(file, local, &spec, name, depth + 1)
                }
                _ => self.closure(file, vec![l.clone()], &l, depth + 1),
            },
            Some(Export::Expr(i)) => {
                let d = &table.decls[i];
                let text = format!("({})", table.text(d.span));
                self.closure(file, d.free.clone(), &text, depth + 1)
            }
            Some(Export::From { spec, name }) => self.import(file, local, &spec, name, depth + 1),
            None => {
                for spec in table.stars.clone() {
                    if let Ok(v) = self.import(file, local, &spec, Some(name.clone()), depth + 1) {
                        return Ok(v);
                    }
                }
                Err(format!("it uses `{local}`, which \"{}\" does not export", self.path(file)))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::value::ValueKind;
    use std::path::{Path, PathBuf};

    /// A folder of files for one test.
    fn files(name: &str, files: &[(&str, &str)]) -> PathBuf {
        let d = std::env::temp_dir().join(format!("jr2-carry-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        for (path, text) in files {
            let p = d.join(path);
            std::fs::create_dir_all(p.parent().expect("a folder")).expect("dir");
            std::fs::write(p, text).expect("write");
        }
        d
    }

    /// Each exported function of `flow.ts`: `lowered`, its script's code, or `refused: <why>`.
    fn carried(dir: &Path) -> Vec<(String, String)> {
        let ev = crate::eval::evaluate_file(&dir.join("flow.ts"));
        let mut out = Vec::new();
        for (k, v) in ev.exports.named().iter() {
            let ValueKind::Function(f) = &v.kind else { continue };
            let shown = match (&f.lowered, &f.carried) {
                (Some(_), _) => "lowered".to_string(),
                (None, Some(Ok(s))) => s.code.clone(),
                (None, Some(Err(why))) => format!("refused: {why}"),
                (None, None) => "none".to_string(),
            };
            out.push((k.to_string(), shown));
        }
        out
    }

    /// Runs each `(name, code, args)` in node: `JSON.stringify((code)(args))` per line, or why
    /// not; `None` where node is missing (under `CI=true` that fails).
    fn node(calls: &[(String, String, &str)]) -> Option<Vec<String>> {
        let mut js = String::from("const out = [];\n");
        for (name, code, args) in calls {
            js.push_str(&format!(
                "try {{ const f = {code}; out.push({name:?} + \" \" + JSON.stringify(f({args}))); }} catch (e) {{ out.push({name:?} + \" threw \" + e); }}\n"
            ));
        }
        js.push_str("console.log(out.join(\"\\n\"));\n");
        static RUN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let run = RUN.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("jr2-carry-node-{}-{run}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let file = dir.join("calls.cjs");
        std::fs::write(&file, js).expect("write");
        let out = std::process::Command::new("node").arg(&file).output();
        let _ = std::fs::remove_dir_all(&dir);
        match out {
            Ok(out) => {
                assert!(out.status.success(), "node: {}", String::from_utf8_lossy(&out.stderr));
                Some(String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).collect())
            }
            Err(e) => {
                assert!(std::env::var("CI").as_deref() != Ok("true"), "node is needed under CI=true: {e}");
                None
            }
        }
    }

    /// The forms a Workflow's functions take that do not lower: each carried with what it closes
    /// over (the snapshot shows the scripts), and each called in node with the arguments a run
    /// gives, for the value xstate's call of the function as written gives; and the refused,
    /// each naming what no run can have.
    #[test]
    fn functions_are_carried_with_what_they_close_over_or_refused() {
        let d = files(
            "forms",
            &[
                (
                    "flow.ts",
                    r#"import { norm as clean, LIMITS } from "./lib/help";
import * as help from "./lib/help";
import pick from "./lib/pick";
import table from "./lib/table.json";
import { assign } from "xstate";

interface Ctx { items: string[]; n?: number }
type Ev = { type: string; tag?: string };
const WEIGHTS = { a: 1, b: 2 } as const;
let counter = 0;
var legacy = 1;
enum Mode { On, Off }

function total(xs: number[]): number {
  return xs.reduce((s, x) => s + x, 0);
}

export const filtered = ({ context }: { context: Ctx }) => context.items.filter((i) => clean(i) !== "").length < LIMITS.max;
export const block = ({ context, event }: { context: Ctx; event: Ev }) => {
  const tag = clean(event.tag!);
  if (context.items.includes(tag)) {
    return {};
  }
  return { items: [...context.items, tag] };
};
export const helper = ({ context }) => total(context.items.map((i) => WEIGHTS[i as keyof typeof WEIGHTS] ?? 0));
export const typed = <T,>({ context }: { context: { xs: T[] } }, params?: { at: number }): T | undefined => context.xs.at(params?.at ?? 0) as T;
export const namespaced = ({ context }) => help.norm(context.items.join("  "));
export const defaulted = ({ context }) => pick(context.items, table.first);
export const shadowed = ({ context }) => { const counter = context.items.length; return [counter].flatMap((WEIGHTS) => [WEIGHTS * 2]); };
export const method = { guard({ context }) { return context.items.some((i, _at, all) => i === "x" && all.length > 0); } }.guard;
export const lines = ({ context }: { context: Ctx }):
  number => context.items.findLastIndex((i) => i === "b");
export const fetched = ({ context }) => fetch(context.url);
export const counted = () => { counter += 1; return counter; };
export const old = () => legacy;
export const moded = () => Mode.On;
export const selfish = ({ self }) => self.id.toUpperCase();
export const spawned = (args) => args.spawn("child");
export const kit = ({ context }) => assign({ n: context.items.length });
export const timer = ({ context }) => setTimeout(() => context.items.pop(), 1);
"#,
                ),
                (
                    "lib/help.ts",
                    "const WS = /\\s+/g;\nexport const LIMITS = { max: 3 };\nexport function norm(s: string): string {\n  return s.replace(WS, \" \").trim();\n}\n",
                ),
                ("lib/pick.ts", "import { norm } from './help';\nexport default (xs: string[], i: number) => norm(xs[i]);\n"),
                ("lib/table.json", "{ \"first\": 1 }\n"),
            ],
        );
        let got = carried(&d);
        let shown: String = got.iter().map(|(k, v)| format!("--- {k}\n{v}\n")).collect();
        insta::assert_snapshot!(shown);
        let args: &[(&str, &str, &str)] = &[
            ("filtered", r#"{ context: { items: ["a", " ", "b "] } }"#, "true"),
            (
                "block",
                r#"{ context: { items: ["a"] }, event: { type: "add", tag: "  b  c " } }"#,
                r#"{"items":["a","b c"]}"#,
            ),
            ("block", r#"{ context: { items: ["a"] }, event: { type: "add", tag: "a" } }"#, "{}"),
            ("helper", r#"{ context: { items: ["a", "b", "z"] } }"#, "3"),
            ("typed", r#"{ context: { xs: [1, 2, 3] } }, { at: -1 }"#, "3"),
            ("namespaced", r#"{ context: { items: ["a", "b"] } }"#, r#""a b""#),
            ("defaulted", r#"{ context: { items: ["a", " b "] } }"#, r#""b""#),
            ("shadowed", r#"{ context: { items: ["a", "b"] } }"#, "[4]"),
            ("method", r#"{ context: { items: ["y", "x"] } }"#, "true"),
            ("lines", r#"{ context: { items: ["a", "b"] } }"#, "1"),
        ];
        let calls: Vec<(String, String, &str)> = args
            .iter()
            .map(|(name, a, _)| {
                let code = got.iter().find(|(k, _)| k == name).map(|(_, c)| c.clone()).unwrap_or_default();
                (name.to_string(), code, *a)
            })
            .collect();
        if let Some(out) = node(&calls) {
            let want: Vec<String> = args.iter().map(|(name, _, v)| format!("{name} {v}")).collect();
            assert_eq!(out, want);
        }
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn typescript_that_is_not_erasable_is_refused_and_types_are_blanked_in_place() {
        let d = files(
            "erasable",
            &[(
                "flow.ts",
                "class Box { constructor(private readonly v: number) {} }\nexport const boxed = () => new Box(1);\n@sealed class Deco {}\nexport const deco = () => new Deco();\nnamespace NS { export const a = 1; }\nexport const spaced = () => NS.a;\nclass Plain<T> implements Iterable<T> { private xs: T[] = []; declare y?: number; get size(): number { return this.xs.length; } [Symbol.iterator]() { return this.xs[Symbol.iterator](); } }\nexport const plain = ({ context }: { context: { xs: number[] } }) => { const b = new Plain<number>(); return b.size + context.xs.length!; };\n",
            )],
        );
        let got = carried(&d);
        let shown: String = got.iter().map(|(k, v)| format!("--- {k}\n{v}\n")).collect();
        insta::assert_snapshot!(shown);
        let plain = got.iter().find(|(k, _)| k == "plain").map(|(_, c)| c.clone()).unwrap_or_default();
        if let Some(out) = node(&[("plain".into(), plain, "{ context: { xs: [1, 2] } }")]) {
            assert_eq!(out, vec!["plain 2".to_string()]);
        }
        let _ = std::fs::remove_dir_all(&d);
    }
}
