//! zod schemas, as the value model holds them, to JSON Schema (Draft 2020-12 shapes).
//!
//! A Machine's event inputs, door and dispatch slots are zod expressions. The evaluator keeps them
//! as call chains (`z.object({...}).optional()` is a `Method("optional")` call whose receiver is a
//! `Zod("object")` call); this pass reads those chains by name and writes the JSON Schema that
//! zod v4's `z.toJSONSchema(schema, { target: "draft-2020-12", io })` writes for them, so the
//! comparisons of ADR-0071 read one shape whether the schema came from here or from a running
//! Orchestrator.
//!
//! ## Which zod
//!
//! zod v4's `toJSONSchema`, with its two views of a schema ([`Io`]):
//!
//! - [`Io::Input`], what a sender must send (a door, an event's payload): a `.optional()` or a
//!   `.default()` property leaves `required`; a plain `z.object` says nothing of extra keys (zod
//!   strips them), and only a strict one (`.strict()`, `z.strictObject`) writes
//!   `"additionalProperties": false`. [`to_json_schema`] is this view.
//! - [`Io::Output`], what the parse gives (ADR-0071 reads a dispatch slot's schema so, its defaults
//!   filled): a `.default()` property is required, and a plain `z.object` writes
//!   `"additionalProperties": false` as a strict one does, since the parse drops the rest. This is
//!   zod v4's own default `io`.
//!
//! A loose object (`.passthrough()`, `z.looseObject`) writes `"additionalProperties": {}` in both.
//!
//! The shapes follow zod v4: `.nullable()` is `anyOf [inner, {type: null}]`; `z.literal(x)` is
//! `{type, const}` (several values: `{type, enum}`); `z.enum` is `{type: "string", enum}`;
//! `.int()` is `type: "integer"` with the safe-integer bounds zod writes for it
//! (`±9007199254740991`), a tighter `.min`/`.max` winning; `.positive()` is
//! `exclusiveMinimum: 0`, `.nonnegative()` `minimum: 0`; `.url()` is `format: "uri"`. Bounds are a
//! conjunction: the tightest wins whatever the order of the calls. `.refine()`, `.superRefine()` and
//! `.check()` leave the schema as it is, as zod's converter does (a refinement is code).
//!
//! Departures from zod v4, on purpose: a string format (`.email()`, `.uuid()`) writes `format`
//! only, not also zod's own regex as `pattern` (a `pattern` would put every such field outside the
//! subset jr2 compares, `PAYLOAD_KEYWORDS`); `.regex()` writes `pattern` from the pattern's source
//! as the evaluator gives it (a string value), without flags. `pattern` is outside the payload
//! subset; this pass converts it anyway, and the subset check (`chart::payload`) refuses it.
//!
//! What cannot be read statically (an unknown value, a non-zod value where a schema is expected,
//! `.transform()`, a zod member or method this pass does not know) is a [`ZodFault`] at that
//! value's place; the rest of the schema converts (the faulty part as `{}`), all faults are
//! collected, and the result is an `Err` when there is any.

use super::value::{Call, Callee, Loc, Value, ValueKind};
use ir::{Json as J, JsonMap as Map, Name};

/// A part of a zod expression that has no JSON Schema reading, at its place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZodFault {
    pub loc: Loc,
    pub message: String,
}

/// Which side of a zod parse the JSON Schema describes (zod v4's `io` option).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Io {
    /// What is accepted: defaulted fields are optional, plain objects leave extra keys open.
    #[default]
    Input,
    /// What the parse produces: defaulted fields are present, plain objects have no extra keys.
    Output,
}

/// The JSON Schema of a zod expression, as what a sender must send ([`Io::Input`]).
pub(crate) fn to_json_schema(v: &Value) -> Result<serde_json::Value, Vec<ZodFault>> {
    to_json_schema_io(v, Io::Input)
}

/// The JSON Schema of a zod expression, for one side of the parse.
pub fn to_json_schema_io(v: &Value, io: Io) -> Result<serde_json::Value, Vec<ZodFault>> {
    to_schema_io(v, io).map(serde_json::Value::from)
}

/// [`to_json_schema`] as the IR keeps a schema ([`ir::Json`], no conversion).
pub(crate) fn to_schema(v: &Value) -> Result<J, Vec<ZodFault>> {
    to_schema_io(v, Io::Input)
}

/// Reads a zod expression as [`to_schema`] does, with the same faults, without writing its JSON
/// Schema (for a caller that needs only whether it has one: `jr2 check`'s events).
pub(crate) fn check_schema(v: &Value) -> Result<(), Vec<ZodFault>> {
    read(v).map(drop)
}

fn to_schema_io(v: &Value, io: Io) -> Result<J, Vec<ZodFault>> {
    read(v).map(|node| node.render(io))
}

/// The meaning of a zod expression, or every fault found in it.
fn read<'a>(v: &'a Value<'a>) -> Result<Node<'a>, Vec<ZodFault>> {
    let mut cx = Cx::default();
    let node = cx.schema(v);
    if cx.faults.is_empty() {
        Ok(node)
    } else {
        Err(cx.faults)
    }
}

/// Is this a zod call chain: a `z.` member call, or a method called on one?
pub(crate) fn is_zod(v: &Value) -> bool {
    match v.as_call() {
        Some(Call { callee: Callee::Zod(_), .. }) => true,
        Some(Call { callee: Callee::Method(_), receiver: Some(r), .. }) => is_zod(r),
        _ => false,
    }
}

/// The keys of a zod object schema in order, each with whether a sender must send it
/// ([`Io::Input`]: an optional or defaulted key is not required). `None` when the expression is no
/// object schema (`.optional()`, `.default()` and `.describe()` around one are looked through; a
/// `.nullable()` one is not an object). A key whose own schema has a fault is still listed.
pub(crate) fn object_keys(v: &Value) -> Option<Vec<(String, bool)>> {
    if !is_zod(v) {
        return None;
    }
    let mut cx = Cx::default();
    match cx.schema(v).ty {
        Ty::Object { props, .. } => Some(props.into_iter().map(|(k, n)| (k.to_string(), !n.opt_in)).collect()),
        _ => None,
    }
}

/// The keys of a zod object schema in order, as [`object_keys`] lists them, without whether each
/// is required. A plain `z.object({...})` is read off its literal, its keys borrowed, with no
/// schema built for its keys' values (the walk asks this of every pick).
pub fn object_key_names<'v>(v: &Value<'v>) -> Option<Vec<std::borrow::Cow<'v, str>>> {
    use std::borrow::Cow;
    if let Some(Call { callee: Callee::Zod(name), args, .. }) = v.as_call() {
        if matches!(&**name, "object" | "strictObject" | "looseObject") {
            // An object literal's keys are unique already (the evaluator kept a key written twice
            // once, in its first place, as `merge_props` would).
            let props = args.first().and_then(Value::props).unwrap_or_default();
            return Some(props.iter().map(|p| Cow::Borrowed(p.key)).collect());
        }
    }
    object_keys(v).map(|keys| keys.into_iter().map(|(k, _)| Cow::Owned(k)).collect())
}

