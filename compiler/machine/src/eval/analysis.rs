//! The analysis of a function the evaluator meets (`eval.rs`): it stays code, and the analysis
//! reads what it statically reads ([`Facts`]: pick params, context keys, Parts built in its body)
//! and, for a pure expression body, lowers it to an [`Expr`] the runtime evaluates.
//!
//! A child module of `eval.rs`: the analysis is methods of the evaluator's [`Cx`], which keeps
//! the scopes of the function being analyzed; the decisions it follows are in `eval.rs`'s header.
//!
//! It allocates little, as it runs for every function of every file: the locals of all scopes
//! are one stack ([`FnScopes`], no map per scope), what is known is lowered by moving it into its
//! [`Expr`] (no copy of a subtree or a path; a literal's strings become inline names), keys, path segments and short template
//! texts are inline strings, and a path of up to two keys ([`RefPath`]), a function's one
//! parameter and its first two context keys are inline lists (no heap block). It does little
//! work per expression too: a chain of names on a local (`context.ticket.id`, the commonest
//! expression) is read in one step ([`Cx::member_chain`]), a mapper's destructured arguments are
//! bound without copies, a called name is looked up once, and an object's keys are checked for
//! duplicates by a 64-bit filter, not a scan per key ([`keep_first_place`]).

use super::*;
use ir::expr::{ArrayPart, ObjectPart, RefPath};

/// What a function's analysis knows of a value.
#[derive(Clone, Debug)]
pub(super) enum Fv<'a, 'v> {
    Ref(Root, RefPath),
    /// The xstate mapper's arguments object: `args.context`.
    Args,
    /// `paramsOf(event, def)`, for the pick named so, with the event's expression where it
    /// lowers (a member is read as the event's; the whole value as a call of `paramsOf`).
    Pick(Name, Option<Box<Expr>>),
    Lowered(Expr),
    Val(Value<'v>),
    /// A `const` arrow helper, for inlining.
    Helper(&'a Expression<'a>),
    Opaque,
}

/// The locals of the function being analyzed: one stack of bindings for all its scopes (a
/// function has a few locals, so a search from the top beats a map per scope, and the stack's
/// capacity serves every function of the file). `starts` marks where each block scope begins;
/// `base` where the function (or inlined helper) begins, as it sees none of the locals below.
/// `args` is a stack too: the arguments of the helper calls being inlined, each call's on top
/// (evaluated in the caller's scope, then bound to the helper's parameters), so that a call
/// needs no `Vec` of its own.
#[derive(Default)]
pub(super) struct FnScopes<'a, 'v> {
    locals: Vec<(&'a str, Fv<'a, 'v>)>,
    starts: Vec<usize>,
    base: usize,
    args: Vec<Fv<'a, 'v>>,
    /// The next free slot of the lowered function's locals ([`Expr::Local`]): a callback's
    /// parameters and a bound `const` take the next ones while their scope lasts.
    slots: u32,
}

impl<'a, 'v> FnScopes<'a, 'v> {
    /// Starts a function's scope, which sees none of the locals bound so far; returns what
    /// [`FnScopes::leave_function`] restores.
    fn enter_function(&mut self) -> usize {
        std::mem::replace(&mut self.base, self.locals.len())
    }

    fn leave_function(&mut self, saved_base: usize) {
        self.locals.truncate(self.base);
        self.base = saved_base;
    }
}

impl<'a, 'g, 's, 'v> Cx<'a, 'g, 's, 'v> {
    // ---- functions ----

    pub(super) fn arrow_value(&mut self, f: &'a ArrowFunctionExpression<'a>) -> Value<'v> {
        let (facts, lowered) = self.analyze(&f.params, FnBody::Arrow(&f.body));
        let params = self.param_texts(&f.params);
        let carried = self.carried(lowered.is_some(), carry::FnNode::Arrow(f));
        self.val(ValueKind::Function(self.arena.function(FnValue { params, facts, lowered, carried })), f.span)
    }

    pub(super) fn function_value(&mut self, f: &'a Function<'a>) -> Value<'v> {
        let params = self.param_texts(&f.params);
        let (facts, lowered) = match &f.body {
            Some(b) => self.analyze(&f.params, FnBody::Block(b)),
            None => (Facts { complete: false, ..Facts::default() }, None),
        };
        let carried = match f.body {
            Some(_) => self.carried(lowered.is_some(), carry::FnNode::Function(f)),
            None => None,
        };
        self.val(ValueKind::Function(self.arena.function(FnValue { params, facts, lowered, carried })), f.span)
    }

    /// A function that did not lower, carried as JavaScript or refused (`carry.rs`); none for
    /// one that lowered, or an expression read outside a Workflow (SCXML's).
    fn carried(&mut self, lowered: bool, f: carry::FnNode<'a, '_>) -> Option<crate::value::Carried> {
        (!lowered && self.names.is_none()).then(|| self.carry(f))
    }

    fn param_texts(&self, p: &FormalParameters<'a>) -> smallvec::SmallVec<[Name; 1]> {
        let text = self.text;
        let slice = |s: oxc_span::Span| text.get(s.start as usize..s.end as usize).unwrap_or("");
        let mut out = smallvec::SmallVec::<[Name; 1]>::with_capacity(p.items.len() + usize::from(p.rest.is_some()));
        for i in &p.items {
            out.push(Name::from(slice(i.pattern.span())));
        }
        if let Some(r) = &p.rest {
            out.push(compact_str::format_compact!("...{}", slice(r.rest.argument.span())));
        }
        out
    }

    /// The facts and lowering of a function, with its scope stack saved and restored (a function
    /// met inside another one's analysis is analyzed on its own).
    fn analyze(&mut self, params: &'a FormalParameters<'a>, body: FnBody<'a>) -> (Facts, Option<std::sync::Arc<Expr>>) {
        let saved_base = self.scopes.enter_function();
        let saved_facts = std::mem::replace(&mut self.facts, Facts { complete: true, ..Facts::default() });
        let saved_inline = std::mem::replace(&mut self.inline, 0);
        let saved_slots = std::mem::replace(&mut self.scopes.slots, 0);
        // xstate calls a guard, an action or a delay with the arguments object and its params
        // (`({ context }, params) => ...`); any other function with the arguments object alone,
        // so its second parameter is `undefined`, as `params` is outside an implementation.
        for (i, p) in params.items.iter().enumerate() {
            let fv = match i {
                0 => Fv::Args,
                1 => Fv::Ref(Root::Params, RefPath::new()),
                _ => Fv::Opaque,
            };
            self.bind_pattern(&p.pattern, fv, i == 0);
        }
        if let Some(r) = &params.rest {
            self.bind_pattern(&r.rest.argument, Fv::Opaque, false);
        }
        let out = self.body(body);
        let lowered = out.and_then(|fv| self.lower(fv)).map(std::sync::Arc::new);
        let mut facts = std::mem::replace(&mut self.facts, saved_facts);
        // Lists grown past SCANNED_FACTS were pushed to unsearched: each fact once, in the order
        // of its first read.
        if facts.context_keys.len() > SCANNED_FACTS {
            let mut seen = rustc_hash::FxHashSet::default();
            facts.context_keys.retain(|k| seen.insert(k.clone()));
        }
        if facts.pick_params.len() > SCANNED_FACTS {
            let mut seen = rustc_hash::FxHashSet::default();
            facts.pick_params.retain(|p| seen.insert(p.clone()));
        }
        self.scopes.leave_function(saved_base);
        self.inline = saved_inline;
        self.scopes.slots = saved_slots;
        (facts, lowered)
    }

    /// The body's value (the returned one, where it is the only way out), or `None`.
    fn body(&mut self, body: FnBody<'a>) -> Option<Fv<'a, 'v>> {
        match body {
            FnBody::Arrow(ArrowFunctionBody::FunctionBody(b)) => self.block(&b.statements),
            FnBody::Block(b) => self.block(&b.statements),
            FnBody::Arrow(other) => other.as_expression().map(|x| self.fexpr(x)),
        }
    }

    fn block(&mut self, stmts: &'a oxc_allocator::Vec<'a, Statement<'a>>) -> Option<Fv<'a, 'v>> {
        // A body with nothing in it (`() => {}`, an action that does nothing) returns `undefined`.
        if stmts.iter().all(|st| matches!(st, Statement::EmptyStatement(_))) {
            return Some(Fv::Lowered(Expr::Undefined));
        }
        let mut pure = true;
        let mut ret = None;
        // What comes before the final `return`, in order: a `const` bound once
        // ([`binds_once`]), an `if (test) { return x; }`. Empty for most bodies (no block).
        let mut steps: Vec<Step> = Vec::new();
        let slots = self.scopes.slots;
        for (i, st) in stmts.iter().enumerate() {
            let last = i + 1 == stmts.len();
            match st {
                Statement::ReturnStatement(r) => {
                    let fv = r.argument.as_ref().map(|x| self.fexpr(x));
                    if last && pure {
                        ret = fv;
                    }
                    pure = false;
                }
                Statement::VariableDeclaration(v) => {
                    if v.kind != VariableDeclarationKind::Const {
                        self.facts.complete = false;
                        pure = false;
                    }
                    for d in &v.declarations {
                        let fv = match &d.init {
                            Some(init) => match strip(init) {
                                Expression::ArrowFunctionExpression(_) | Expression::FunctionExpression(_) => {
                                    Fv::Helper(init)
                                }
                                _ => self.fexpr(init),
                            },
                            None => Fv::Opaque,
                        };
                        let fv = match fv {
                            Fv::Lowered(e) if v.kind == VariableDeclarationKind::Const && binds_once(&e) => {
                                let slot = self.scopes.slots;
                                self.scopes.slots += 1;
                                steps.push(Step::Let(slot, e));
                                Fv::Lowered(Expr::Local(slot))
                            }
                            fv if v.kind == VariableDeclarationKind::Const => fv,
                            _ => Fv::Opaque,
                        };
                        self.bind_pattern(&d.id, fv, false);
                    }
                }
                // `if (test) { ...; return x; }` with no `else`: the rest of the body is its
                // alternate (the facts read are those `fstmt` reads of it).
                Statement::IfStatement(x) if pure && x.alternate.is_none() && returns(&x.consequent) => {
                    let test = self.fexpr(&x.test);
                    let then = self.scoped(|cx| match &x.consequent {
                        Statement::BlockStatement(b) => cx.block(&b.body),
                        Statement::ReturnStatement(r) => r.argument.as_ref().map(|a| cx.fexpr(a)),
                        _ => None,
                    });
                    let then = then.and_then(|t| self.lower(t));
                    match (self.lower(test), then) {
                        (Some(test), Some(then)) => steps.push(Step::Guard(test, then)),
                        _ => pure = false,
                    }
                }
                Statement::EmptyStatement(_) => {}
                other => {
                    pure = false;
                    self.fstmt(other);
                }
            }
        }
        self.scopes.slots = slots;
        if steps.is_empty() {
            return ret;
        }
        let mut e = self.lower(ret?)?;
        for step in steps.into_iter().rev() {
            e = match step {
                Step::Let(slot, value) => Expr::Let { slot, value: Box::new(value), body: Box::new(e) },
                Step::Guard(test, then) => {
                    Expr::Conditional { test: Box::new(test), consequent: Box::new(then), alternate: Box::new(e) }
                }
            };
        }
        Some(Fv::Lowered(e))
    }

