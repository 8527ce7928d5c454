//! A Machine's identity ([`crate::Machine::identity`]): the SHA-256 of a versioned canonical form
//! of everything in its IR that changes how it runs, so that a durable host pins a run to the IR
//! it started with and tells an edit that changes behaviour from one that does not.
//!
//! The canonical form is fixed: the bytes `jr2-ir/<IDENTITY_FORMAT>\n`, then the IR's JSON
//! (`serde_json`, compact, its maps in the order lowering wrote them), with what only describes
//! removed: each event's `description`, and the `description` keyword of every JSON Schema the IR
//! holds (an event's input, an Effect's input, an Open body's input and lend manifest), in child
//! Machines too. Spans are never in the IR (they are in the [`crate::SourceMap`] beside it), so an
//! edit of whitespace or comments keeps the identity. A change of the form (a field added to the
//! IR) bumps [`IDENTITY_FORMAT`], so that an old identity is never taken for a new form's.

use crate::slot::{Definition, EffectRun, Part};
use crate::{Action, Json, Statechart};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fmt;

/// The version of the canonical form [`crate::Machine::identity`] hashes.
pub const IDENTITY_FORMAT: u32 = 1;

/// A Machine's identity: the SHA-256 of its canonical form, shown (and serialized) as 64
/// lowercase hex digits.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Identity([u8; 32]);

impl Identity {
    /// The hash's bytes.
    pub fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }
}

impl fmt::Display for Identity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in self.0 {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Identity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Identity({self})")
    }
}