// ---------------------------------------------------------------------------------------------
// The schema tree: what a chain means, before it is written for one `io`.

/// A schema's meaning. It borrows from the value it reads (its keys, a `.default()`'s value), so
/// that the walk copies no string: a string is made once, when the node is written as JSON. It is
/// kept small (a bound is one `Option<Bound>`, a wrapper a byte) since the walk moves it by value.
#[derive(Clone, Debug)]
struct Node<'a> {
    ty: Ty<'a>,
    /// Absent is accepted (`.optional()`, `.default()`).
    opt_in: bool,
    /// Absent may come out (`.optional()`; a `.default()` fills it).
    opt_out: bool,
    /// Which wrapper made this node, if any (`optional`, `default`, ...): the checks of the
    /// inner type are no longer callable on it.
    wrapped_by: Option<Wrapper>,
    /// (A `Box<str>`, a word smaller than a `String`: the node fits 128 bytes, which a move copies
    /// inline.)
    description: Option<Box<str>>,
    /// The `.default()` value, a JSON literal (checked when it is read, converted when written).
    default: Option<&'a Value<'a>>,
    /// `.meta({...})`'s keys, in order (a key set again keeps its place).
    meta: Vec<(ir::Name, J)>,
    /// The place of a fault (already reported): methods called on it add no fault of their own.
    faulted: bool,
}

/// The methods that wrap a schema (after which its type's own methods are no longer callable).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wrapper {
    Optional,
    Default,
    Nullable,
}

impl Wrapper {
    fn name(self) -> &'static str {
        match self {
            Wrapper::Optional => "optional",
            Wrapper::Default => "default",
            Wrapper::Nullable => "nullable",
        }
    }
}