    /// `array.map((item, index) => body)` and the other array methods of [`ArrayMethod`], where
    /// the call has that shape (an arrow of plain-name parameters, one argument, `reduce` two
    /// at most): the call lowered to an [`Expr::Callback`], or `Opaque` (and `complete` false)
    /// where a part does not lower. `None` for any other shape, which the caller reads as any
    /// method call.
    fn fcallback(
        &mut self,
        method: ir::expr::ArrayMethod,
        m: &'a StaticMemberExpression<'a>,
        c: &'a CallExpression<'a>,
    ) -> Option<Fv<'a, 'v>> {
        use ir::expr::ArrayMethod;
        let reduce = method == ArrayMethod::Reduce;
        let max_args = if reduce { 2 } else { 1 };
        if c.arguments.is_empty() || c.arguments.len() > max_args {
            return None;
        }
        let Some(Expression::ArrowFunctionExpression(f)) = c.arguments[0].as_expression().map(strip) else {
            return None;
        };
        let width: u32 = if reduce { 3 } else { 2 };
        if f.r#async
            || f.params.rest.is_some()
            || f.params.items.len() > width as usize
            || !f.params.items.iter().all(|p| matches!(p.pattern, BindingPattern::BindingIdentifier(_)))
        {
            return None;
        }
        let receiver = self.fexpr(&m.object);
        let init = c.arguments.get(1).map(|a| self.farg(a));
        let slot = self.scopes.slots;
        self.scopes.slots += width;
        let body = self.scoped(|cx| {
            for (i, p) in f.params.items.iter().enumerate() {
                if let BindingPattern::BindingIdentifier(id) = &p.pattern {
                    cx.bind(id.name.as_str(), Fv::Lowered(Expr::Local(slot + i as u32)));
                }
            }
            cx.body(FnBody::Arrow(&f.body))
        });
        self.scopes.slots = slot;
        let array = self.lower(receiver);
        let init = match init {
            Some(fv) => self.lower(fv).map(Some),
            None => Some(None),
        };
        let body = body.and_then(|b| self.lower(b));
        match (array, init, body) {
            (Some(array), Some(init), Some(body)) => {
                Some(Fv::Lowered(Expr::Callback(Box::new(ir::expr::Callback { method, array, slot, body, init }))))
            }
            _ => {
                self.facts.complete = false;
                Some(Fv::Opaque)
            }
        }
    }

    fn fstmt(&mut self, st: &'a Statement<'a>) {
        if self.depth >= MAX_DEPTH {
            self.facts.complete = false;
            return;
        }
        self.depth += 1;
        match st {
            Statement::ExpressionStatement(x) => {
                self.fexpr(&x.expression);
            }
            Statement::IfStatement(x) => {
                self.fexpr(&x.test);
                self.scoped(|cx| cx.fstmt(&x.consequent));
                if let Some(a) = &x.alternate {
                    self.scoped(|cx| cx.fstmt(a));
                }
            }
            Statement::BlockStatement(b) => {
                self.scoped(|cx| {
                    cx.block(&b.body);
                });
            }
            Statement::ReturnStatement(r) => {
                if let Some(a) = &r.argument {
                    self.fexpr(a);
                }
            }
            Statement::VariableDeclaration(_) => {
                if let Statement::VariableDeclaration(v) = st {
                    for d in &v.declarations {
                        let fv = match (&d.init, v.kind) {
                            (Some(init), VariableDeclarationKind::Const) => self.fexpr(init),
                            (Some(init), _) => {
                                self.fexpr(init);
                                self.facts.complete = false;
                                Fv::Opaque
                            }
                            (None, _) => Fv::Opaque,
                        };
                        self.bind_pattern(&d.id, fv, false);
                    }
                }
            }
            Statement::EmptyStatement(_) => {}
            Statement::FunctionDeclaration(_) => self.facts.complete = false,
            _ => self.facts.complete = false,
        }
        self.depth -= 1;
    }

