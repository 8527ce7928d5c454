//! Builders of [`Value`]s for tests, standing in for the evaluator.
//!
//! Each value gets a fresh, increasing span, so a fault's `loc` tells which value it names.

use crate::ir::Expr;
use crate::machine::value::{Call, Callee, Facts, FileId, Function, Loc, Prop, Value, ValueKind};
use crate::Span;
use std::cell::Cell;

thread_local! {
    static NEXT: Cell<u32> = const { Cell::new(0) };
}

/// Restart the spans at 0 (call at the start of a test, for stable snapshots).
pub fn reset() {
    NEXT.with(|n| n.set(0));
}

fn loc() -> Loc {
    let start = NEXT.with(|n| {
        let v = n.get();
        n.set(v + 10);
        v
    });
    Loc { file: FileId(0), span: Span::new(start, start + 10) }
}

fn v(kind: ValueKind) -> Value {
    Value::new(kind, loc())
}

pub fn s(text: &str) -> Value {
    v(ValueKind::String { value: text.to_string() })
}

pub fn n(value: f64) -> Value {
    v(ValueKind::Number { value })
}

pub fn b(value: bool) -> Value {
    v(ValueKind::Bool { value })
}

pub fn unknown(reason: &str) -> Value {
    v(ValueKind::Unknown { reason: reason.to_string() })
}

pub fn arr(items: Vec<Value>) -> Value {
    v(ValueKind::Array { items })
}

/// An object literal, keys in order.
pub fn obj(props: Vec<(&str, Value)>) -> Value {
    let props = props.into_iter().map(|(key, value)| Prop { key: key.to_string(), key_loc: loc(), value }).collect();
    v(ValueKind::Object { props })
}

fn call(callee: Callee, receiver: Option<Value>, args: Vec<Value>) -> Value {
    v(ValueKind::Call(Box::new(Call { callee, receiver, args })))
}

/// A call of a kit export: `agent({...})`.
pub fn kit(name: &str, args: Vec<Value>) -> Value {
    call(Callee::Kit(name.to_string()), None, args)
}

/// A call of an xstate export: `setup({...})`, `and([...])`.
pub fn xs(name: &str, args: Vec<Value>) -> Value {
    call(Callee::Xstate(name.to_string()), None, args)
}

/// A call of a zod member: `z.object({...})`.
pub fn zod(name: &str, args: Vec<Value>) -> Value {
    call(Callee::Zod(name.to_string()), None, args)
}

/// A method call: `recv.name(args)`.
pub fn method(recv: Value, name: &str, args: Vec<Value>) -> Value {
    call(Callee::Method(name.to_string()), Some(recv), args)
}

/// A function whose body lowered (or not) to `lowered`.
pub fn func(lowered: Option<Expr>) -> Value {
    v(ValueKind::Function(Box::new(Function {
        params: vec!["{ context, event }".to_string()],
        facts: Facts { complete: lowered.is_some(), ..Facts::default() },
        lowered,
    })))
}

/// `jr2Setup(setup).createMachine(config)`.
pub fn machine(setup: Value, config: Value) -> Value {
    method(kit("jr2Setup", vec![setup]), "createMachine", vec![config])
}