#[derive(Clone, Debug)]
enum Ty<'a> {
    /// Accepts anything: `z.any()`, `z.unknown()`, and the place of a fault.
    Any,
    Never,
    String(StrChecks<'a>),
    Number(NumChecks),
    Boolean,
    Null,
    Enum(Vec<J>),
    Literal(Vec<J>),
    Array(Box<Node<'a>>, Len),
    Object {
        props: Vec<(&'a str, Node<'a>)>,
        extra: Extra,
    },
    Union(Vec<Node<'a>>),
    Nullable(Box<Node<'a>>),
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Extra {
    /// A plain `z.object`: zod strips unknown keys.
    #[default]
    Strip,
    /// `.strict()`: unknown keys fail.
    Strict,
    /// `.passthrough()`: unknown keys are kept.
    Loose,
}

/// Length bounds (a string's characters, an array's items): the tightest wins.
#[derive(Clone, Copy, Debug, Default)]
struct Len {
    min: Option<f64>,
    max: Option<f64>,
}

impl Len {
    /// How many bounds are set (the keywords they write).
    fn count(&self) -> usize {
        usize::from(self.min.is_some()) + usize::from(self.max.is_some())
    }

    fn min(&mut self, n: f64) {
        self.min = Some(self.min.map_or(n, |m| m.max(n)));
    }
    fn max(&mut self, n: f64) {
        self.max = Some(self.max.map_or(n, |m| m.min(n)));
    }
}

#[derive(Clone, Debug, Default)]
struct StrChecks<'a> {
    len: Len,
    format: Option<&'static str>,
    patterns: Vec<&'a str>,
}

#[derive(Clone, Debug, Default)]
struct NumChecks {
    int: bool,
    /// The tightest lower bound, and the tightest upper one.
    min: Option<Bound>,
    max: Option<Bound>,
    multiple_of: Vec<f64>,
}

/// A number bound; an exclusive one is the tighter of two at the same value (zod v4's rule: of an
/// inclusive and an exclusive bound on one side, the tighter one stands).
#[derive(Clone, Copy, Debug)]
struct Bound {
    value: f64,
    exclusive: bool,
}

impl NumChecks {
    fn min(&mut self, value: f64, exclusive: bool) {
        let tighter = self.min.is_none_or(|b| value > b.value || (value == b.value && exclusive));
        if tighter {
            self.min = Some(Bound { value, exclusive });
        }
    }
    fn max(&mut self, value: f64, exclusive: bool) {
        let tighter = self.max.is_none_or(|b| value < b.value || (value == b.value && exclusive));
        if tighter {
            self.max = Some(Bound { value, exclusive });
        }
    }
}

/// `Number.MAX_SAFE_INTEGER`, the bound zod v4 writes for `.int()`.
const SAFE_INT: f64 = 9_007_199_254_740_991.0;

impl<'a> Node<'a> {
    fn new(ty: Ty<'a>) -> Self {
        Node {
            ty,
            opt_in: false,
            opt_out: false,
            wrapped_by: None,
            description: None,
            default: None,
            meta: Vec::new(),
            faulted: false,
        }
    }

    /// The node as JSON Schema, for one side of the parse. It is taken, so that its strings and
    /// values move into the schema instead of being copied; each map is made once, at its final
    /// size, with its keys in their final order, and values are made directly (not through
    /// `json!`, which serializes).
    fn render(self, io: Io) -> J {
        let Node { ty, description, default, meta, .. } = self;
        // The keys the type writes, and the annotations: the map is allocated once, at its size
        // (an upper bound for an enum's `type` and an object's `required` and
        // `additionalProperties`).
        let keys = match &ty {
            Ty::Any => 0,
            Ty::Never | Ty::Boolean | Ty::Null | Ty::Union(_) | Ty::Nullable(_) => 1,
            Ty::Enum(_) | Ty::Literal(_) => 2,
            Ty::String(c) => 1 + c.len.count() + usize::from(c.format.is_some()) + usize::from(!c.patterns.is_empty()),
            Ty::Number(c) => {
                1 + usize::from(c.min.is_some())
                    + usize::from(c.max.is_some())
                    + usize::from(!c.multiple_of.is_empty())
                    + usize::from(c.multiple_of.len() > 1)
            }
            Ty::Array(_, len) => 2 + len.count(),
            Ty::Object { .. } => 4,
        };
        let has_meta = !meta.is_empty();
        let mut m =
            Map::with_capacity(keys + meta.len() + usize::from(description.is_some()) + usize::from(default.is_some()));
        // The type's keys are distinct, so each is pushed with no search; `.meta()`'s keys may
        // set one of them again (and `default`), so they are inserted.
        match ty {
            Ty::Any => {}
            Ty::Never => {
                m.push(key("not"), J::Object(Map::new()));
            }
            Ty::String(c) => {
                m.push(key("type"), lit("string"));
                len_keys(&mut m, c.len, "minLength", "maxLength");
                if let Some(f) = c.format {
                    m.push(key("format"), lit(f));
                }
                match c.patterns[..] {
                    [] => {}
                    [p] => {
                        m.push(key("pattern"), text(p));
                    }
                    ref patterns => {
                        let all = patterns.iter().map(|p| one("pattern", text(p))).collect();
                        m.push(key("allOf"), J::Array(all));
                    }
                }
            }
            Ty::Number(c) => {
                m.push(key("type"), lit(if c.int { "integer" } else { "number" }));
                if let Some(b) = c.min {
                    m.push(key(if b.exclusive { "exclusiveMinimum" } else { "minimum" }), num(b.value));
                }
                if let Some(b) = c.max {
                    m.push(key(if b.exclusive { "exclusiveMaximum" } else { "maximum" }), num(b.value));
                }
                if let Some((first, rest)) = c.multiple_of.split_first() {
                    m.push(key("multipleOf"), num(*first));
                    if !rest.is_empty() {
                        let all = rest.iter().map(|d| one("multipleOf", num(*d))).collect();
                        m.push(key("allOf"), J::Array(all));
                    }
                }
            }
            Ty::Boolean => {
                m.push(key("type"), lit("boolean"));
            }
            Ty::Null => {
                m.push(key("type"), lit("null"));
            }
            Ty::Enum(values) => {
                if values.is_empty() {
                    m.push(key("not"), J::Object(Map::new()));
                } else {
                    if let Some(t) = common_type(&values) {
                        m.push(key("type"), lit(t));
                    }
                    m.push(key("enum"), J::Array(values));
                }
            }
            Ty::Literal(mut values) => match values.len() {
                0 => {
                    m.push(key("not"), J::Object(Map::new()));
                }
                1 => {
                    let v = values.swap_remove(0);
                    m.push(key("type"), lit(json_type(&v)));
                    m.push(key("const"), v);
                }
                _ => {
                    if let Some(t) = common_type(&values) {
                        m.push(key("type"), lit(t));
                    }
                    m.push(key("enum"), J::Array(values));
                }
            },
            Ty::Array(item, len) => {
                m.push(key("type"), lit("array"));
                m.push(key("items"), item.render(io));
                len_keys(&mut m, len, "minItems", "maxItems");
            }
            Ty::Object { props, extra } => {
                m.push(key("type"), lit("object"));
                let required = |n: &Node| match io {
                    Io::Input => !n.opt_in,
                    Io::Output => !n.opt_out,
                };
                let mut names = Vec::with_capacity(props.iter().filter(|(_, n)| required(n)).count());
                let mut properties = Map::with_capacity(props.len());
                for (k, n) in props {
                    if required(&n) {
                        names.push(text(k));
                    }
                    // A shape's keys are unique (`merge_prop`).
                    properties.push(k, n.render(io));
                }
                m.push(key("properties"), J::Object(properties));
                if !names.is_empty() {
                    m.push(key("required"), J::Array(names));
                }
                match (extra, io) {
                    (Extra::Strict, _) | (Extra::Strip, Io::Output) => {
                        m.push(key("additionalProperties"), J::Bool(false));
                    }
                    (Extra::Loose, _) => {
                        m.push(key("additionalProperties"), J::Object(Map::new()));
                    }
                    (Extra::Strip, Io::Input) => {}
                }
            }
            Ty::Union(options) => {
                let mut any = Vec::with_capacity(options.len());
                any.extend(options.into_iter().map(|n| n.render(io)));
                m.push(key("anyOf"), J::Array(any));
            }
            Ty::Nullable(inner) => {
                m.push(key("anyOf"), J::Array(vec![inner.render(io), one("type", lit("null"))]));
            }
        }
        for (k, v) in meta {
            m.insert(k, v);
        }
        // `.meta()`'s `description` is kept in `description`, never in `meta`.
        if let Some(d) = description {
            m.push(key("description"), J::String(d.into()));
        }
        // Read as JSON when the `.default()` was read (`Cx::method`).
        if let Some(d) = default.copied().and_then(Value::to_ir_json) {
            if has_meta {
                m.insert(key("default"), d);
            } else {
                m.push(key("default"), d);
            }
        }
        J::Object(m)
    }
}

/// A JSON string.
fn text(s: &str) -> J {
    J::String(s.into())
}

/// A JSON string known when compiling (a type's name, a format): see [`key`].
#[inline(always)]
fn lit(s: &'static str) -> J {
    J::String(key(s))
}

/// A schema keyword as a [`Name`]: `const_new` of a literal folds to the name's bytes (inline up
/// to 24 bytes, else the static text borrowed), where `Name::from` copies the text at run time.
#[inline(always)]
fn key(s: &'static str) -> Name {
    Name::const_new(s)
}

/// A JSON object of one key.
fn one(k: &'static str, value: J) -> J {
    let mut m = Map::with_capacity(1);
    m.push(key(k), value);
    J::Object(m)
}

/// A length's `min`/`max` keywords, pushed: the caller's map does not hold them yet.
fn len_keys(m: &mut Map, len: Len, min: &'static str, max: &'static str) {
    if let Some(n) = len.min {
        m.push(key(min), num(n));
    }
    if let Some(n) = len.max {
        m.push(key(max), num(n));
    }
}

/// A JSON number, whole numbers written as integers (as JavaScript's `JSON.stringify` does).
fn num(n: f64) -> J {
    if n.fract() == 0.0 && n.abs() <= SAFE_INT {
        J::from(n as i64)
    } else {
        serde_json::Number::from_f64(n).map_or(J::Null, J::Number)
    }
}

fn json_type(v: &J) -> &'static str {
    match v {
        J::Null => "null",
        J::Bool(_) => "boolean",
        J::Number(_) => "number",
        J::String(_) => "string",
        J::Array(_) => "array",
        J::Object(_) => "object",
    }
}

/// The one `type` of a list of values, where zod writes one (all strings, all numbers, ...).
fn common_type(values: &[J]) -> Option<&'static str> {
    let first = json_type(values.first()?);
    values.iter().all(|v| json_type(v) == first).then_some(first)
}

// ---------------------------------------------------------------------------------------------
// Reading the chains.

#[derive(Default)]
struct Cx {
    faults: Vec<ZodFault>,
}

impl Cx {
    fn fault<'a>(&mut self, loc: Loc, message: impl Into<String>) -> Node<'a> {
        self.faults.push(ZodFault { loc, message: message.into() });
        Node { faulted: true, ..Node::new(Ty::Any) }
    }

    /// A value that should be a zod schema.
    fn schema<'a>(&mut self, v: &'a Value<'a>) -> Node<'a> {
        match &v.kind {
            ValueKind::Call(c) => match &c.callee {
                Callee::Zod(name) => self.member(name, c, v.loc),
                Callee::Method(name) => match &c.receiver {
                    Some(r) => {
                        let mut n = self.schema(r);
                        self.method(&mut n, name, c.args, v.loc);
                        n
                    }
                    None => self.fault(v.loc, format!("`.{name}()` is called on nothing jr2 can read")),
                },
                Callee::Kit(name) => {
                    self.fault(v.loc, format!("a zod schema was expected here, found a call of `{name}()`"))
                }
                Callee::Xstate(name) => {
                    self.fault(v.loc, format!("a zod schema was expected here, found a call of xstate's `{name}()`"))
                }
            },
            ValueKind::Unknown { reason } => {
                self.fault(v.loc, format!("this schema cannot be read statically: {reason}"))
            }
            other => {
                let found = match other {
                    ValueKind::Undefined => "`undefined`",
                    ValueKind::Null => "`null`",
                    ValueKind::Bool { .. } => "a boolean",
                    ValueKind::Number { .. } => "a number",
                    ValueKind::String { .. } => "a string",
                    ValueKind::Array { .. } => "an array",
                    ValueKind::Object { .. } => "an object literal (wrap it in `z.object(...)`)",
                    _ => "a function",
                };
                self.fault(v.loc, format!("a zod schema was expected here, found {found}"))
            }
        }
    }

    /// `z.<name>(...)`.
    fn member<'a>(&mut self, name: &str, c: &'a Call<'a>, loc: Loc) -> Node<'a> {
        let arg0 = c.args.first();
        match name {
            "string" => Node::new(Ty::String(StrChecks::default())),
            "number" => Node::new(Ty::Number(NumChecks::default())),
            "int" => Node::new(Ty::Number(int_checks(NumChecks::default()))),
            "boolean" => Node::new(Ty::Boolean),
            "null" => Node::new(Ty::Null),
            "any" | "unknown" => Node::new(Ty::Any),
            "never" => Node::new(Ty::Never),
            "email" | "url" | "uuid" => {
                Node::new(Ty::String(StrChecks { format: Some(string_format(name)), ..Default::default() }))
            }
            "object" | "strictObject" | "looseObject" => {
                let extra = match name {
                    "strictObject" => Extra::Strict,
                    "looseObject" => Extra::Loose,
                    _ => Extra::Strip,
                };
                let props = match arg0 {
                    None => Vec::new(),
                    Some(shape) => self.shape(shape, "z.", name),
                };
                Node::new(Ty::Object { props, extra })
            }
            "array" => match arg0 {
                Some(item) => Node::new(Ty::Array(Box::new(self.schema(item)), Len::default())),
                None => self.fault(loc, "`z.array()` takes the schema of its items"),
            },
            "union" => match arg0.map(|a| (a, a.as_array())) {
                Some((_, Some(items))) => Node::new(Ty::Union(items.iter().map(|i| self.schema(i)).collect())),
                Some((a, None)) => self.not_static(a, "`z.union()` takes an array of schemas"),
                None => self.fault(loc, "`z.union()` takes an array of schemas"),
            },
            "enum" => match arg0.map(|a| (a, a.as_array())) {
                Some((_, Some(items))) => {
                    let mut values = Vec::new();
                    for i in items {
                        match i.as_str() {
                            Some(s) => values.push(text(s)),
                            None => {
                                self.not_static(i, "a `z.enum()` value is a string");
                            }
                        }
                    }
                    Node::new(Ty::Enum(values))
                }
                Some((a, None)) => self.not_static(
                    a,
                    "`z.enum()` is read from an array of strings (an enum object or a computed list is not read)",
                ),
                None => self.fault(loc, "`z.enum()` takes an array of strings"),
            },
            "literal" => match arg0 {
                Some(a) => {
                    let values = match a.as_array() {
                        Some(items) => items.iter().filter_map(|i| self.literal_value(i)).collect(),
                        None => self.literal_value(a).into_iter().collect(),
                    };
                    Node::new(Ty::Literal(values))
                }
                None => self.fault(loc, "`z.literal()` takes a value"),
            },
            "optional" | "nullable" => match arg0 {
                Some(inner) => {
                    let mut n = self.schema(inner);
                    self.method(&mut n, name, &[], loc);
                    n
                }
                None => self.fault(loc, format!("`z.{name}()` takes a schema")),
            },
            "preprocess" | "transform" | "custom" | "instanceof" | "lazy" | "pipe" => {
                self.fault(loc, format!("`z.{name}()` cannot be read statically: its shape is code"))
            }
            "date" | "bigint" | "symbol" | "undefined" | "void" | "nan" | "map" | "set" | "function" | "promise" => {
                self.fault(
                    loc,
                    format!("`z.{name}()` has no JSON Schema: a door, an event's input or a slot's schema is JSON"),
                )
            }
            _ => self.fault(loc, format!("`z.{name}()` is not a zod schema jr2 converts to JSON Schema")),
        }
    }

    /// `<recv>.<name>(...)`, on the receiver's node in place (a node is large: it is not moved
    /// in and out of each method of a chain).
    fn method<'a>(&mut self, n: &mut Node<'a>, name: &str, args: &'a [Value<'a>], loc: Loc) {
        let arg0 = args.first();
        match name {
            // Wrappers.
            "optional" => {
                n.opt_in = true;
                n.opt_out = true;
                n.wrapped_by = Some(Wrapper::Optional);
            }
            "default" => {
                let Some(a) = arg0 else {
                    *n = self.fault(loc, "`.default()` takes a value");
                    return;
                };
                // Only checked here: the node keeps the value, written as JSON by `Node::render`.
                match a.to_json() {
                    Some(_) if !matches!(a.kind, ValueKind::Undefined) => n.default = Some(a),
                    _ => {
                        self.not_static(a, "a `.default()` value must be a literal (JSON) for its schema to say it");
                    }
                }
                n.opt_in = true;
                n.opt_out = false;
                n.wrapped_by = Some(Wrapper::Default);
            }
            "nullable" | "nullish" => {
                let (opt_in, opt_out) = (n.opt_in || name == "nullish", n.opt_out || name == "nullish");
                let inner = std::mem::replace(n, Node::new(Ty::Any));
                *n = Node::new(Ty::Nullable(Box::new(inner)));
                n.opt_in = opt_in;
                n.opt_out = opt_out;
                n.wrapped_by = Some(Wrapper::Nullable);
            }
            "describe" => match arg0.and_then(Value::as_str) {
                Some(s) => n.description = Some(s.into()),
                None => {
                    self.arg_fault(arg0, loc, "`.describe()` takes a string");
                }
            },
            "meta" => match arg0.map(|a| (a, a.to_ir_json())) {
                Some((_, Some(J::Object(m)))) => {
                    for (k, v) in m {
                        if k == "description" {
                            n.description = v.as_str().map(Box::from).or(n.description.take());
                        } else if k != "id" {
                            match n.meta.iter_mut().find(|(m, _)| *m == k) {
                                Some(slot) => slot.1 = v,
                                None => n.meta.push((k, v)),
                            }
                        }
                    }
                }
                _ => {
                    self.arg_fault(arg0, loc, "`.meta()` takes an object literal of JSON values");
                }
            },
            "array" => {
                let item = std::mem::replace(n, Node::new(Ty::Any));
                *n = Node::new(Ty::Array(Box::new(item), Len::default()));
            }
            "or" => match arg0 {
                Some(b) => {
                    let b = self.schema(b);
                    let a = std::mem::replace(n, Node::new(Ty::Any));
                    *n = Node::new(Ty::Union(vec![a, b]));
                }
                None => *n = self.fault(loc, "`.or()` takes a schema"),
            },
            // Refinements are code; zod's converter leaves the schema as it is, and so does this.
            "refine" | "superRefine" | "check" => {}
            "transform" => *n = self.fault(loc, "`.transform()` cannot be read statically: its output shape is code"),
            "pipe" => {
                *n = self.fault(loc, "`.pipe()` is not read statically: what comes out depends on the schema piped to")
            }
            "catch" | "catchall" | "brand" | "readonly" | "prefault" => {
                *n = self.fault(loc, format!("`.{name}()` is not a zod method jr2 converts to JSON Schema"))
            }
            _ => self.typed_method(n, name, args, loc),
        }
    }

    /// The methods of one type: bounds, formats, the object's derivations.
    fn typed_method<'a>(&mut self, n: &mut Node<'a>, name: &str, args: &'a [Value<'a>], loc: Loc) {
        if n.faulted {
            return;
        }
        if let Some(w) = n.wrapped_by {
            let w = w.name();
            *n = self
                .fault(loc, format!("`.{name}()` is not callable on what `.{w}()` returns: call it before `.{w}()`"));
            return;
        }
        let arg0 = args.first();
        match (&mut n.ty, name) {
            // Strings.
            (Ty::String(s), "min" | "max" | "length" | "nonempty") => {
                let k = if name == "nonempty" { Some(1.0) } else { self.count(arg0, loc, name) };
                if let Some(k) = k {
                    bound_len(&mut s.len, name, k);
                }
            }
            (Ty::String(s), "email" | "url" | "uuid") => s.format = Some(string_format(name)),
            (Ty::String(s), "regex") => match arg0.and_then(Value::as_str) {
                Some(p) => s.patterns.push(p),
                None => {
                    self.arg_fault(arg0, loc, "`.regex()` takes a regular expression jr2 can read");
                }
            },
            (Ty::String(_), "trim" | "toLowerCase" | "toUpperCase") => {}
            // Numbers.
            (Ty::Number(x), "int") => *x = int_checks(std::mem::take(x)),
            (Ty::Number(x), "positive") => x.min(0.0, true),
            (Ty::Number(x), "nonnegative") => x.min(0.0, false),
            (Ty::Number(x), "negative") => x.max(0.0, true),
            (Ty::Number(x), "nonpositive") => x.max(0.0, false),
            (Ty::Number(x), "min" | "gte" | "gt" | "max" | "lte" | "lt" | "multipleOf" | "step") => {
                if let Some(k) = self.number(arg0, loc, name) {
                    match name {
                        "min" | "gte" => x.min(k, false),
                        "gt" => x.min(k, true),
                        "max" | "lte" => x.max(k, false),
                        "lt" => x.max(k, true),
                        _ if k != 0.0 => {
                            if !x.multiple_of.contains(&k.abs()) {
                                x.multiple_of.push(k.abs())
                            }
                        }
                        _ => {
                            self.arg_fault(arg0, loc, "`.multipleOf(0)` has no JSON Schema");
                        }
                    }
                }
            }
            // Arrays.
            (Ty::Array(_, len), "min" | "max" | "length" | "nonempty") => {
                let k = if name == "nonempty" { Some(1.0) } else { self.count(arg0, loc, name) };
                if let Some(k) = k {
                    bound_len(len, name, k);
                }
            }
            // Objects.
            (Ty::Object { extra, .. }, "strict" | "strip" | "passthrough" | "loose") => {
                *extra = match name {
                    "strict" => Extra::Strict,
                    "strip" => Extra::Strip,
                    _ => Extra::Loose,
                }
            }
            (Ty::Object { props, .. }, "extend" | "safeExtend") => {
                if let Some(shape) = arg0 {
                    let more = self.shape(shape, ".", name);
                    merge_props(props, more);
                } else {
                    self.fault(loc, format!("`.{name}()` takes an object of schemas"));
                }
            }
            (Ty::Object { props, extra }, "merge") => match arg0 {
                Some(other) => match self.schema(other).ty {
                    Ty::Object { props: more, extra: e } => {
                        merge_props(props, more);
                        *extra = e;
                    }
                    _ => {
                        self.not_static(other, "`.merge()` takes a `z.object()`");
                    }
                },
                None => {
                    self.fault(loc, "`.merge()` takes a `z.object()`");
                }
            },
            (Ty::Object { props, .. }, "pick" | "omit") => {
                if let Some(mask) = self.mask(arg0, loc, name, props) {
                    if name == "pick" {
                        // zod builds the picked shape in the mask's order. Each key's first place
                        // (as a search would find it), by a map: a pick of 20 000 keys stays linear.
                        let mut at: rustc_hash::FxHashMap<&str, usize> = rustc_hash::FxHashMap::default();
                        for (i, (k, _)) in props.iter().enumerate() {
                            at.entry(*k).or_insert(i);
                        }
                        *props = mask.iter().filter_map(|k| at.get(k).map(|&i| props[i].clone())).collect();
                    } else {
                        let omitted: rustc_hash::FxHashSet<&str> = mask.iter().copied().collect();
                        props.retain(|(p, _)| !omitted.contains(p));
                    }
                }
            }
            (Ty::Object { props, .. }, "partial" | "required") => {
                // A mask that cannot be read (a fault already) changes nothing.
                let mask: Option<rustc_hash::FxHashSet<&str>> =
                    arg0.map(|_| self.mask(arg0, loc, name, props).unwrap_or_default().into_iter().collect());
                for (k, p) in props.iter_mut() {
                    if mask.as_ref().is_none_or(|m| m.contains(k)) {
                        let on = name == "partial";
                        p.opt_in = on;
                        p.opt_out = on;
                    }
                }
            }
            (Ty::Object { props, .. }, "keyof") => {
                *n = Node::new(Ty::Enum(props.iter().map(|(k, _)| text(k)).collect()));
            }
            (ty, _) => {
                let on = match ty {
                    Ty::String(_) => "a string schema",
                    Ty::Number(_) => "a number schema",
                    Ty::Array(..) => "an array schema",
                    Ty::Object { .. } => "an object schema",
                    _ => "this schema",
                };
                *n = self.fault(loc, format!("`.{name}()` on {on} is not a zod method jr2 converts to JSON Schema"));
            }
        }
    }

    /// An object literal of schemas: `z.object`'s shape, `.extend`'s (`of` is `z.object` as `"z."`
    /// and `"object"`: the fault's message is only written when there is one).
    fn shape<'a>(&mut self, v: &'a Value<'a>, of_prefix: &str, of: &str) -> Vec<(&'a str, Node<'a>)> {
        let Some(props) = v.props() else {
            self.not_static(v, format!("`{of_prefix}{of}()` takes an object literal of schemas"));
            return Vec::new();
        };
        let mut out: Vec<(&str, Node)> = Vec::with_capacity(props.len());
        // An object literal's keys are unique already: pushed, not merged (no scan per key).
        for p in props {
            let node = self.schema(&p.value);
            out.push((p.key, node));
        }
        out
    }

    /// The keys a `.pick`/`.omit`/`.partial` mask sets to `true`; a key the object lacks is a fault
    /// (zod v4 throws on one).
    fn mask<'a>(
        &mut self,
        arg: Option<&'a Value<'a>>,
        loc: Loc,
        name: &str,
        props: &[(&str, Node)],
    ) -> Option<Vec<&'a str>> {
        let Some(a) = arg else {
            self.fault(loc, format!("`.{name}()` takes an object literal of keys, `{{ key: true }}`"));
            return None;
        };
        let Some(mask) = a.props() else {
            self.not_static(a, format!("`.{name}()` takes an object literal of keys, `{{ key: true }}`"));
            return None;
        };
        // The object's keys by a set where there are many, so that a mask of 20 000 keys stays
        // linear; a mask's own keys are each there once (a value-model object's are).
        let known: Option<rustc_hash::FxHashSet<&str>> =
            (props.len() > 16).then(|| props.iter().map(|(k, _)| *k).collect());
        let has = |key: &str| known.as_ref().map_or_else(|| props.iter().any(|(k, _)| *k == key), |s| s.contains(key));
        let mut keys = Vec::with_capacity(mask.len());
        for p in mask {
            match p.value.as_bool() {
                Some(true) => {}
                Some(false) => continue,
                None => {
                    self.not_static(&p.value, format!("a `.{name}()` key is set to `true`"));
                    continue;
                }
            }
            if !has(p.key) {
                self.fault(p.key_loc, format!("`.{name}()` names `{}`, which the object does not have", p.key));
                continue;
            }
            keys.push(p.key);
        }
        Some(keys)
    }

    fn literal_value(&mut self, v: &Value) -> Option<J> {
        match v.kind {
            ValueKind::Undefined => {
                self.fault(v.loc, "`z.literal(undefined)` has no JSON Schema");
                None
            }
            _ => match v.to_ir_json() {
                Some(j @ (J::Null | J::Bool(_) | J::Number(_) | J::String(_))) => Some(j),
                _ => {
                    self.not_static(v, "a `z.literal()` value is a string, a number, a boolean or `null`");
                    None
                }
            },
        }
    }

    fn number(&mut self, arg: Option<&Value>, loc: Loc, name: &str) -> Option<f64> {
        match arg.map(|a| &a.kind) {
            Some(ValueKind::Number { value }) if value.is_finite() => Some(*value),
            _ => {
                self.arg_fault(arg, loc, format!("`.{name}()` takes a number"));
                None
            }
        }
    }

    /// A length bound: a whole number, zero or more.
    fn count(&mut self, arg: Option<&Value>, loc: Loc, name: &str) -> Option<f64> {
        match arg.map(|a| &a.kind) {
            Some(ValueKind::Number { value }) if *value >= 0.0 && value.fract() == 0.0 && *value <= SAFE_INT => {
                Some(*value)
            }
            _ => {
                self.arg_fault(arg, loc, format!("`.{name}()` of a length takes a whole number, zero or more"));
                None
            }
        }
    }

    /// A fault at an argument (or at the call, if it has none).
    fn arg_fault<'a>(&mut self, arg: Option<&Value>, loc: Loc, message: impl Into<String>) -> Node<'a> {
        match arg {
            Some(a) => self.not_static(a, message),
            None => self.fault(loc, message),
        }
    }

    /// A fault at a value that is not what was expected: an unknown one says why it is unknown.
    fn not_static<'a>(&mut self, v: &Value, message: impl Into<String>) -> Node<'a> {
        let message = message.into();
        match &v.kind {
            ValueKind::Unknown { reason } => {
                self.fault(v.loc, format!("{message}; this one cannot be read statically: {reason}"))
            }
            _ => self.fault(v.loc, message),
        }
    }
}