    fn scoped<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        self.scopes.starts.push(self.scopes.locals.len());
        let r = f(self);
        if let Some(start) = self.scopes.starts.pop() {
            self.scopes.locals.truncate(start);
        }
        r
    }

    /// The innermost binding of `name` the function sees (a later one in the same scope
    /// replaces an earlier one, as a map's insert would).
    pub(super) fn local(&self, name: &str) -> Option<&Fv<'a, 'v>> {
        let s = &self.scopes;
        s.locals[s.base..].iter().rev().find(|(n, _)| *n == name).map(|(_, fv)| fv)
    }

    fn bind(&mut self, name: &'a str, fv: Fv<'a, 'v>) {
        self.scopes.locals.push((name, fv));
    }

    /// Binds a pattern to what the analysis knows of its value. `first` marks the first
    /// parameter, whose destructured keys are the xstate mapper's arguments.
    fn bind_pattern(&mut self, p: &'a BindingPattern<'a>, fv: Fv<'a, 'v>, first: bool) {
        match p {
            BindingPattern::BindingIdentifier(id) => self.bind(id.name.as_str(), fv),
            BindingPattern::AssignmentPattern(a) => {
                self.fexpr(&a.right);
                self.bind_pattern(&a.left, fv, first);
            }
            BindingPattern::ObjectPattern(o) => {
                for prop in &o.properties {
                    let key = pattern_key(prop);
                    let sub = match (key, &fv) {
                        // The mapper's arguments (`({ context, event })`, nearly every function):
                        // each key is a root, read without a copy of `fv` (what `fmember` would
                        // make of it, as it records nothing for `Args`).
                        (Some(k), Fv::Args) => match Root::parse(k) {
                            Some(root) => Fv::Ref(root, RefPath::new()),
                            // A `fromPick` fill's `{ params }`: the pick's params, which are
                            // the event's, as `paramsOf` reads them.
                            None if first && k == "params" => Fv::Ref(Root::Event, RefPath::new()),
                            None => Fv::Opaque,
                        },
                        (Some(k), _) => self.fmember(fv.clone(), k),
                        (None, _) => Fv::Opaque,
                    };
                    self.bind_pattern(&prop.value, sub, false);
                }
                if let Some(rest) = &o.rest {
                    if matches!(fv, Fv::Pick(..)) {
                        self.facts.complete = false;
                    }
                    self.bind_pattern(&rest.argument, Fv::Opaque, false);
                }
            }
            BindingPattern::ArrayPattern(a) => {
                for el in a.elements.iter().flatten() {
                    self.bind_pattern(el, Fv::Opaque, false);
                }
                if let Some(rest) = &a.rest {
                    self.bind_pattern(&rest.argument, Fv::Opaque, false);
                }
            }
        }
    }

    /// `fv.key`, recording what it reads.
    fn fmember(&mut self, fv: Fv<'a, 'v>, key: &str) -> Fv<'a, 'v> {
        match fv {
            Fv::Args => match Root::parse(key) {
                Some(root) => Fv::Ref(root, RefPath::new()),
                None => Fv::Opaque,
            },
            Fv::Ref(root, mut path) => {
                if root == Root::Context && path.is_empty() {
                    push_unique(&mut self.facts.context_keys, key);
                }
                path.push(key.into());
                Fv::Ref(root, path)
            }
            Fv::Pick(name, _) => {
                let params = &self.facts.pick_params;
                if params.len() >= SCANNED_FACTS || !params.iter().any(|(n, k)| *n == name && k == key) {
                    self.facts.pick_params.push((name, key.into()));
                }
                Fv::Ref(Root::Event, smallvec::smallvec![key.into()])
            }
            Fv::Lowered(Expr::Object(props)) => {
                props.into_iter().rev().find(|(k, _)| k == key).map_or(Fv::Opaque, |(_, e)| Fv::Lowered(e))
            }
            // A member of any other value (`_event.data`, `(a ?? b).c`, `` `${x}`.length ``):
            // read as `ir::eval` reads a member, leniently.
            Fv::Lowered(e) => Fv::Lowered(member(e, Expr::Literal(ir::Json::String(key.into())))),
            Fv::Val(v) => match &v.kind {
                ValueKind::Object { .. } => v.get(key).cloned().map_or(Fv::Opaque, Fv::Val),
                ValueKind::String { .. } | ValueKind::Array { .. } => match self.lower(Fv::Val(v)) {
                    Some(e) => Fv::Lowered(member(e, Expr::Literal(ir::Json::String(key.into())))),
                    None => Fv::Opaque,
                },
                _ => Fv::Opaque,
            },
            _ => Fv::Opaque,
        }
    }

    /// The commonest expression of a function, a chain of names on a local reference
    /// (`context.ticket`, `event.output.id`), read at once: the reference's path is built once,
    /// with no `Fv` per link and no descent through [`Cx::fexpr`]. The same as that descent
    /// (which [`Cx::fmember`] ends): `None` for any other shape, a chain of more than four names,
    /// or one that would reach [`MAX_DEPTH`].
    fn member_chain(&mut self, m: &'a StaticMemberExpression<'a>) -> Option<Fv<'a, 'v>> {
        let mut keys = [""; 4];
        let mut n = 0;
        let mut link = m;
        let base = loop {
            *keys.get_mut(n)? = link.property.name.as_str();
            n += 1;
            match strip(&link.object) {
                Expression::StaticMemberExpression(inner) => link = inner,
                Expression::Identifier(id) => break id.name.as_str(),
                _ => return None,
            }
        };
        // The descent would check the depth once per link below this one and at the name.
        if self.depth + n > MAX_DEPTH {
            return None;
        }
        let Some(Fv::Ref(root, path)) = self.local(base) else { return None };
        let root = *root;
        // Sized once: a path longer than two keys is one heap block, not grown into one.
        let mut path = if path.is_empty() && n <= 2 {
            RefPath::new()
        } else {
            let mut p = RefPath::with_capacity(path.len() + n);
            p.extend(path.iter().cloned());
            p
        };
        for key in keys[..n].iter().rev() {
            if root == Root::Context && path.is_empty() {
                push_unique(&mut self.facts.context_keys, key);
            }
            path.push((*key).into());
        }
        Some(Fv::Ref(root, path))
    }

    /// A function body's expression: its facts are recorded, and what is known of its value
    /// returned.
    #[inline]
    fn fexpr(&mut self, e: &'a Expression<'a>) -> Fv<'a, 'v> {
        if self.depth >= MAX_DEPTH {
            self.facts.complete = false;
            return Fv::Opaque;
        }
        self.depth += 1;
        let v = self.fexpr_inner(e);
        self.depth -= 1;
        v
    }

    fn fexpr_inner(&mut self, e: &'a Expression<'a>) -> Fv<'a, 'v> {
        let e = strip(e);
        match e {
            Expression::BooleanLiteral(b) => Fv::Val(self.val(ValueKind::Bool { value: b.value }, b.span)),
            Expression::NullLiteral(x) => Fv::Val(self.val(ValueKind::Null, x.span)),
            Expression::NumericLiteral(n) => Fv::Val(self.val(ValueKind::Number { value: n.value }, n.span)),
            Expression::StringLiteral(x) => {
                Fv::Val(self.val(ValueKind::String { value: self.arena.str(x.value.as_str()) }, x.span))
            }
            Expression::Identifier(i) => self.fident(i.name.as_str(), i.span),
            Expression::TemplateLiteral(t) => self.ftemplate(t),
            Expression::ObjectExpression(o) => self.fobject(o),
            Expression::ArrayExpression(a) => self.farray(a),
            Expression::StaticMemberExpression(m) => {
                if let Some(fv) = self.member_chain(m) {
                    return fv;
                }
                let o = self.fexpr(&m.object);
                self.fmember(o, m.property.name.as_str())
            }
            Expression::ComputedMemberExpression(m) => {
                let o = self.fexpr(&m.object);
                match strip(&m.expression) {
                    Expression::StringLiteral(k) => self.fmember(o, k.value.as_str()),
                    Expression::NumericLiteral(n) => self.fmember(o, &js_number(n.value)),
                    other => {
                        let k = self.fexpr(other);
                        if matches!(o, Fv::Pick(..) | Fv::Args)
                            || matches!(o, Fv::Ref(Root::Context, ref p) if p.is_empty())
                        {
                            self.facts.complete = false;
                        }
                        // `a[i]`: the member whose key the run computes.
                        match (self.lower(o), self.lower(k)) {
                            (Some(o), Some(k)) => Fv::Lowered(member(o, k)),
                            _ => Fv::Opaque,
                        }
                    }
                }
            }
            Expression::ChainExpression(c) => match &c.expression {
                ChainElement::CallExpression(call) => self.fcall(call),
                ChainElement::TSNonNullExpression(x) => self.fexpr(&x.expression),
                ChainElement::StaticMemberExpression(m) => {
                    let o = self.fexpr(&m.object);
                    self.fmember(o, m.property.name.as_str())
                }
                ChainElement::ComputedMemberExpression(m) => {
                    let (o, k) = (self.fexpr(&m.object), self.fexpr(&m.expression));
                    match (self.lower(o), self.lower(k)) {
                        (Some(o), Some(k)) => Fv::Lowered(member(o, k)),
                        _ => Fv::Opaque,
                    }
                }
                ChainElement::PrivateFieldExpression(_) => Fv::Opaque,
            },
            Expression::CallExpression(c) => self.fcall(c),
            Expression::ArrowFunctionExpression(f) => {
                // A function inside a function: what it reads counts for the outer one (its
                // parameters shadow).
                self.scoped(|cx| {
                    for p in &f.params.items {
                        cx.bind_pattern(&p.pattern, Fv::Opaque, false);
                    }
                    match &f.body {
                        ArrowFunctionBody::FunctionBody(b) => {
                            cx.block(&b.statements);
                        }
                        other => {
                            if let Some(x) = other.as_expression() {
                                cx.fexpr(x);
                            }
                        }
                    }
                });
                Fv::Opaque
            }
            Expression::FunctionExpression(f) => {
                self.scoped(|cx| {
                    for p in &f.params.items {
                        cx.bind_pattern(&p.pattern, Fv::Opaque, false);
                    }
                    if let Some(b) = &f.body {
                        cx.block(&b.statements);
                    }
                });
                Fv::Opaque
            }
            Expression::UnaryExpression(u) => {
                let arg = self.fexpr(&u.argument);
                let op = match u.operator {
                    UnaryOperator::LogicalNot => Some(UnaryOp::Not),
                    UnaryOperator::Typeof => Some(UnaryOp::Typeof),
                    UnaryOperator::UnaryNegation => Some(UnaryOp::Neg),
                    UnaryOperator::UnaryPlus => Some(UnaryOp::Plus),
                    // `void`, `delete`, `~`: not lowered.
                    _ => None,
                };
                match (op, self.lower(arg)) {
                    // `-3` is the literal -3 (`-0` stays an operator: JSON has no -0).
                    (Some(UnaryOp::Neg), Some(Expr::Literal(ir::Json::Number(x))))
                        if x.as_f64().is_some_and(|f| f != 0.0) =>
                    {
                        let f = -x.as_f64().unwrap_or_default();
                        Fv::Val(self.val(ValueKind::Number { value: f }, u.span))
                    }
                    (Some(op), Some(arg)) => Fv::Lowered(Expr::Unary { op, arg: Box::new(arg) }),
                    _ => Fv::Opaque,
                }
            }
            Expression::BinaryExpression(b) => {
                let (left, right) = (self.fexpr(&b.left), self.fexpr(&b.right));
                let op = match b.operator {
                    BinaryOperator::StrictEquality => Some(BinaryOp::StrictEq),
                    BinaryOperator::StrictInequality => Some(BinaryOp::StrictNe),
                    BinaryOperator::Equality => Some(BinaryOp::LooseEq),
                    BinaryOperator::Inequality => Some(BinaryOp::LooseNe),
                    BinaryOperator::LessThan => Some(BinaryOp::Lt),
                    BinaryOperator::LessEqualThan => Some(BinaryOp::Le),
                    BinaryOperator::GreaterThan => Some(BinaryOp::Gt),
                    BinaryOperator::GreaterEqualThan => Some(BinaryOp::Ge),
                    BinaryOperator::Addition => Some(BinaryOp::Add),
                    BinaryOperator::Subtraction => Some(BinaryOp::Sub),
                    BinaryOperator::Multiplication => Some(BinaryOp::Mul),
                    BinaryOperator::Division => Some(BinaryOp::Div),
                    BinaryOperator::Remainder => Some(BinaryOp::Rem),
                    BinaryOperator::Exponential => Some(BinaryOp::Exp),
                    BinaryOperator::BitwiseAnd => Some(BinaryOp::BitAnd),
                    BinaryOperator::BitwiseOR => Some(BinaryOp::BitOr),
                    BinaryOperator::BitwiseXOR => Some(BinaryOp::BitXor),
                    BinaryOperator::ShiftLeft => Some(BinaryOp::Shl),
                    BinaryOperator::ShiftRight => Some(BinaryOp::Shr),
                    BinaryOperator::ShiftRightZeroFill => Some(BinaryOp::UShr),
                    BinaryOperator::In => Some(BinaryOp::In),
                    // `instanceof`: not lowered.
                    _ => None,
                };
                match (op, self.lower(left), self.lower(right)) {
                    (Some(op), Some(l), Some(r)) => {
                        Fv::Lowered(Expr::Binary { op, left: Box::new(l), right: Box::new(r) })
                    }
                    _ => Fv::Opaque,
                }
            }
            Expression::LogicalExpression(b) => {
                let (left, right) = (self.fexpr(&b.left), self.fexpr(&b.right));
                let op = match b.operator {
                    LogicalOperator::And => LogicalOp::And,
                    LogicalOperator::Or => LogicalOp::Or,
                    LogicalOperator::Coalesce => LogicalOp::Coalesce,
                };
                match (self.lower(left), self.lower(right)) {
                    (Some(l), Some(r)) => Fv::Lowered(Expr::Logical { op, left: Box::new(l), right: Box::new(r) }),
                    _ => Fv::Opaque,
                }
            }
            Expression::ConditionalExpression(c) => {
                let test = self.fexpr(&c.test);
                let (yes, no) = (self.fexpr(&c.consequent), self.fexpr(&c.alternate));
                match (self.lower(test), self.lower(yes), self.lower(no)) {
                    (Some(test), Some(yes), Some(no)) => Fv::Lowered(Expr::Conditional {
                        test: Box::new(test),
                        consequent: Box::new(yes),
                        alternate: Box::new(no),
                    }),
                    _ => Fv::Opaque,
                }
            }
            Expression::SequenceExpression(x) => {
                let mut last = Fv::Opaque;
                for e in &x.expressions {
                    last = self.fexpr(e);
                }
                last
            }
            Expression::AwaitExpression(x) => {
                self.fexpr(&x.argument);
                self.facts.complete = false;
                Fv::Opaque
            }
            _ => {
                // Assignments, updates, `new`, `this`, classes, tagged templates, yields...
                self.facts.complete = false;
                Fv::Opaque
            }
        }
    }

    /// A template literal: its parts lowered, neighbouring texts merged; a string where it is
    /// all text. (The forms of a body have functions of their own where they need many locals,
    /// so that [`Cx::fexpr_inner`], which every expression recurses through, keeps a small frame.)
    fn ftemplate(&mut self, t: &'a TemplateLiteral<'a>) -> Fv<'a, 'v> {
        // The parts, neighbouring texts merged as they come: at most one per text and one
        // per expression (unless an inlined helper's template splices in more), so the
        // list is allocated once, at that size.
        let mut parts: Vec<TemplatePart> = Vec::with_capacity(t.quasis.len() + t.expressions.len());
        let mut ok = true;
        for (i, q) in t.quasis.iter().enumerate() {
            let text = q.value.cooked.as_ref().map_or(q.value.raw.as_str(), |c| c.as_str());
            if !text.is_empty() {
                push_text(&mut parts, text);
            }
            if let Some(x) = t.expressions.get(i) {
                let fv = self.fexpr(x);
                match self.lower(fv) {
                    Some(Expr::Ref(r)) => parts.push(TemplatePart::Ref(r)),
                    Some(Expr::Template(more)) => {
                        for p in more {
                            match p {
                                TemplatePart::Text(t) => push_text(&mut parts, &t),
                                p => parts.push(p),
                            }
                        }
                    }
                    // A literal is stringified now, as JavaScript would (`${1.0}` is "1").
                    Some(Expr::Literal(ir::Json::String(l))) => push_text(&mut parts, &l),
                    Some(Expr::Literal(l)) => push_text(&mut parts, &JsValue::from_literal(&l).to_js_string()),
                    Some(Expr::Undefined) => push_text(&mut parts, "undefined"),
                    Some(other) => parts.push(TemplatePart::Expr(other)),
                    None => ok = false,
                }
            }
        }
        if !ok {
            return Fv::Opaque;
        }
        match parts.as_mut_slice() {
            [] => Fv::Val(self.val(ValueKind::String { value: "" }, t.span)),
            [TemplatePart::Text(x)] => Fv::Val(self.val(ValueKind::String { value: self.arena.str(x) }, t.span)),
            _ => Fv::Lowered(Expr::Template(parts)),
        }
    }

    /// An object literal, as a lowered object where every field lowers: an [`Expr::Object`] where
    /// every key is known (a spread of a known object gives its fields), else an
    /// [`Expr::ObjectSpread`] of its parts (a spread of a value of the run, a computed key).
    fn fobject(&mut self, o: &'a ObjectExpression<'a>) -> Fv<'a, 'v> {
        // One field per property (a spread may add more). A later key replaces an earlier one's
        // value where that one stands (JavaScript's order). Keys are pushed as they come,
        // through the evaluator's [`KeyFilter`]: only an object where two keys may be the same
        // is deduplicated, at the end ([`keep_first_place`]), so that a large object stays
        // linear. The first part whose keys only the run knows makes the whole a list of parts.
        let mut props: Vec<(Name, Expr)> = Vec::with_capacity(o.properties.len());
        let mut parts: Option<Vec<ObjectPart>> = None;
        let mut keys = KeyFilter::default();
        let mut put = |props: &mut Vec<(Name, Expr)>, parts: &mut Option<Vec<ObjectPart>>, k: Name, v: Expr| match parts
        {
            Some(parts) => parts.push(ObjectPart::Field { key: k, value: v }),
            None => {
                keys.add(&k);
                props.push((k, v));
            }
        };
        // Moves the fields so far into a list of parts, where the object has a part the run builds.
        let to_parts = |props: &mut Vec<(Name, Expr)>, parts: &mut Option<Vec<ObjectPart>>| {
            parts.get_or_insert_with(|| props.drain(..).map(|(key, value)| ObjectPart::Field { key, value }).collect());
        };
        let mut ok = true;
        for p in &o.properties {
            match p {
                ObjectPropertyKind::SpreadProperty(sp) => {
                    let fv = self.fexpr(&sp.argument);
                    // A whole pick's params spread: which ones are read is not seen.
                    if matches!(fv, Fv::Pick(..)) {
                        self.facts.complete = false;
                    }
                    match self.lower(fv) {
                        Some(Expr::Object(more)) => {
                            for (k, v) in more {
                                put(&mut props, &mut parts, k, v);
                            }
                        }
                        Some(Expr::Literal(ir::Json::Object(m))) => {
                            for (k, v) in m {
                                put(&mut props, &mut parts, k, Expr::Literal(v));
                            }
                        }
                        // `...null`, `...undefined`: nothing.
                        Some(Expr::Literal(ir::Json::Null) | Expr::Undefined) => {}
                        Some(e) => {
                            to_parts(&mut props, &mut parts);
                            if let Some(parts) = &mut parts {
                                parts.push(ObjectPart::Spread(e));
                            }
                        }
                        None => ok = false,
                    }
                }
                ObjectPropertyKind::ObjectProperty(p) => {
                    // A key, or `[key]`'s expression (evaluated before the value, as here).
                    let key = match &p.key {
                        PropertyKey::StaticIdentifier(i) if !p.computed => Ok(Name::from(i.name.as_str())),
                        PropertyKey::StringLiteral(x) => Ok(Name::from(x.value.as_str())),
                        PropertyKey::NumericLiteral(n) => Ok(Name::from(js_number(n.value))),
                        other => match other.as_expression() {
                            Some(x) => {
                                let fv = self.fexpr(x);
                                match self.lower(fv) {
                                    // A key known now (`["a"]`, `[1]`, a module's constant): a field.
                                    Some(Expr::Literal(ir::Json::String(k))) => Ok(k),
                                    Some(Expr::Literal(
                                        l @ (ir::Json::Number(_) | ir::Json::Bool(_) | ir::Json::Null),
                                    )) => Ok(Name::from(JsValue::from_literal(&l).to_js_string())),
                                    Some(e) => Err(Some(e)),
                                    None => Err(None),
                                }
                            }
                            None => Err(None),
                        },
                    };
                    let fv = self.fexpr(&p.value);
                    let pick = matches!(fv, Fv::Pick(..));
                    match (key, self.lower(fv)) {
                        (Ok(k), Some(v)) if p.kind == PropertyKind::Init => put(&mut props, &mut parts, k, v),
                        (Err(Some(k)), Some(v)) if p.kind == PropertyKind::Init => {
                            to_parts(&mut props, &mut parts);
                            if let Some(parts) = &mut parts {
                                parts.push(ObjectPart::Computed { key: k, value: v });
                            }
                        }
                        _ => {
                            if pick {
                                self.facts.complete = false;
                            }
                            ok = false;
                        }
                    }
                }
            }
        }
        if !ok {
            return Fv::Opaque;
        }
        match parts {
            Some(parts) => Fv::Lowered(Expr::ObjectSpread(parts)),
            None => {
                if keys.may_repeat() {
                    keep_first_place(&mut props);
                }
                Fv::Lowered(simplify(Expr::Object(props)))
            }
        }
    }

    /// An array literal, as a lowered array where every item lowers: an [`Expr::Array`], or an
    /// [`Expr::ArraySpread`] where it spreads a value of the run (a spread of a known array gives
    /// its items).
    fn farray(&mut self, a: &'a ArrayExpression<'a>) -> Fv<'a, 'v> {
        let mut items = Vec::new();
        let mut parts: Option<Vec<ArrayPart>> = None;
        let mut ok = true;
        for el in &a.elements {
            let (fv, spread) = match el {
                ArrayExpressionElement::SpreadElement(sp) => (self.fexpr(&sp.argument), true),
                other => match other.as_expression() {
                    Some(x) => (self.fexpr(x), false),
                    // A hole (`[1, , 2]`): not lowered.
                    None => {
                        ok = false;
                        continue;
                    }
                },
            };
            if matches!(fv, Fv::Pick(..)) {
                self.facts.complete = false;
            }
            let Some(v) = self.lower(fv) else {
                ok = false;
                continue;
            };
            let known: Option<Vec<Expr>> = match (spread, v) {
                (false, v) => Some(vec![v]),
                (true, Expr::Array(more)) => Some(more),
                (true, Expr::Literal(ir::Json::Array(more))) => Some(more.into_iter().map(Expr::Literal).collect()),
                (true, v) => {
                    let parts = parts.get_or_insert_with(|| items.drain(..).map(ArrayPart::Item).collect());
                    parts.push(ArrayPart::Spread(v));
                    None
                }
            };
            if let Some(known) = known {
                match &mut parts {
                    Some(parts) => parts.extend(known.into_iter().map(ArrayPart::Item)),
                    None => items.extend(known),
                }
            }
        }
        match (ok, parts) {
            (false, _) => Fv::Opaque,
            (true, Some(parts)) => Fv::Lowered(Expr::ArraySpread(parts)),
            (true, None) => Fv::Lowered(simplify(Expr::Array(items))),
        }
    }

    fn fident(&mut self, name: &'a str, at: oxc_span::Span) -> Fv<'a, 'v> {
        if let Some(fv) = self.local(name) {
            return match fv {
                // Most locals are a mapper's argument (`context`, `event`): made anew, cheaper
                // than the generic clone of a path.
                Fv::Ref(root, path) if path.is_empty() => Fv::Ref(*root, RefPath::new()),
                fv => fv.clone(),
            };
        }
        match self.bindings.get(name) {
            Some(Binding::NotStatic { .. } | Binding::Package { .. } | Binding::Opaque { .. }) => {
                // Code reading a changing or foreign value: not a static fault, but unseen.
                self.facts.complete = false;
                Fv::Opaque
            }
            Some(Binding::Const { init, path })
                if path.is_empty()
                    && matches!(
                        strip(init),
                        Expression::ArrowFunctionExpression(_) | Expression::FunctionExpression(_)
                    ) =>
            {
                Fv::Helper(init)
            }
            Some(_) => Fv::Val(self.ident(name, at)),
            None => match name {
                "undefined" => Fv::Val(self.val(ValueKind::Undefined, at)),
                _ => {
                    // A standalone expression's free name: what its [`Names`] say it is.
                    if let Some(e) = self.names.and_then(|names| names.name(name)) {
                        return fv_of(e);
                    }
                    // A global (`Math`, `JSON`, ...): its meaning is not modelled.
                    self.facts.complete = false;
                    Fv::Opaque
                }
            },
        }
    }

    /// The helper a called name (no local) is bound to, if it is one; what else it reads is
    /// recorded as [`Cx::fident`] records it.
    fn fhelper(&mut self, name: &'a str, at: oxc_span::Span) -> Option<&'a Expression<'a>> {
        match self.fident(name, at) {
            Fv::Helper(h) => Some(h),
            _ => None,
        }
    }

    /// A call's argument (a spread is read for its facts, and not followed).
    fn farg(&mut self, a: &'a Argument<'a>) -> Fv<'a, 'v> {
        match a.as_expression() {
            Some(x) => self.fexpr(x),
            None => {
                if let Argument::SpreadElement(sp) = a {
                    self.fexpr(&sp.argument);
                }
                self.facts.complete = false;
                Fv::Opaque
            }
        }
    }

    fn fcall(&mut self, c: &'a CallExpression<'a>) -> Fv<'a, 'v> {
        let callee = strip(&c.callee);
        if let Some(names) = self.names {
            if let Some((root, path)) = free_callee(callee) {
                if self.local(root).is_none() && !self.bindings.contains_key(root) {
                    return self.free_call(names, &path, c);
                }
            }
        }
        // The kit, xstate and zod: known meaning; or a helper of the author's. A called name is
        // looked up once, among the locals and then the module's bindings.
        // `known` is `Some` for a callee of known meaning, with the kit export's name if it is
        // one of the kit's (no `Callee` is made: only a kit call is read further).
        let (known, helper) = match callee {
            Expression::Identifier(i) => {
                let name = i.name.as_str();
                match self.local(name) {
                    Some(Fv::Helper(h)) => (None, Some(*h)),
                    Some(_) => (None, None),
                    None => match self.bindings.get(name) {
                        Some(Binding::Known { module, name: Some(n) }) => {
                            (Some((*module == KnownModule::Kit).then_some(KitName::Source(n))), None)
                        }
                        Some(Binding::Import { .. }) => match self.ident(name, i.span).kind {
                            ValueKind::Imported { callee: Callee::Kit(n) } => {
                                (Some(Some(KitName::Owned(Name::from(n)))), None)
                            }
                            ValueKind::Imported { .. } => (Some(None), None),
                            _ => (None, self.fhelper(name, i.span)),
                        },
                        _ => (None, self.fhelper(name, i.span)),
                    },
                }
            }
            Expression::StaticMemberExpression(m) => match self.known_of(&m.object) {
                Some((module, None)) => {
                    (Some((module == KnownModule::Kit).then_some(KitName::Source(m.property.name.as_str()))), None)
                }
                _ => (None, None),
            },
            _ => (None, None),
        };
        if let Some(kit) = known {
            // Only the first two arguments are kept (the predicates' value, `paramsOf`'s event
            // and def), not a `Vec` of them all.
            let (mut first, mut second) = (None, None);
            let mut passes_pick = false;
            for (i, a) in c.arguments.iter().enumerate() {
                let fv = self.farg(a);
                passes_pick |= matches!(fv, Fv::Pick(..));
                match i {
                    0 => first = Some(fv),
                    1 => second = Some(fv),
                    _ => {}
                }
            }
            let kit = kit.as_ref().map(KitName::as_str);
            // `isFailure(x)`, `isReady(x)`: the kit's predicates, which the run evaluates.
            let predicate = match kit {
                Some("isFailure") => Some(ir::Builtin::IsFailure),
                Some("isReady") => Some(ir::Builtin::IsReady),
                _ => None,
            };
            if let Some(func) = predicate {
                if passes_pick {
                    self.facts.complete = false;
                }
                return match first.and_then(|fv| self.lower(fv)) {
                    Some(arg) if c.arguments.len() == 1 => Fv::Lowered(Expr::Call { func, args: vec![arg] }),
                    _ => Fv::Opaque,
                };
            }
            if let Some(n) = kit {
                // A Part built in a function's body (`spawn(agent({...}))`): `inline-parts` says so.
                // `open` alone is the sentinel; `open({...})` is an Open body.
                let part = matches!(
                    n,
                    "agent" | "command" | "worktree" | "http" | "push" | "dispatch" | "mcp" | "gate" | "fail"
                ) || (n == "open" && !c.arguments.is_empty());
                if part {
                    self.facts.parts.push((n.into(), Span::new(c.span.start, c.span.end)));
                }
            }
            if kit == Some("paramsOf") {
                return match second {
                    Some(Fv::Val(def)) => match def.as_call() {
                        Some(call) if call.callee == Callee::Kit("defineEvent") => {
                            match call.args.first().and_then(|a| a.get("name")).and_then(Value::as_str) {
                                Some(n) => {
                                    let event = first.and_then(|fv| self.lower(fv)).map(Box::new);
                                    Fv::Pick(n.into(), event)
                                }
                                None => {
                                    self.facts.complete = false;
                                    Fv::Opaque
                                }
                            }
                        }
                        _ => {
                            self.facts.complete = false;
                            Fv::Opaque
                        }
                    },
                    _ => {
                        self.facts.complete = false;
                        Fv::Opaque
                    }
                };
            }
            // A whole pick's params passed on: which ones are read is not seen.
            if passes_pick {
                self.facts.complete = false;
            }
            return Fv::Opaque;
        }
        // A helper of the author's: inlined when trivial.
        if let Some(h) = helper {
            let args_start = self.scopes.args.len();
            for a in &c.arguments {
                let fv = self.farg(a);
                self.scopes.args.push(fv);
            }
            let inlined = self.inline_helper(h, args_start);
            self.scopes.args.truncate(args_start);
            if let Some(fv) = inlined {
                return fv;
            }
            self.facts.complete = false;
            return Fv::Opaque;
        }
        // The string and array methods the run has (`s.startsWith(x)`, `list.includes(x)`,
        // `list.join(", ")`, `a.concat(b, ...)`), over the lowered receiver and arguments, and
        // `Math.max`/`Math.min` where `Math` is the global. Not an optional call
        // (`a?.includes(x)`: `undefined` of a missing receiver, where the builtin would be an
        // error), but for `concat`, which lowered so before the others came.
        if let Expression::StaticMemberExpression(m) = callee {
            let name = m.property.name.as_str();
            let math = matches!(strip(&m.object), Expression::Identifier(i) if i.name == "Math")
                && self.local("Math").is_none()
                && !self.bindings.contains_key("Math");
            let optional = m.optional || c.optional;
            let method = match name {
                "map" => Some(ir::expr::ArrayMethod::Map),
                "filter" => Some(ir::expr::ArrayMethod::Filter),
                "find" => Some(ir::expr::ArrayMethod::Find),
                "findIndex" => Some(ir::expr::ArrayMethod::FindIndex),
                "some" => Some(ir::expr::ArrayMethod::Some),
                "every" => Some(ir::expr::ArrayMethod::Every),
                "reduce" => Some(ir::expr::ArrayMethod::Reduce),
                _ => None,
            };
            if let Some(method) = method.filter(|_| !math && !optional) {
                if let Some(fv) = self.fcallback(method, m, c) {
                    return fv;
                }
            }
            let func = match name {
                "max" if math => Some(ir::Builtin::MathMax),
                "random" if math && c.arguments.is_empty() => Some(ir::Builtin::MathRandom),
                "trim" if !math && c.arguments.is_empty() => Some(ir::Builtin::Trim),
                "substring" if !math => Some(ir::Builtin::Substring),
                "slice" if !math => Some(ir::Builtin::Slice),
                "toString" if !math => Some(ir::Builtin::ToString),
                "min" if math => Some(ir::Builtin::MathMin),
                "startsWith" if !math => Some(ir::Builtin::StartsWith),
                "endsWith" if !math => Some(ir::Builtin::EndsWith),
                "includes" if !math => Some(ir::Builtin::Includes),
                "join" if !math => Some(ir::Builtin::Join),
                "concat" if !math => Some(ir::Builtin::Concat),
                _ => None,
            };
            if let Some(func) = func.filter(|&f| f == ir::Builtin::Concat || !optional) {
                let mut args = Vec::with_capacity(c.arguments.len() + 1);
                let mut ok = true;
                if !math {
                    let receiver = self.fexpr(&m.object);
                    ok = self.lower(receiver).map(|r| args.push(r)).is_some();
                }
                for a in &c.arguments {
                    let fv = self.farg(a);
                    if matches!(fv, Fv::Pick(..)) {
                        self.facts.complete = false;
                    }
                    match self.lower(fv) {
                        Some(e) if ok => args.push(e),
                        _ => ok = false,
                    }
                }
                if ok {
                    return Fv::Lowered(Expr::Call { func, args });
                }
                self.facts.complete = false;
                return Fv::Opaque;
            }
        }
        // Anything else: a method, a global, an unknown function.
        match callee {
            Expression::StaticMemberExpression(m) => {
                self.fexpr(&m.object);
            }
            Expression::ComputedMemberExpression(m) => {
                self.fexpr(&m.object);
                self.fexpr(&m.expression);
            }
            other => {
                self.fexpr(other);
            }
        }
        for a in &c.arguments {
            self.farg(a);
        }
        self.facts.complete = false;
        Fv::Opaque
    }

    /// Inlines `(a, b) => expr` (or `{ return expr; }`) with plain-name parameters, called with
    /// the arguments on `self.scopes.args` from `args_start` (which it takes).
    fn inline_helper(&mut self, h: &'a Expression<'a>, args_start: usize) -> Option<Fv<'a, 'v>> {
        if self.inline >= MAX_INLINE {
            return None;
        }
        let (params, body): (&'a FormalParameters<'a>, Option<&'a Expression<'a>>) = match strip(h) {
            Expression::ArrowFunctionExpression(f) => (
                &f.params,
                match &f.body {
                    ArrowFunctionBody::FunctionBody(b) => single_return(&b.statements),
                    other => other.as_expression(),
                },
            ),
            Expression::FunctionExpression(f) => {
                (&f.params, f.body.as_ref().and_then(|b| single_return(&b.statements)))
            }
            _ => return None,
        };
        let body = body?;
        if params.rest.is_some()
            || !params.items.iter().all(|p| matches!(p.pattern, BindingPattern::BindingIdentifier(_)))
        {
            return None;
        }
        // The helper sees module scope and its parameters only.
        let saved_base = self.scopes.enter_function();
        for (i, p) in params.items.iter().enumerate() {
            let arg = self.scopes.args.get_mut(args_start + i);
            let fv = arg.map_or(Fv::Opaque, |a| std::mem::replace(a, Fv::Opaque));
            if let BindingPattern::BindingIdentifier(id) = &p.pattern {
                self.bind(id.name.as_str(), fv);
            }
        }
        self.inline += 1;
        let out = self.fexpr(body);
        self.inline -= 1;
        self.scopes.leave_function(saved_base);
        Some(out)
    }
}