impl Serialize for Identity {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Identity {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl std::str::FromStr for Identity {
    type Err = String;
    /// 64 hex digits (either case).
    fn from_str(text: &str) -> Result<Self, String> {
        let bytes = text.as_bytes();
        if bytes.len() != 64 {
            return Err(format!("an identity is 64 hex digits, not {} characters", text.chars().count()));
        }
        let mut out = [0u8; 32];
        for (i, pair) in bytes.chunks_exact(2).enumerate() {
            let digit = |c: u8| (c as char).to_digit(16).ok_or_else(|| format!("{:?} is no hex digit", c as char));
            out[i] = (digit(pair[0])? * 16 + digit(pair[1])?) as u8;
        }
        Ok(Identity(out))
    }
}

/// The identity of a statechart (see the module's doc).
pub(crate) fn of(chart: &Statechart) -> Identity {
    let mut canonical = chart.clone();
    strip_chart(&mut canonical);
    let mut hasher = Sha256::new();
    hasher.update(format!("jr2-ir/{IDENTITY_FORMAT}\n").as_bytes());
    // Serializing plain data into a hasher fails only on a map with a key that is no string,
    // which the IR has none of; the form is then the prefix alone, never a panic.
    let _ = serde_json::to_writer(Writer(&mut hasher), &canonical);
    Identity(hasher.finalize().into())
}

/// `io::Write` into the hasher, so the form is hashed as it is written, never held whole.
struct Writer<'a>(&'a mut Sha256);

impl std::io::Write for Writer<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.update(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Removes what only describes from a statechart and every statechart it holds.
fn strip_chart(chart: &mut Statechart) {
    for event in chart.events.values_mut() {
        event.description = None;
        if let Some(input) = &mut event.input {
            strip_schema(input);
        }
    }
    for slot in chart.slots.values_mut() {
        match &mut slot.definition {
            Some(Definition::Machine(child)) => strip_chart(child),
            Some(Definition::Effect(effect)) => match &mut effect.run {
                EffectRun::Http { input, .. } | EffectRun::Dispatch { input, .. } | EffectRun::Mcp { input, .. } => {
                    strip_part(input.as_mut())
                }
                _ => {}
            },
            Some(Definition::Open(open)) => {
                strip_part(open.input.as_mut());
                for effect in open.manifest.lent.effects.values_mut() {
                    if let kit::lends::EffectParts::Http { input, .. }
                    | kit::lends::EffectParts::Dispatch { input, .. }
                    | kit::lends::EffectParts::Mcp { input, .. } = effect
                    {
                        if let Some(schema) = input {
                            let mut json = Json::from(std::mem::take(schema));
                            strip_schema(&mut json);
                            *schema = json.into();
                        }
                    }
                }
            }
            _ => {}
        }
    }
    for state in &mut chart.states {
        for invoke in &mut state.invokes {
            if let Some(child) = &mut invoke.machine {
                strip_chart(child);
            }
        }
        state.entry.iter_mut().chain(state.exit.iter_mut()).for_each(strip_action);
    }
    chart.transitions.iter_mut().flat_map(|t| t.actions.iter_mut()).for_each(strip_action);
    chart.implementations.actions.values_mut().flatten().for_each(strip_action);
}

/// Strips the statecharts an action holds (an inline child of `spawnChild`).
fn strip_action(action: &mut Action) {
    match action {
        Action::Spawn { machine: Some(child), .. } => strip_chart(child),
        Action::If { branches } => branches.iter_mut().flat_map(|b| b.actions.iter_mut()).for_each(strip_action),
        Action::Foreach { actions, .. } | Action::Block { actions } => actions.iter_mut().for_each(strip_action),
        _ => {}
    }
}

fn strip_part(part: Option<&mut Part>) {
    if let Some(Part::Value(schema)) = part {
        strip_schema(schema);
    }
}

/// The keywords whose value is a schema, a list of schemas, or a map of them.
const SUBSCHEMA: &[&str] =
    &["items", "additionalProperties", "not", "contains", "propertyNames", "if", "then", "else", "unevaluatedItems"];
const SCHEMA_LISTS: &[&str] = &["anyOf", "oneOf", "allOf", "prefixItems"];
const SCHEMA_MAPS: &[&str] = &["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];

/// Removes the `description` keyword (a string) of a JSON Schema and of its subschemas; a
/// property named `description` stays (it is a key of `properties`, not a keyword).
fn strip_schema(schema: &mut Json) {
    let Json::Object(map) = schema else { return };
    if matches!(map.get("description"), Some(Json::String(_))) {
        map.remove("description");
    }
    for (key, value) in map.iter_mut() {
        let key = key.as_str();
        if SUBSCHEMA.contains(&key) {
            match value {
                Json::Array(items) => items.iter_mut().for_each(strip_schema),
                other => strip_schema(other),
            }
        } else if SCHEMA_LISTS.contains(&key) {
            if let Json::Array(items) = value {
                items.iter_mut().for_each(strip_schema);
            }
        } else if SCHEMA_MAPS.contains(&key) {
            if let Json::Object(entries) = value {
                entries.iter_mut().for_each(|(_, s)| strip_schema(s));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::slot::{Argv, ArgvItem, Effect};
    use crate::{EventDecl, Machine, Origin, Slot, SlotKind, State, StateId, StateKind, Transition, Trigger};

    /// A toggle with a `run` Effect slot and a `go` event whose schema describes its fields.
    fn chart() -> Statechart {
        let mut root = State::new("".into(), StateKind::Compound, None);
        root.children = vec![StateId(1), StateId(2)];
        root.initial = Some(StateId(1));
        let schema: Json = serde_json::json!({
            "type": "object",
            "description": "what to run",
            "properties": {
                "description": { "type": "string", "description": "a field named description" },
                "n": { "anyOf": [{ "type": "number", "description": "a count" }, { "type": "null" }] }
            }
        })
        .into();
        let mut events = crate::FxIndexMap::default();
        events
            .insert("go".into(), EventDecl { description: Some("Go on.".into()), input: Some(schema), audience: None });
        let mut slots = crate::FxIndexMap::default();
        let effect = Effect {
            run: crate::slot::EffectRun::Command {
                argv: Argv::List(vec![ArgvItem::Literal("npm".into()), ArgvItem::Arg { arg: "script".into() }]),
                pin: false,
            },
            idempotent: false,
            timeout: Some(crate::slot::Part::Value(Json::from(60_000))),
            secrets: vec!["npm".into()],
            options: Default::default(),
            unread: Default::default(),
        };
        slots.insert(
            "run".into(),
            Slot {
                kind: SlotKind::Effect,
                effect: Some("command".into()),
                definition: Some(Definition::Effect(effect)),
            },
        );
        Statechart {
            id: "toggle".into(),
            origin: Origin::Machine,
            states: vec![
                root,
                State::new("off".into(), StateKind::Atomic, Some(StateId(0))),
                State::new("on".into(), StateKind::Atomic, Some(StateId(0))),
            ],
            transitions: vec![Transition {
                source: StateId(1),
                trigger: Trigger::Event("go".into()),
                targets: [StateId(2)].into_iter().collect(),
                guard: None,
                actions: vec![],
                reenter: false,
            }],
            events,
            slots,
            context: None,
            context_expr: None,
            output: None,
            implementations: Default::default(),
            workspace: None,
        }
    }

    fn id(c: &Statechart) -> Identity {
        Machine::lowered(c.clone()).identity()
    }

    fn effect(c: &mut Statechart) -> &mut Effect {
        match c.slots.get_mut("run").and_then(|s| s.definition.as_mut()) {
            Some(Definition::Effect(e)) => e,
            _ => unreachable!("the chart has its effect"),
        }
    }

    #[test]
    fn descriptions_do_not_change_the_identity() {
        let base = id(&chart());
        assert_eq!(base, id(&chart()), "the same IR, the same identity");
        let mut c = chart();
        c.events["go"].description = Some("Go on, now.".into());
        assert_eq!(id(&c), base, "an event's description");
        let mut c = chart();
        let Some(Json::Object(schema)) = &mut c.events["go"].input else { unreachable!() };
        schema.insert("description", Json::String("what to run, said otherwise".into()));
        assert_eq!(id(&c), base, "a schema's description");
    }

    #[test]
    fn what_runs_changes_the_identity() {
        let base = id(&chart());
        let mut target = chart();
        target.transitions[0].targets = [StateId(1)].into_iter().collect();
        let mut guard = chart();
        guard.transitions[0].guard = Some(crate::Guard::Named { name: "ready".into(), params: None });
        let mut argv = chart();
        effect(&mut argv).run = crate::slot::EffectRun::Command { argv: Argv::Open, pin: false };
        let mut timeout = chart();
        effect(&mut timeout).timeout = Some(crate::slot::Part::Value(Json::from(30_000)));
        let mut child = chart();
        child.slots.insert(
            "sub".into(),
            Slot { kind: SlotKind::Machine, effect: None, definition: Some(Definition::Machine(Box::new(chart()))) },
        );
        let with_child = id(&child);
        let mut changed_child = child.clone();
        let Some(Definition::Machine(sub)) = &mut changed_child.slots["sub"].definition else { unreachable!() };
        sub.transitions[0].reenter = true;
        // A property named `description` is data, not a description: it counts.
        let mut property = chart();
        let Some(Json::Object(schema)) = &mut property.events["go"].input else { unreachable!() };
        let Some(Json::Object(props)) = schema.iter_mut().find(|(k, _)| k.as_str() == "properties").map(|(_, v)| v)
        else {
            unreachable!()
        };
        props.remove("description");
        let ids =
            [base, id(&target), id(&guard), id(&argv), id(&timeout), with_child, id(&changed_child), id(&property)];
        let distinct: std::collections::BTreeSet<_> = ids.iter().collect();
        assert_eq!(distinct.len(), ids.len(), "{ids:?}");
    }

    #[test]
    fn an_identity_is_64_lowercase_hex_digits_and_reads_back() {
        let i = id(&chart());
        let text = i.to_string();
        assert_eq!(text.len(), 64);
        assert!(text.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)), "{text}");
        assert_eq!(text.parse::<Identity>(), Ok(i));
        assert_eq!(serde_json::to_value(i).unwrap(), serde_json::Value::String(text.clone()));
        assert_eq!(serde_json::from_value::<Identity>(serde_json::Value::String(text.to_uppercase())).unwrap(), i);
        assert!("abc".parse::<Identity>().is_err());
        assert!("g".repeat(64).parse::<Identity>().unwrap_err().contains("no hex digit"));
    }

    /// The form is versioned: the hash covers the version's prefix, so the same IR under another
    /// form's version would hash otherwise (here: the prefix alone is not the whole input).
    #[test]
    fn the_form_starts_with_its_version() {
        let mut hasher = Sha256::new();
        hasher.update(format!("jr2-ir/{IDENTITY_FORMAT}\n").as_bytes());
        let mut c = chart();
        strip_chart(&mut c);
        hasher.update(serde_json::to_vec(&c).unwrap());
        assert_eq!(Identity(hasher.finalize().into()), id(&chart()));
    }
}