fn string_format(method: &str) -> &'static str {
    match method {
        "email" => "email",
        "url" => "uri",
        _ => "uuid",
    }
}

fn int_checks(mut x: NumChecks) -> NumChecks {
    x.int = true;
    x.min(-SAFE_INT, false);
    x.max(SAFE_INT, false);
    x
}

fn bound_len(len: &mut Len, name: &str, k: f64) {
    match name {
        "max" => len.max(k),
        "length" => {
            len.min(k);
            len.max(k);
        }
        _ => len.min(k),
    }
}

/// JavaScript's `{ ...a, ...b }`: a key of `b` already in `a` keeps its place and takes `b`'s value.
fn merge_props<'a>(props: &mut Vec<(&'a str, Node<'a>)>, more: Vec<(&'a str, Node<'a>)>) {
    for (k, n) in more {
        merge_prop(props, k, n);
    }
}

/// One key of [`merge_props`].
fn merge_prop<'a>(props: &mut Vec<(&'a str, Node<'a>)>, k: &'a str, n: Node<'a>) {
    match props.iter_mut().find(|(p, _)| *p == k) {
        Some(slot) => slot.1 = n,
        None => props.push((k, n)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::{Arena, FileId, Prop};
    use base::Span;
    use serde_json::json;

    // A terse builder of the values the evaluator makes, in an arena of the test's thread that
    // lives as long as the thread (leaked). Every value sits at the default place unless `at`
    // moves it.

    thread_local! {
        static A: &'static Arena = Box::leak(Box::default());
    }
    fn arena() -> &'static Arena {
        A.with(|a| *a)
    }

    fn v(kind: ValueKind<'static>) -> Value<'static> {
        Value::new(kind, Loc::default())
    }
    fn at(mut value: Value<'static>, start: u32, end: u32) -> Value<'static> {
        value.loc = Loc { file: FileId(0), span: Span::new(start, end) };
        value
    }
    fn call(callee: Callee<'static>, receiver: Option<Value<'static>>, args: Vec<Value<'static>>) -> Value<'static> {
        let a = arena();
        v(ValueKind::Call(a.call(Call { callee, receiver, args: a.values(&args) })))
    }
    fn call_zod(name: &str, args: Vec<Value<'static>>) -> Value<'static> {
        call(Callee::Zod(arena().str(name)), None, args)
    }
    fn z(name: &str) -> Value<'static> {
        call_zod(name, vec![])
    }
    fn method(recv: Value<'static>, name: &str, args: Vec<Value<'static>>) -> Value<'static> {
        call(Callee::Method(arena().str(name)), Some(recv), args)
    }
    /// `recv.name()` with no arguments.
    fn m(recv: Value<'static>, name: &str) -> Value<'static> {
        method(recv, name, vec![])
    }
    fn props(props: Vec<Prop<'static>>) -> Value<'static> {
        v(ValueKind::Object { props: arena().props(&props) })
    }
    fn obj(props: Vec<(&str, Value<'static>)>) -> Value<'static> {
        let a = arena();
        self::props(
            props.into_iter().map(|(k, value)| Prop { key: a.str(k), key_loc: Loc::default(), value }).collect(),
        )
    }
    fn zobj(props: Vec<(&str, Value<'static>)>) -> Value<'static> {
        call_zod("object", vec![obj(props)])
    }
    fn s(x: &str) -> Value<'static> {
        v(ValueKind::String { value: arena().str(x) })
    }
    fn n(x: f64) -> Value<'static> {
        v(ValueKind::Number { value: x })
    }
    fn b(x: bool) -> Value<'static> {
        v(ValueKind::Bool { value: x })
    }
    fn arr(items: Vec<Value<'static>>) -> Value<'static> {
        v(ValueKind::Array { items: arena().values(&items) })
    }
    fn unknown(reason: &str) -> Value<'static> {
        v(ValueKind::Unknown { reason: arena().str(reason) })
    }
    fn func() -> Value<'static> {
        v(ValueKind::Function(arena().function(crate::value::Function {
            params: smallvec::smallvec!["s".into()],
            facts: Default::default(),
            lowered: None,
            carried: None,
        })))
    }
    fn mask(keys: &[&str]) -> Value<'static> {
        obj(keys.iter().map(|k| (*k, b(true))).collect())
    }

    /// The cases: a name, the TypeScript the value stands for, and the value.
    fn cases() -> Vec<(&'static str, &'static str, Value<'static>)> {
        vec![
            ("string", "z.string()", z("string")),
            ("number", "z.number()", z("number")),
            ("boolean", "z.boolean()", z("boolean")),
            ("null", "z.null()", z("null")),
            ("any", "z.any()", z("any")),
            ("unknown", "z.unknown()", z("unknown")),
            ("enum", r#"z.enum(["low", "high"])"#, call_zod("enum", vec![arr(vec![s("low"), s("high")])])),
            ("literal_string", r#"z.literal("done")"#, call_zod("literal", vec![s("done")])),
            ("literal_number", "z.literal(3)", call_zod("literal", vec![n(3.0)])),
            ("literal_many", "z.literal([1, 2])", call_zod("literal", vec![arr(vec![n(1.0), n(2.0)])])),
            ("array", "z.array(z.string())", call_zod("array", vec![z("string")])),
            (
                "union",
                "z.union([z.string(), z.number()])",
                call_zod("union", vec![arr(vec![z("string"), z("number")])]),
            ),
            ("nullable", "z.string().nullable()", m(z("string"), "nullable")),
            (
                "describe",
                r#"z.string().describe("The branch.")"#,
                method(z("string"), "describe", vec![s("The branch.")]),
            ),
            ("default_top", r#"z.string().default("main")"#, method(z("string"), "default", vec![s("main")])),
            (
                "string_bounds",
                "z.string().min(1).max(80)",
                method(method(z("string"), "min", vec![n(1.0)]), "max", vec![n(80.0)]),
            ),
            ("string_length", "z.string().length(40)", method(z("string"), "length", vec![n(40.0)])),
            (
                "number_bounds",
                "z.number().min(0.5).max(10)",
                method(method(z("number"), "min", vec![n(0.5)]), "max", vec![n(10.0)]),
            ),
            ("int", "z.number().int()", m(z("number"), "int")),
            (
                "int_bounded",
                "z.number().int().min(1).max(5)",
                method(method(m(z("number"), "int"), "min", vec![n(1.0)]), "max", vec![n(5.0)]),
            ),
            ("positive", "z.number().positive()", m(z("number"), "positive")),
            ("nonnegative_int", "z.number().int().nonnegative()", m(m(z("number"), "int"), "nonnegative")),
            (
                "tightest_bound_wins",
                "z.number().min(5).min(2).positive()",
                m(method(method(z("number"), "min", vec![n(5.0)]), "min", vec![n(2.0)]), "positive"),
            ),
            (
                "array_bounds",
                "z.array(z.number()).min(1).max(3)",
                method(method(call_zod("array", vec![z("number")]), "min", vec![n(1.0)]), "max", vec![n(3.0)]),
            ),
            ("email", "z.string().email()", m(z("string"), "email")),
            ("url", "z.string().url()", m(z("string"), "url")),
            ("uuid", "z.string().uuid()", m(z("string"), "uuid")),
            ("regex", r#"z.string().regex(/^[a-z]+$/)"#, method(z("string"), "regex", vec![s("^[a-z]+$")])),
            // The seed's event inputs.
            ("seed_run_test", "z.object({ module: z.string() })", zobj(vec![("module", z("string"))])),
            ("seed_finished", "z.object({})", zobj(vec![])),
            (
                "object_optional_default",
                r#"z.object({ repo: z.string(), branch: z.string().default("main"), note: z.string().optional() })"#,
                zobj(vec![
                    ("repo", z("string")),
                    ("branch", method(z("string"), "default", vec![s("main")])),
                    ("note", m(z("string"), "optional")),
                ]),
            ),
            ("strict", "z.object({ a: z.string() }).strict()", m(zobj(vec![("a", z("string"))]), "strict")),
            (
                "nested",
                r#"z.object({ review: z.object({ url: z.string().url(), depth: z.number().int().default(1) }).optional(), tags: z.array(z.object({ name: z.string(), why: z.string().describe("why").optional() })).default([]) })"#,
                zobj(vec![
                    (
                        "review",
                        m(
                            zobj(vec![
                                ("url", m(z("string"), "url")),
                                ("depth", method(m(z("number"), "int"), "default", vec![n(1.0)])),
                            ]),
                            "optional",
                        ),
                    ),
                    (
                        "tags",
                        method(
                            call_zod(
                                "array",
                                vec![zobj(vec![
                                    ("name", z("string")),
                                    ("why", m(method(z("string"), "describe", vec![s("why")]), "optional")),
                                ])],
                            ),
                            "default",
                            vec![arr(vec![])],
                        ),
                    ),
                ]),
            ),
            (
                "pick",
                "door.pick({ commit: true, branch: true })",
                method(door(), "pick", vec![mask(&["commit", "branch"])]),
            ),
            ("omit", "door.omit({ url: true })", method(door(), "omit", vec![mask(&["url"])])),
            (
                "extend",
                r#"door.extend({ branch: z.string().optional(), depth: z.number() })"#,
                method(
                    door(),
                    "extend",
                    vec![obj(vec![("branch", m(z("string"), "optional")), ("depth", z("number"))])],
                ),
            ),
            (
                "pick_extend_strict_chain",
                r#"door.omit({ commit: true }).extend({ why: z.string().describe("Why.") }).pick({ why: true, url: true }).strict()"#,
                m(
                    method(
                        method(
                            method(door(), "omit", vec![mask(&["commit"])]),
                            "extend",
                            vec![obj(vec![("why", method(z("string"), "describe", vec![s("Why.")]))])],
                        ),
                        "pick",
                        vec![mask(&["why", "url"])],
                    ),
                    "strict",
                ),
            ),
            (
                "nullable_optional_described",
                r#"z.object({ parent: z.string().nullable().optional().describe("The parent, if any.") })"#,
                zobj(vec![(
                    "parent",
                    method(m(m(z("string"), "nullable"), "optional"), "describe", vec![s("The parent, if any.")]),
                )]),
            ),
            (
                "passthrough",
                "z.object({ a: z.string() }).passthrough()",
                m(zobj(vec![("a", z("string"))]), "passthrough"),
            ),
            ("partial", "door.partial({ url: true })", method(door(), "partial", vec![mask(&["url"])])),
            ("nullish", "z.object({ a: z.number().nullish() })", zobj(vec![("a", m(z("number"), "nullish"))])),
            ("keyof", "door.keyof()", m(door(), "keyof")),
            (
                "meta",
                r#"z.string().meta({ title: "Branch", examples: ["main"] })"#,
                method(
                    z("string"),
                    "meta",
                    vec![obj(vec![("title", s("Branch")), ("examples", arr(vec![s("main")]))])],
                ),
            ),
        ]
    }

    /// The door the derivations start from.
    fn door() -> Value<'static> {
        zobj(vec![
            ("url", m(z("string"), "url")),
            ("branch", z("string")),
            ("commit", method(z("string"), "length", vec![n(40.0)])),
        ])
    }

    fn meta_valid(schema: &serde_json::Value, name: &str) {
        if let Err(e) = jsonschema::draft202012::meta::validate(schema) {
            panic!("{name}: not a Draft 2020-12 schema: {e}\n{schema:#}");
        }
    }

    #[test]
    fn converts_each_construct() {
        for (name, source, value) in cases() {
            assert!(is_zod(&value), "{name} is a zod chain");
            let input = to_json_schema(&value).unwrap_or_else(|f| panic!("{name}: {f:?}"));
            let output = to_json_schema_io(&value, Io::Output).unwrap_or_else(|f| panic!("{name}: {f:?}"));
            meta_valid(&input, name);
            meta_valid(&output, name);
            let shown = if input == output {
                json!({ "zod": source, "input": input })
            } else {
                json!({ "zod": source, "input": input, "output": output })
            };
            insta::assert_json_snapshot!(name, shown);
        }
    }

    #[test]
    fn object_key_names_are_object_keys() {
        let shapes = cases().into_iter().map(|c| c.2).chain([zobj(vec![]), z("string"), m(door(), "nullable")]);
        for shape in shapes {
            let slow = object_keys(&shape).map(|ks| ks.into_iter().map(|(k, _)| k).collect::<Vec<_>>());
            assert_eq!(object_key_names(&shape).map(|ks| ks.into_iter().map(String::from).collect()), slow);
        }
        // A literal repeats no key: the value model holds each once (`ValueKind::Object`; the
        // evaluator's `a_later_key_replaces_an_earlier_one_in_its_place`).
    }

    #[test]
    fn object_keys_read_the_shape() {
        let keys = |v: &Value| object_keys(v).unwrap();
        let owned = |ks: &[(&str, bool)]| ks.iter().map(|(k, r)| (k.to_string(), *r)).collect::<Vec<_>>();
        assert_eq!(keys(&zobj(vec![("module", z("string"))])), owned(&[("module", true)]));
        assert_eq!(keys(&zobj(vec![])), owned(&[]));
        let (_, _, optional_default) = cases().into_iter().find(|c| c.0 == "object_optional_default").unwrap();
        assert_eq!(keys(&optional_default), owned(&[("repo", true), ("branch", false), ("note", false)]));
        assert_eq!(
            keys(&method(door(), "pick", vec![mask(&["commit", "branch"])])),
            owned(&[("commit", true), ("branch", true)])
        );
        assert_eq!(keys(&m(door(), "partial")), owned(&[("url", false), ("branch", false), ("commit", false)]));
        assert_eq!(keys(&m(door(), "optional")), owned(&[("url", true), ("branch", true), ("commit", true)]));
        assert_eq!(object_keys(&z("string")), None);
        assert_eq!(object_keys(&m(door(), "nullable")), None);
        assert_eq!(object_keys(&obj(vec![("a", z("string"))])), None);
    }

    /// On an object of more keys than are searched one by one (its keys go in a set): a pick keeps
    /// the mask's order, an omit and a partial touch only the mask's keys, and a key the object
    /// lacks is still a fault.
    #[test]
    fn masks_over_a_wide_object_read_as_over_a_narrow_one() {
        let names: Vec<String> = (0..40).map(|i| format!("k{i}")).collect();
        let wide = || zobj(names.iter().map(|k| (k.as_str(), z("string"))).collect());
        let keys = |v: &Value| object_keys(v).unwrap().into_iter().map(|(k, r)| format!("{k}:{r}")).collect::<Vec<_>>();
        assert_eq!(keys(&method(wide(), "pick", vec![mask(&["k30", "k2"])])), ["k30:true", "k2:true"]);
        let omitted = keys(&method(wide(), "omit", vec![mask(&["k0", "k39"])]));
        assert_eq!(omitted.len(), 38);
        assert_eq!((omitted[0].as_str(), omitted[37].as_str()), ("k1:true", "k38:true"));
        let partial = keys(&method(wide(), "partial", vec![mask(&["k5"])]));
        assert_eq!((partial[4].as_str(), partial[5].as_str(), partial[6].as_str()), ("k4:true", "k5:false", "k6:true"));
        let faults = to_json_schema(&method(wide(), "pick", vec![mask(&["k1", "nope"])])).unwrap_err();
        assert!(faults.iter().any(|f| f.message.contains("`nope`")), "{faults:?}");
    }

    #[test]
    fn is_zod_is_a_zod_chain() {
        assert!(is_zod(&m(m(z("string"), "optional"), "nullable")));
        assert!(!is_zod(&s("x")));
        assert!(!is_zod(&m(unknown("a call of an unknown function"), "optional")));
        assert!(!is_zod(&call(Callee::Kit("agent"), None, vec![])));
    }

    /// Faults: each at its value's place, the rest converted.
    fn faults_of(value: &Value) -> Vec<(Span, String)> {
        to_json_schema(value).unwrap_err().into_iter().map(|f| (f.loc.span, f.message)).collect()
    }

    #[test]
    fn an_unknown_inside_an_object_is_one_fault_at_its_place() {
        let value = zobj(vec![
            ("module", z("string")),
            ("mode", at(unknown("`mode` is imported from a file that is not read"), 30, 42)),
            ("depth", m(z("number"), "optional")),
        ]);
        let faults = faults_of(&value);
        assert_eq!(
            faults,
            vec![(
                Span::new(30, 42),
                "this schema cannot be read statically: `mode` is imported from a file that is not read".to_string()
            )]
        );
        // The rest converts: the keys are all there, the unknown one accepting anything.
        assert_eq!(object_keys(&value).unwrap().len(), 3);
        let mut cx = Cx::default();
        insta::assert_json_snapshot!("fault_rest_converts", cx.schema(&value).render(Io::Input));
    }

    #[test]
    fn faults_are_collected_and_say_what() {
        let f = |v: Value| faults_of(&v);
        let transform = at(method(z("string"), "transform", vec![func()]), 5, 9);
        let value = zobj(vec![
            ("a", m(transform, "optional")),
            ("b", at(s("not a schema"), 20, 30)),
            ("c", at(z("date"), 40, 48)),
            ("d", at(method(m(z("string"), "optional"), "min", vec![n(1.0)]), 50, 60)),
        ]);
        insta::assert_debug_snapshot!("faults_collected", f(value));
        insta::assert_debug_snapshot!(
            "faults_pick_missing_key",
            f(method(
                door(),
                "pick",
                vec![props(vec![Prop { key: "nope", key_loc: at(b(true), 12, 16).loc, value: b(true) }])]
            ))
        );
        insta::assert_debug_snapshot!("faults_unknown_method", f(at(m(z("string"), "ip"), 1, 2)));
        insta::assert_debug_snapshot!(
            "faults_bad_bound",
            f(method(z("string"), "min", vec![at(unknown("a runtime value"), 3, 4)]))
        );
        // A method on a faulty receiver adds no fault of its own.
        assert_eq!(f(m(m(at(unknown("why"), 7, 8), "int"), "optional")).len(), 1);
    }
}