/// The name of a kit export a function calls: borrowed from the source (an import of the kit),
/// or the one an imported value carries.
enum KitName<'a> {
    Source(&'a str),
    Owned(Name),
}

impl KitName<'_> {
    fn as_str(&self) -> &str {
        match self {
            KitName::Source(n) => n,
            KitName::Owned(n) => n,
        }
    }
}

/// A step of a block body before its final `return` ([`Cx::block`]).
enum Step {
    /// A `const` bound once: its slot and its value.
    Let(u32, Expr),
    /// `if (test) { return then; }`.
    Guard(Expr, Expr),
}

/// Is a `const` of this value bound once ([`Expr::Let`]) rather than inlined where it is read?
/// Where reading it twice would not be reading it once: it draws from the run's generator; or
/// it runs a callback (each read would run it again). Other values are inlined, as before these
/// forms were lowered, so that the IR of a function that has none stays as it was.
fn binds_once(e: &Expr) -> bool {
    e.any(&mut |x| matches!(x, Expr::Callback(_) | Expr::Let { .. } | Expr::Call { func: ir::Builtin::MathRandom, .. }))
}

/// Does the statement end in a `return` of a value (`return x;`, or a block whose last statement
/// is one)?
fn returns(st: &Statement<'_>) -> bool {
    match st {
        Statement::ReturnStatement(r) => r.argument.is_some(),
        Statement::BlockStatement(b) => {
            matches!(b.body.last(), Some(Statement::ReturnStatement(r)) if r.argument.is_some())
        }
        _ => false,
    }
}

fn single_return<'a>(stmts: &'a oxc_allocator::Vec<'a, Statement<'a>>) -> Option<&'a Expression<'a>> {
    match stmts.as_slice() {
        [Statement::ReturnStatement(r)] => r.argument.as_ref(),
        _ => None,
    }
}

/// Leaves a lowered object's fields with each key once, as JavaScript builds the object: where
/// the key first stands, with its last value. A scan for a small object (the filter's false
/// alarms: nothing moves, nothing is allocated), a map for a large one, so it stays linear in
/// the keys. (An earlier value that is replaced is not evaluated: a lowered expression has no
/// effect, so only an evaluation error of it is lost.)
fn keep_first_place(props: &mut Vec<(Name, Expr)>) {
    let mut out: Vec<(Name, Expr)> = Vec::with_capacity(props.len());
    if props.len() <= 64 {
        if !props.iter().enumerate().any(|(i, (k, _))| props[i + 1..].iter().any(|(q, _)| q == k)) {
            return;
        }
        for (k, v) in props.drain(..) {
            match out.iter_mut().find(|(q, _)| *q == k) {
                Some(slot) => slot.1 = v,
                None => out.push((k, v)),
            }
        }
    } else {
        let mut at: rustc_hash::FxHashMap<Name, usize> = rustc_hash::FxHashMap::default();
        for (k, v) in props.drain(..) {
            match at.get(&k) {
                Some(&i) => out[i].1 = v,
                None => {
                    at.insert(k.clone(), out.len());
                    out.push((k, v));
                }
            }
        }
    }
    *props = out;
}

/// An object or array of literals as one literal.
fn simplify(e: Expr) -> Expr {
    match e {
        Expr::Object(props) if props.iter().all(|(_, v)| matches!(v, Expr::Literal(_))) => {
            let mut m = ir::JsonMap::with_capacity(props.len());
            for (k, v) in props {
                if let Expr::Literal(v) = v {
                    // A lowered object's keys are unique (a later one replaced an earlier one's value).
                    m.push(k, v);
                }
            }
            Expr::Literal(ir::Json::Object(m))
        }
        Expr::Array(items) if items.iter().all(|v| matches!(v, Expr::Literal(_))) => Expr::Literal(ir::Json::Array(
            items.into_iter().filter_map(|v| if let Expr::Literal(v) = v { Some(v) } else { None }).collect(),
        )),
        e => e,
    }
}

#[derive(Clone, Copy)]
enum FnBody<'a> {
    Arrow(&'a ArrowFunctionBody<'a>),
    Block(&'a FunctionBody<'a>),
}

impl<'v> Cx<'_, '_, '_, 'v> {
    /// [`lower`], with a known value's copy counted against the evaluation's budget
    /// ([`MAX_COPIED`]): a function reading a module's value copies it into its [`Expr`], and a
    /// file whose functions read one large value many times would copy it without end. Past the
    /// budget, the function is not lowered (a `not-static` warning, once).
    fn lower(&mut self, fv: Fv<'_, 'v>) -> Option<Expr> {
        if let Fv::Val(v) = &fv {
            let mut left = MAX_COPIED.saturating_sub(self.g.copied);
            if !copy_cost(v, &mut left) {
                // The value's place where it is in this file (else the file's start).
                let at = if v.loc.file == self.file { v.loc.span } else { Span::default() };
                self.too_big(oxc_span::Span::new(at.start, at.end));
                return None;
            }
            self.g.copied = MAX_COPIED - left;
        }
        lower(fv)
    }
}

/// Takes what lowering `v` copies (its strings' bytes, its lists' items and keys) out of `left`;
/// false, stopping there, where it does not fit.
fn copy_cost(v: &Value<'_>, left: &mut usize) -> bool {
    let mut take = |n: usize| match left.checked_sub(n) {
        Some(rest) => {
            *left = rest;
            true
        }
        None => false,
    };
    match v.kind {
        ValueKind::String { value } => take(value.len()),
        ValueKind::Array { items } => take(items.len()) && items.iter().all(|x| copy_cost(x, left)),
        ValueKind::Object { props } => {
            take(props.iter().map(|p| 1 + p.key.len()).sum()) && props.iter().all(|p| copy_cost(&p.value, left))
        }
        _ => true,
    }
}

/// What is known of a value, as an [`Expr`] the runtime evaluates, or `None`. It takes the value,
/// so that a reference's path or an Expr moves into the result instead of a copy.
#[inline]
fn lower(fv: Fv<'_, '_>) -> Option<Expr> {
    match fv {
        Fv::Ref(root, path) => Some(Expr::Ref(Reference { root, path })),
        // A pick's params as a whole: the run's `paramsOf`, which checks the event's type.
        Fv::Pick(name, Some(event)) => {
            Some(Expr::Call { func: ir::Builtin::ParamsOf, args: vec![*event, Expr::Literal(ir::Json::String(name))] })
        }
        Fv::Lowered(e) => Some(e),
        Fv::Val(v) => match v.kind {
            // JSON has no `undefined`: it is a form of its own (`to_json` would make it `null`).
            ValueKind::Undefined => Some(Expr::Undefined),
            ValueKind::String { value } => Some(Expr::Literal(ir::Json::String(Name::from(value)))),
            _ => v.to_ir_json().map(Expr::Literal),
        },
        _ => None,
    }
}

/// Appends a template's text, merged into the text before it if there is one. (An empty one is
/// kept where no text precedes it, as the parts were before merging: `${a}${''}` is a Ref and an
/// empty text.)
fn push_text(parts: &mut Vec<TemplatePart>, text: &str) {
    match parts.last_mut() {
        Some(TemplatePart::Text(a)) => a.push_str(text),
        _ => parts.push(TemplatePart::Text(text.into())),
    }
}

impl<'a, 'v> Cx<'a, '_, '_, 'v> {
    /// A standalone expression's call of a free function (`In('s1')`, `Math.max(a, b)`): what its
    /// [`Names`] make of it, over its lowered arguments.
    fn free_call(&mut self, names: &'a dyn Names, path: &str, c: &'a CallExpression<'a>) -> Fv<'a, 'v> {
        let mut args = Vec::with_capacity(c.arguments.len());
        let mut ok = true;
        for a in &c.arguments {
            let fv = self.farg(a);
            match self.lower(fv) {
                Some(e) => args.push(e),
                None => ok = false,
            }
        }
        match ok.then(|| names.call(path, args)).flatten() {
            Some(e) => fv_of(e),
            None => Fv::Opaque,
        }
    }

    /// One expression, lowered.
    fn lower_one(&mut self, e: &'a Expression<'a>) -> Option<Expr> {
        let fv = self.fexpr(e);
        self.lower(fv)
    }

    /// An assignment's target as the location it writes (`x` as its [`Names`] say, `x.y`,
    /// `x[i]`).
    fn location(&mut self, t: &'a SimpleAssignmentTarget<'a>) -> Option<Expr> {
        match t {
            SimpleAssignmentTarget::AssignmentTargetIdentifier(id) => self.names?.name(id.name.as_str()),
            SimpleAssignmentTarget::StaticMemberExpression(m) => {
                let o = self.fexpr(&m.object);
                let fv = self.fmember(o, m.property.name.as_str());
                self.lower(fv)
            }
            SimpleAssignmentTarget::ComputedMemberExpression(m) => {
                let o = self.fexpr(&m.object);
                let fv = match strip(&m.expression) {
                    Expression::StringLiteral(k) => self.fmember(o, k.value.as_str()),
                    Expression::NumericLiteral(n) => self.fmember(o, &js_number(n.value)),
                    other => {
                        let (o, k) = (self.lower(o)?, self.lower_one(other)?);
                        return Some(member(o, k));
                    }
                };
                self.lower(fv)
            }
            _ => None,
        }
    }

    /// A script's expression statement as assignments: `x = e`, `x += e`, `x++`, and sequences
    /// of them.
    fn script_expression(&mut self, e: &'a Expression<'a>, out: &mut Vec<ScriptStep>) -> Result<(), oxc_span::Span> {
        match strip(e) {
            Expression::AssignmentExpression(a) => {
                let target = a.left.as_simple_assignment_target().ok_or(a.span)?;
                let location = self.location(target).ok_or(a.left.span())?;
                let right = self.lower_one(&a.right).ok_or(a.right.span())?;
                let op = match a.operator {
                    AssignmentOperator::Assign => None,
                    AssignmentOperator::Addition => Some(BinaryOp::Add),
                    AssignmentOperator::Subtraction => Some(BinaryOp::Sub),
                    AssignmentOperator::Multiplication => Some(BinaryOp::Mul),
                    AssignmentOperator::Division => Some(BinaryOp::Div),
                    AssignmentOperator::Remainder => Some(BinaryOp::Rem),
                    AssignmentOperator::Exponential => Some(BinaryOp::Exp),
                    AssignmentOperator::BitwiseAnd => Some(BinaryOp::BitAnd),
                    AssignmentOperator::BitwiseOR => Some(BinaryOp::BitOr),
                    AssignmentOperator::BitwiseXOR => Some(BinaryOp::BitXor),
                    AssignmentOperator::ShiftLeft => Some(BinaryOp::Shl),
                    AssignmentOperator::ShiftRight => Some(BinaryOp::Shr),
                    AssignmentOperator::ShiftRightZeroFill => Some(BinaryOp::UShr),
                    _ => return Err(a.span),
                };
                let value = match op {
                    None => right,
                    Some(op) => Expr::Binary { op, left: Box::new(location.clone()), right: Box::new(right) },
                };
                out.push(ScriptStep::Assign { location, value });
            }
            Expression::UpdateExpression(u) => {
                let location = self.location(&u.argument).ok_or(u.span)?;
                let op = if u.operator == UpdateOperator::Increment { BinaryOp::Add } else { BinaryOp::Sub };
                let one = Expr::Literal(ir::Json::Number(serde_json::Number::from(1)));
                let value = Expr::Binary {
                    op,
                    left: Box::new(Expr::Unary { op: UnaryOp::Plus, arg: Box::new(location.clone()) }),
                    right: Box::new(one),
                };
                out.push(ScriptStep::Assign { location, value });
            }
            Expression::SequenceExpression(x) => {
                for e in &x.expressions {
                    self.script_expression(e, out)?;
                }
            }
            other => return Err(other.span()),
        }
        Ok(())
    }
}

/// What a standalone expression's free names mean: an SCXML data model's variables (`x` is
/// `context.x`), the run's globals (`_event`), its functions (`In('s1')`). A name or call it
/// answers `None` for is not lowered.
pub trait Names: Sync {
    /// The value a free name reads.
    fn name(&self, name: &str) -> Option<Expr>;
    /// The value of a call of a free function, by its dotted name (`In`, `Math.max`), over its
    /// lowered arguments.
    fn call(&self, callee: &str, args: Vec<Expr>) -> Option<Expr>;
}

/// One step of a lowered script.
#[derive(Clone, Debug, PartialEq)]
pub enum ScriptStep {
    /// The value at a location (a [`Names::name`], or a member of one).
    Assign { location: Expr, value: Expr },
}

/// Lowers one ECMAScript expression (an SCXML `cond`, `expr` or `location`) into an [`Expr`],
/// by the lowering of a function's pure body, with `names` for its free names. A syntax error is
/// a `ts-syntax` fault, an expression that does not lower a `not-static` one, each at its span in
/// `text`. Runs on the evaluator's stack (no text overflows it).
pub fn lower_expression(text: &str, names: &dyn Names) -> Result<Expr, Box<Fault>> {
    on_evaluator_stack(|| {
        let allocator = Arena::take();
        let e = crate::parse::parse_expression(&allocator, text)?;
        let arena = ValueArena::default();
        let mut g = Graph::new(&Disk, &arena);
        let file = g.add_file(PathBuf::new(), String::new(), None);
        let mut cx = Cx::new(&mut g, file, text);
        cx.names = Some(names);
        cx.lower_one(&e).ok_or_else(|| not_lowered(e.span(), "jr2 does not lower this expression"))
    })
}

/// Lowers an ECMAScript script (an SCXML `<script>`) of assignments (`var x = e`, `x = e`,
/// `x.y += e`, `x++`) into its steps, with `names` for its free names; any other statement is a
/// `not-static` fault at its span.
pub fn lower_script(text: &str, names: &dyn Names) -> Result<Vec<ScriptStep>, Box<Fault>> {
    on_evaluator_stack(|| {
        let allocator = Arena::take();
        let program = crate::parse::parse_script(&allocator, text)?;
        let arena = ValueArena::default();
        let mut g = Graph::new(&Disk, &arena);
        let file = g.add_file(PathBuf::new(), String::new(), None);
        let mut cx = Cx::new(&mut g, file, text);
        cx.names = Some(names);
        let mut out = Vec::new();
        let unsupported = |at: oxc_span::Span| not_lowered(at, "jr2 does not lower this statement of a script");
        for st in &program.body {
            match st {
                Statement::VariableDeclaration(v) => {
                    for d in &v.declarations {
                        let BindingPattern::BindingIdentifier(id) = &d.id else { return Err(unsupported(d.span)) };
                        let Some(init) = &d.init else { continue };
                        let location = names.name(id.name.as_str()).ok_or_else(|| unsupported(d.span))?;
                        let value = cx.lower_one(init).ok_or_else(|| unsupported(init.span()))?;
                        out.push(ScriptStep::Assign { location, value });
                    }
                }
                Statement::ExpressionStatement(x) => {
                    cx.script_expression(&x.expression, &mut out).map_err(unsupported)?
                }
                Statement::EmptyStatement(_) => {}
                other => return Err(unsupported(other.span())),
            }
        }
        Ok(out)
    })
}

/// The names a script declares at its top level (`var x`, `let y`): an SCXML data model's
/// variables too. Nothing for a script that does not parse.
pub fn script_declarations(text: &str) -> Vec<String> {
    on_evaluator_stack(|| {
        let allocator = Arena::take();
        let Ok(program) = crate::parse::parse_script(&allocator, text) else { return Vec::new() };
        let mut out = Vec::new();
        for st in &program.body {
            if let Statement::VariableDeclaration(v) = st {
                for d in &v.declarations {
                    if let BindingPattern::BindingIdentifier(id) = &d.id {
                        out.push(id.name.to_string());
                    }
                }
            }
        }
        out
    })
}

/// The functions a script declares at its top level (`function f() { ... }`), each its name and
/// the byte range of its declaration in `text`: an SCXML document's functions, which its other
/// scripts and expressions call. Nothing for a script that does not parse.
pub fn script_functions(text: &str) -> Vec<(String, std::ops::Range<usize>)> {
    on_evaluator_stack(|| {
        let allocator = Arena::take();
        let Ok(program) = crate::parse::parse_script(&allocator, text) else { return Vec::new() };
        let mut out = Vec::new();
        for st in &program.body {
            if let Statement::FunctionDeclaration(f) = st {
                if let Some(id) = &f.id {
                    out.push((id.name.to_string(), f.span.start as usize..f.span.end as usize));
                }
            }
        }
        out
    })
}

fn not_lowered(at: oxc_span::Span, message: &str) -> Box<Fault> {
    Box::new(Fault::new(FaultKind::NotStatic, Loc { file: FileId(0), span: span(at) }, message))
}

/// A free callee's root name and dotted name: `In`, `Math.max`; `None` for any other callee.
fn free_callee<'a>(callee: &Expression<'a>) -> Option<(&'a str, String)> {
    match callee {
        Expression::Identifier(i) => Some((i.name.as_str(), i.name.to_string())),
        Expression::StaticMemberExpression(m) => {
            let (root, path) = free_callee(strip(&m.object))?;
            Some((root, format!("{path}.{}", m.property.name)))
        }
        _ => None,
    }
}

/// What is known of a value a [`Names`] gave: a reference stays a path (its members extend it).
fn fv_of<'a, 'v>(e: Expr) -> Fv<'a, 'v> {
    match e {
        Expr::Ref(r) => Fv::Ref(r.root, r.path),
        e => Fv::Lowered(e),
    }
}

fn member(object: Expr, property: Expr) -> Expr {
    Expr::Member { object: Box::new(object), property: Box::new(property) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lowering of the function exported as `f`.
    fn lowered(src: &str) -> Expr {
        let ev = evaluate_text(Path::new("/virtual/wf.ts"), src);
        assert!(ev.faults.is_empty(), "{:?}", ev.faults);
        let f = ev.exports.get("f").unwrap().as_function().expect("a function");
        f.lowered.as_deref().expect("lowered").clone()
    }

    fn keys(e: &Expr) -> Vec<&str> {
        match e {
            Expr::Object(fields) => fields.iter().map(|(k, _)| k.as_str()).collect(),
            other => panic!("not an object: {other:?}"),
        }
    }

    /// The kit's predicates and `paramsOf` in a function's body lower to the run's builtins,
    /// which evaluate as the kit defines them: `isReady` of a ready output, `isFailure` of a
    /// Failure, and a pick's whole params (the event's, checked against the pick's name).
    #[test]
    fn the_kits_predicates_and_params_of_lower_to_builtins() {
        let src = r#"import { z } from "zod";
import { defineEvent, isFailure, isReady, paramsOf } from "@jr2/orchestrator";
const go = defineEvent({ name: "go", description: "Go.", input: z.object({}) });
export const f = ({ event }) => [isReady(event.output), isFailure(event.error), paramsOf(event, go)];
"#;
        let e = lowered(src);
        let Expr::Array(items) = &e else { panic!("not an array: {e:?}") };
        let funcs: Vec<_> = items
            .iter()
            .map(|x| match x {
                Expr::Call { func, .. } => *func,
                other => panic!("not a call: {other:?}"),
            })
            .collect();
        assert_eq!(funcs, [ir::Builtin::IsReady, ir::Builtin::IsFailure, ir::Builtin::ParamsOf]);
        let run = |event: serde_json::Value| {
            ir::eval::evaluate_json(&e, &serde_json::json!({ "event": event })).map(Option::unwrap)
        };
        let ready = serde_json::json!({
            "type": "go", "output": { "ready": true }, "error": { "jr2": "failure" }, "n": 1
        });
        assert_eq!(
            run(ready).unwrap(),
            serde_json::json!([true, true, { "output": { "ready": true }, "error": { "jr2": "failure" }, "n": 1 }])
        );
        // Another event's params: an evaluation error, not a value.
        assert!(run(serde_json::json!({ "type": "other", "output": { "ready": false } })).is_err());
    }

    /// A function reading more facts than are searched as they come ([`SCANNED_FACTS`]) records
    /// each once all the same, in the order of its first read: its context keys and its pick
    /// params, each read twice here.
    #[test]
    fn many_facts_are_each_recorded_once_in_the_order_first_read() {
        let n = SCANNED_FACTS + 8;
        let reads: Vec<String> =
            (0..n).chain(0..n).map(|i| format!("context.k{i}, paramsOf(event, go).q{i}")).collect();
        let src = format!(
            r#"import {{ z }} from "zod";
import {{ defineEvent, paramsOf }} from "@jr2/orchestrator";
const go = defineEvent({{ name: "go", description: "Go.", input: z.object({{}}) }});
export const f = ({{ context, event }}) => [{}];
"#,
            reads.join(", ")
        );
        let ev = evaluate_text(Path::new("/virtual/wf.ts"), &src);
        let facts = &ev.exports.get("f").unwrap().as_function().expect("a function").facts;
        let want_keys: Vec<String> = (0..n).map(|i| format!("k{i}")).collect();
        assert_eq!(facts.context_keys.iter().map(Name::as_str).collect::<Vec<_>>(), want_keys);
        let want_params: Vec<(&str, String)> = (0..n).map(|i| ("go", format!("q{i}"))).collect();
        let got_params: Vec<(&str, String)> =
            facts.pick_params.iter().map(|(e, p)| (e.as_str(), p.to_string())).collect();
        assert_eq!(got_params, want_params);
    }

    /// In a lowered object a later key replaces an earlier one's value where that one stands, as
    /// JavaScript builds the object (a spread's keys too); keys that only share a length and first
    /// letter both stay; and a large object (a map, not a scan) does the same.
    #[test]
    fn a_later_key_of_a_lowered_object_keeps_the_first_place() {
        let e = lowered(
            "export const f = ({ context }) => ({ a: context.x, b: context.z, ab: 2, ac: 3, a: context.y, ...{ b: 4 }, ab: 5 });",
        );
        assert_eq!(keys(&e), ["a", "b", "ab", "ac"]);
        let Expr::Object(fields) = &e else { unreachable!() };
        assert!(matches!(&fields[0].1, Expr::Ref(r) if r.path.as_slice() == ["y"]));
        assert_eq!(fields[1].1, Expr::Literal(ir::Json::from(serde_json::json!(4))));

        let many: Vec<String> = (0..70).map(|i| format!("k{i}: context.k{i}")).collect();
        let e = lowered(&format!("export const f = ({{ context }}) => ({{ {}, k5: 1, k69: 2 }});", many.join(", ")));
        let want: Vec<String> = (0..70).map(|i| format!("k{i}")).collect();
        assert_eq!(keys(&e), want);
        let Expr::Object(fields) = &e else { unreachable!() };
        assert_eq!(fields[5].1, Expr::Literal(ir::Json::from(serde_json::json!(1))));
    }

    /// Spreads of values of the run and computed keys lower to the forms that build them; a
    /// spread of a known object or array gives its fields or items; each evaluates as
    /// JavaScript does.
    #[test]
    fn spreads_and_computed_keys_lower() {
        let args = serde_json::json!({
            "context": { "list": [1, 2], "o": { "a": 1, "b": 2 }, "n": 0 },
            "event": { "key": "b", "item": 3 }
        });
        let cases = [
            ("({ context, event }) => [...context.list, event.item]", "arraySpread", serde_json::json!([1, 2, 3])),
            (
                "({ context }) => ({ ...context, n: context.n + 1 })",
                "objectSpread",
                serde_json::json!({ "list": [1, 2], "o": { "a": 1, "b": 2 }, "n": 1 }),
            ),
            (
                "({ context, event }) => ({ ...context.o, [event.key]: 5, c: 3 })",
                "objectSpread",
                serde_json::json!({ "a": 1, "b": 5, "c": 3 }),
            ),
            ("({ event }) => ({ [event.key]: event.item })", "objectSpread", serde_json::json!({ "b": 3 })),
            (
                "({ event }) => ({ ...{ x: 1 }, ...null, [\"y\"]: event.item, [2]: 0 })",
                "object",
                serde_json::json!({ "2": 0, "x": 1, "y": 3 }),
            ),
            ("({ event }) => [...[1, 2], event.item]", "array", serde_json::json!([1, 2, 3])),
        ];
        for (f, kind, want) in cases {
            let e = lowered(&format!("export const f = {f};"));
            let text = serde_json::to_value(&e).expect("serializes");
            assert_eq!(text["kind"], kind, "{f}: {text}");
            assert_eq!(ir::eval::evaluate_json(&e, &args), Ok(Some(want)), "{f}");
        }
    }

    /// A resolver as the SCXML front end's: `x`, `list` are the context's, any other free name a
    /// global; `In('id')` is state 7.
    struct Model;

    impl Names for Model {
        fn name(&self, name: &str) -> Option<Expr> {
            Some(match name {
                "x" | "list" => Expr::Ref(Reference { root: Root::Context, path: smallvec::smallvec![name.into()] }),
                other => Expr::Global(other.into()),
            })
        }
        fn call(&self, callee: &str, args: Vec<Expr>) -> Option<Expr> {
            (callee == "In" && args.len() == 1).then_some(Expr::InState(ir::StateId(7)))
        }
    }

    /// A standalone expression lowers as a function body would, its free names through the
    /// resolver, and evaluates as JavaScript would: members of a global and of a key computed at
    /// run time, `.length`, literals, concatenation, `typeof`, `in`, bit operators, `**`,
    /// `concat`, `In()`.
    #[test]
    fn a_standalone_expression_lowers_through_its_names() {
        let cases = [
            ("x.a + 1", serde_json::json!(3)),
            ("list[x.a - 1] + list.length", serde_json::json!(13)),
            ("_event.data.k", serde_json::json!("v")),
            ("typeof _event.name === 'string' && 'n' + x.a", serde_json::json!("n2")),
            ("[x.a, { b: list[0] }]", serde_json::json!([2, { "b": 10 }])),
            ("`${x.a}`.length", serde_json::json!(1)),
            ("'data' in _event && !('sendid' in _event)", serde_json::json!(true)),
            ("(x.a | 4) + (list[1] ^ 1) + (x.a ** 3)", serde_json::json!(24)),
            ("[].concat(list, [x.a], 5)", serde_json::json!([10, 11, 2, 5])),
        ];
        for (text, want) in cases {
            let e = lower_expression(text, &Model).unwrap_or_else(|f| panic!("{text}: {f:?}"));
            let mut scope =
                ir::eval::Scope::new(Some(&serde_json::json!({ "x": { "a": 2 }, "list": [10, 11] })), None, None);
            let event = JsValue::from_json(&serde_json::json!({ "name": "e", "data": { "k": "v" } }));
            scope.globals = std::sync::Arc::from(vec![("_event".into(), event)]);
            let got = ir::eval::evaluate(&e, &scope).expect("a value").to_json();
            assert_eq!(got, Some(want), "{text}: {e:?}");
        }
        assert_eq!(lower_expression("In('s1')", &Model).unwrap(), Expr::InState(ir::StateId(7)));
        let syntax = lower_expression("return", &Model).unwrap_err();
        assert_eq!(syntax.kind, FaultKind::TsSyntax);
        let not_lowered = lower_expression("new Date()", &Model).unwrap_err();
        assert_eq!((not_lowered.kind, not_lowered.loc.span), (FaultKind::NotStatic, Span::new(0, 10)));
    }

    /// A script of assignments is its steps; its declarations are found; any other statement is
    /// a fault at its span.
    #[test]
    fn a_script_of_assignments_lowers_to_its_steps() {
        let steps = lower_script("var x = 1; x += 2; list[0]++", &Model).expect("lowered");
        assert_eq!(steps.len(), 3);
        let ScriptStep::Assign { location, .. } = &steps[2];
        assert!(matches!(location, Expr::Ref(r) if r.path.as_slice() == ["list", "0"]), "{location:?}");
        assert_eq!(script_declarations("var a = 1, b; let c; x = 2"), ["a", "b", "c"]);
        let f = lower_script("x = 1; while (true) {}", &Model).unwrap_err();
        assert_eq!(f.loc.span, Span::new(7, 22));
    }

    /// A chain of names on a local reads the same path, and records the same context key, however
    /// long it is (the fast path takes up to four names; a longer one descends).
    #[test]
    fn a_member_chain_is_one_reference() {
        for (chain, path) in [
            ("context.a", vec!["a"]),
            ("context.a.b.c", vec!["a", "b", "c"]),
            ("context.a.b.c.d.e", vec!["a", "b", "c", "d", "e"]),
            ("(context.a as any).b", vec!["a", "b"]),
        ] {
            let src = format!("export const f = ({{ context }}) => {chain};");
            let ev = evaluate_text(Path::new("/virtual/wf.ts"), &src);
            let f = ev.exports.get("f").unwrap().as_function().expect("a function");
            assert_eq!(f.facts.context_keys.as_slice(), ["a"], "{chain}");
            match f.lowered.as_deref() {
                Some(Expr::Ref(r)) => assert_eq!(r.path.as_slice(), path.as_slice(), "{chain}"),
                other => panic!("{chain}: {other:?}"),
            }
        }
    }
}
