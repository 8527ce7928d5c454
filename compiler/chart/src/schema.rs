//! The Chart grammar as JSON Schema (Draft 2020-12): whole (`grammar/chart.schema.json`), or
//! narrowed to one Open body (`chartSchemaFor`).
//!
//! The whole grammar is generated with schemars from the types of `chart::grammar`; its root
//! description is the whole briefing. The narrowed grammar is the same schema with a few `$defs`
//! replaced: each narrowable part of the grammar is its own definition, so narrowing is a
//! transform of the generated JSON, and the two can never drift apart.

use crate::briefing::chart_briefing;
use crate::grammar::{
    ChartText, DURATION_PATTERN, FAILURE_GUARD, READY_GUARD, SRC_DESCRIPTION, SRC_DESCRIPTION_NO_FAIL,
};
use kit::lends::Declaration;
use schemars::generate::SchemaSettings;
use serde_json::{json, Value};

/// The whole Chart grammar, generated from the Rust types of `chart::grammar`.
pub fn chart_schema() -> Value {
    let generator = SchemaSettings::draft2020_12().into_generator();
    let mut schema = generator.into_root_schema_for::<ChartText>().to_value();
    tidy(&mut schema);
    if let Some(root) = schema.as_object_mut() {
        root.insert("description".into(), Value::String(chart_briefing(None)));
        // `$schema`, `title` and `description` first: what a reader of the file meets first.
        let mut ordered = serde_json::Map::new();
        for key in ["$schema", "title", "description"] {
            if let Some(v) = root.remove(key) {
                ordered.insert(key.into(), v);
            }
        }
        ordered.append(root);
        *root = ordered;
    }
    schema
}

/// The grammar narrowed to one Open body: the lent `src` names, guard, action and delay names,
/// and the allowed models and Workspace accesses as enums (the seed's `chartSchemaFor`).
///
/// `src` is the lent names (Agents, Effects, Machines, then `gate` and `fail` where lent) as an
/// enum; where the body allows a model, so the Chart can mint Agents, it is that enum or any name
/// (a key of this Chart's own `agents`, which no static schema can list): the seed's
/// `enumOf(narrow.srcs)` beside its minted names.
pub fn chart_schema_for(decl: &Declaration) -> Value {
    let mut schema = chart_schema();
    let lends = &decl.lends;
    let mut srcs: Vec<&str> = Vec::new();
    srcs.extend(lends.agents.iter().map(String::as_str));
    srcs.extend(lends.effects.iter().map(String::as_str));
    srcs.extend(lends.machines.iter().map(String::as_str));
    if lends.gate {
        srcs.push("gate");
    }
    if lends.fail {
        srcs.push("fail");
    }
    let src_description = if lends.fail { SRC_DESCRIPTION } else { SRC_DESCRIPTION_NO_FAIL };
    let mints = !decl.allows.models.is_empty();
    let src = if mints {
        json!({
            "description": src_description,
            "anyOf": [enum_of(&srcs), { "$ref": "#/$defs/Name" }],
        })
    } else {
        with_description(enum_of(&srcs), src_description)
    };

    let guards: Vec<&str> = lends.guards.iter().map(String::as_str).collect();
    let mut named_guards = guards.clone();
    named_guards.extend([FAILURE_GUARD, READY_GUARD]);
    let actions: Vec<&str> = lends.actions.iter().map(String::as_str).collect();
    let delays: Vec<&str> = lends.delays.iter().map(String::as_str).collect();
    let models: Vec<&str> = decl.allows.models.iter().map(String::as_str).collect();
    let workspace: Vec<&str> = decl.allows.workspace.iter().map(|w| w.as_str()).collect();

    let replace = |defs: &mut serde_json::Map<String, Value>, name: &str, new: Value| {
        let description = defs.get(name).and_then(|d| d.get("description")).cloned();
        let new = match description {
            Some(Value::String(d)) if new.get("description").is_none() => with_description(new, &d),
            _ => new,
        };
        defs.insert(name.to_string(), new);
    };
    if let Some(defs) = schema.get_mut("$defs").and_then(Value::as_object_mut) {
        replace(defs, "Src", src);
        replace(defs, "GuardName", enum_of(&named_guards));
        replace(defs, "ParamGuardName", enum_of(&guards));
        replace(defs, "ActionName", enum_of(&actions));
        replace(
            defs,
            "Delay",
            json!({ "anyOf": [enum_of(&delays), { "type": "string", "pattern": DURATION_PATTERN }] }),
        );
        replace(defs, "Model", enum_of(&models));
        replace(defs, "Workspace", enum_of(&workspace));
    }
    if let Some(root) = schema.as_object_mut() {
        root.insert("description".into(), Value::String(chart_briefing(Some(decl))));
    }
    schema
}

/// Tidies what schemars generates. schemars lets an optional `Option` field be `null`; the
/// grammar does not (the seed's zod `.optional()` takes an absent key, never `null`), so every
/// property schema loses its `null` arm. And doc comments wrap where a description does not: each
/// line break of one becomes a space.
fn tidy(schema: &mut Value) {
    match schema {
        Value::Object(obj) => {
            if let Some(Value::String(d)) = obj.get_mut("description") {
                *d = d.replace('\n', " ");
            }
            if let Some(Value::Object(props)) = obj.get_mut("properties") {
                for prop in props.values_mut() {
                    strip_null(prop);
                }
            }
            obj.values_mut().for_each(tidy);
        }
        Value::Array(items) => items.iter_mut().for_each(tidy),
        _ => {}
    }
}

fn strip_null(prop: &mut Value) {
    let Some(obj) = prop.as_object_mut() else { return };
    let is_null = |v: &Value| v.get("type").and_then(Value::as_str) == Some("null");
    if let Some(Value::Array(arms)) = obj.get_mut("anyOf") {
        if arms.len() == 2 && arms.iter().any(is_null) {
            arms.retain(|a| !is_null(a));
            let only = arms.pop().unwrap_or(Value::Null);
            obj.remove("anyOf");
            if let Value::Object(only) = only {
                let rest = std::mem::take(obj);
                *obj = only;
                obj.extend(rest);
            }
        }
    }
    if let Some(Value::Array(types)) = obj.get_mut("type") {
        types.retain(|t| t != "null");
        if types.len() == 1 {
            let t = types.pop().unwrap_or(Value::Null);
            obj.insert("type".into(), t);
        }
    }
}

/// The seed's `enumOf`: a string enum of the names, each once, or a schema nothing matches.
/// One pass with a set of the names seen (a scan of the list kept so far for each name was
/// quadratic: 200 000 lent Agents took 48 s).
fn enum_of(names: &[&str]) -> Value {
    let mut set = std::collections::HashSet::with_capacity(names.len());
    let seen: Vec<&str> = names.iter().copied().filter(|n| set.insert(*n)).collect();
    if seen.is_empty() {
        json!({ "not": {} })
    } else {
        json!({ "type": "string", "enum": seen })
    }
}

fn with_description(mut schema: Value, description: &str) -> Value {
    if let Some(obj) = schema.as_object_mut() {
        let mut out = serde_json::Map::new();
        out.insert("description".into(), Value::String(description.to_string()));
        out.append(obj);
        *obj = out;
    }
    schema
}

/// Charts the tests of the grammar, its schema and its rule (`check::rules::chart::grammar`) share.
#[doc(hidden)]
pub mod tests_support {
    /// The Chart of `CONTRACT.md`, "The Chart text".
    pub const CONTRACT_EXAMPLE: &str = r#"{
  "id": "notes",
  "initial": "drafting",
  "context": { "round": 0 },
  "events": {
    "done":   { "description": "The draft is ready.", "input": { "type": "object", "properties": {}, "required": [] } },
    "answer": { "description": "A person's answer.", "audience": "external",
                "input": { "type": "object", "properties": { "ok": { "type": "boolean" } }, "required": ["ok"] } }
  },
  "agents": { "critic": { "model": "anthropic/claude-haiku-5-5", "instructions": "You critique drafts.", "workspace": "none" } },
  "states": {
    "drafting": {
      "invoke": [{ "src": "writer", "input": { "prompt": "Draft notes on {{input.topic}}." } }, { "src": "gate", "id": "editor" }],
      "on": { "done": [{ "guard": { "type": "jr2.sentBy", "params": { "id": "writer" } }, "target": "review" }, { "target": "published" }],
              "answer": [{ "guard": "approved", "target": "published" }, { "target": "drafting", "reenter": true }] }
    },
    "review":    { "invoke": { "src": "critic", "input": { "prompt": "Review the draft." } }, "on": { "done": "published" } },
    "published": { "type": "final" }
  }
}"#;

    /// Charts the grammar admits.
    pub const GOOD: &[&str] = &[
        CONTRACT_EXAMPLE,
        r#"{ "states": { "a": { "type": "final" } } }"#,
        r#"{ "type": "parallel", "states": { "left": { "states": { "x": {} } }, "right": { "initial": "y", "states": { "y": { "type": "final", "output": { "n": { "$ref": "context.round" } } } } } } }"#,
        r#"{ "states": { "a": { "after": { "30s": "b", "500ms": { "target": "b" }, "1000": "b", "soon": ["b"] } }, "b": { "type": "final" } } }"#,
        r#"{ "states": { "a": { "always": [{ "guard": { "not": { "and": ["ok", { "or": [{ "type": "green", "params": { "n": 1 } }, "jr2.failure"] }] } }, "target": "b" }, "b"] }, "b": { "type": "final" } } }"#,
        r#"{ "states": { "a": { "invoke": { "src": "cut", "input": { "path": "/work/app/x", "branch": "x" },
              "onDone": [{ "guard": { "type": "jr2.ready" }, "target": "b" }, { "target": "c" }],
              "onError": { "guard": { "type": "jr2.failure" }, "target": "c", "actions": ["note", { "type": "note", "params": "{{event.x}}" }] } } },
            "b": { "entry": { "assign": { "round": 1, "ticket.notes": { "$ref": "event.text" } } }, "exit": "note", "type": "final" },
            "c": { "type": "final", "output": [1, "two", null, { "a": { "$ref": "input.topic" } }] } } }"#,
        r##"{ "id": "x", "description": "d", "initial": "a", "on": { "agent.fault": "#x.b" }, "after": { "1h": ".a" }, "always": [], "onDone": "a",
            "invoke": [], "entry": [], "exit": [{ "type": "n" }], "output": "{{context.round}}", "context": { "$ref": 1 },
            "states": { "a": { "id": "the-a", "description": "d", "on": {}, "states": { "x": { "type": "final" } }, "onDone": { "target": "b", "reenter": false, "description": "d" } }, "b": { "type": "final" } } }"##,
        r#"{ "events": { "go": { "input": {}, "audience": "agent" } }, "agents": {}, "states": { "a": { "invoke": { "src": "gate", "id": "g_1", "input": { "gate": "x", "meta": {} } } } } }"#,
    ];

    /// Charts the grammar refuses, each with a piece of the message the rule writes.
    pub const BAD: &[(&str, &str)] = &[
        (r#"[]"#, "(chart): expected a Chart object, got array"),
        (r#"{}"#, r#"(chart): missing required key "states""#),
        (r#"{ "states": {} }"#, "states: a Chart has at least one state"),
        (
            r#"{ "states": { "a": { "type": "finall" } } }"#,
            r#"states.a.type: expected "parallel" or "final", got "finall""#,
        ),
        (r#"{ "states": { "a": { "onDon": "b" } } }"#, r#"states.a: unknown key "onDon"; did you mean "onDone"?"#),
        (r#"{ "type": "final", "states": { "a": {} } }"#, r#"type: expected "parallel", got "final""#),
        (r#"{ "states": { "a.b": {} } }"#, r#"states.a.b: "a.b" is not a name"#),
        (r#"{ "states": { "a": { "invoke": { "id": "x" } } } }"#, r#"states.a.invoke: missing required key "src""#),
        (
            r#"{ "states": { "a": { "invoke": [{ "src": 3 }] } } }"#,
            "states.a.invoke.0.src: expected a string, got number",
        ),
        (
            r#"{ "states": { "a": { "on": { "go": { "guard": "jr2.sentBy" } } } } }"#,
            r#"states.a.on.go.guard: "jr2.sentBy" takes params { id }"#,
        ),
        (
            r#"{ "states": { "a": { "on": { "go": { "guard": { "type": "jr2.failure", "params": {} } } } } } }"#,
            "states.a.on.go.guard.params: that guard takes no params",
        ),
        (
            r#"{ "states": { "a": { "on": { "go": { "guard": { "type": "jr2.sentBy" } } } } } }"#,
            r#"states.a.on.go.guard.type: "jr2.sentBy" takes params { id }"#,
        ),
        (
            r#"{ "states": { "a": { "on": { "go": { "guard": { "type": "jr2.sentBy", "params": { "id": 1 } } } } } } }"#,
            "states.a.on.go.guard.params.id: expected a string, got number",
        ),
        (
            r#"{ "states": { "a": { "on": { "go": { "guard": { "nor": [] } } } } } }"#,
            "states.a.on.go.guard: a guard object has",
        ),
        (
            r#"{ "states": { "a": { "on": { "go": 5 } } } }"#,
            "states.a.on.go: expected a target string, a transition object or a list of them, got number",
        ),
        (
            r#"{ "states": { "a": { "on": { "go": [["b"]] } } } }"#,
            "states.a.on.go.0: expected a target string or a transition object, got array",
        ),
        (r#"{ "states": { "a": { "after": { "5d": "b" } } } }"#, r#"states.a.after.5d: "5d" is not a delay"#),
        (
            r#"{ "states": { "a": { "entry": { "assign": { "context.round": 1 } } } } }"#,
            r#"states.a.entry.assign.context.round: "context.round" is not a context path"#,
        ),
        (r#"{ "states": { "a": { "entry": { "kind": "x" } } } }"#, "states.a.entry: an action object has"),
        (
            r#"{ "states": { "a": { "entry": [["x"]] } } }"#,
            "states.a.entry.0: expected an action name or an action object, got array",
        ),
        (
            r#"{ "states": { "a": { "output": 1 } } }"#,
            r#"states.a.output: only a state with "type": "final" has output"#,
        ),
        (
            r#"{ "states": { "a": { "type": "final", "output": { "$ref": "context.x", "y": 1 } } } }"#,
            "states.a.output: a reference is exactly",
        ),
        (
            r#"{ "states": { "a": { "type": "final", "output": [{ "$ref": 1 }] } } }"#,
            "states.a.output.0.$ref: expected a string, got number",
        ),
        (
            r#"{ "events": { "go": { "input": true } }, "states": { "a": {} } }"#,
            "events.go.input: expected a JSON Schema object, got boolean",
        ),
        (
            r#"{ "events": { "go": { "input": {}, "audience": "human" } }, "states": { "a": {} } }"#,
            r#"events.go.audience: expected "agent" or "external", got "human""#,
        ),
        (r#"{ "events": { "go": {} }, "states": { "a": {} } }"#, r#"events.go: missing required key "input""#),
        (
            r#"{ "agents": { "x": { "model": "m", "instructions": "i", "workspace": "all" } }, "states": { "a": {} } }"#,
            r#"agents.x.workspace: expected "none", "read" or "write", got "all""#,
        ),
        (
            r#"{ "agents": { "x": { "model": "m" } }, "states": { "a": {} } }"#,
            r#"agents.x: missing required key "instructions""#,
        ),
        (r#"{ "context": [], "states": { "a": {} } }"#, "context: expected an object, got array"),
        (r#"{ "states": { "a": { "states": {} } } }"#, "states.a.states: a state with `states` has at least one"),
        (r#"{ "states": { "a": { "on": { "": "b" } } } }"#, "states.a.on: an event name is not empty"),
        (
            r#"{ "states": { "a": { "invoke": { "src": "x", "id": "a b" } } } }"#,
            r#"states.a.invoke.id: "a b" is not a name"#,
        ),
        (
            r#"{ "states": { "a": { "on": { "go": { "reenter": "yes" } } } } }"#,
            r#"states.a.on.go.reenter: expected a boolean, got "yes""#,
        ),
        (r#"{ "initial": 1, "states": { "a": {} } }"#, "initial: expected a name, got number"),
    ];
}

#[cfg(test)]
mod tests {
    use super::tests_support::{BAD, GOOD};
    use super::*;
    use kit::lends::{Allows, Lends, WorkspaceAccess};
    use std::path::PathBuf;

    fn committed_path() -> PathBuf {
        base::workspace::root().join("grammar/chart.schema.json")
    }

    fn pretty(v: &Value) -> String {
        serde_json::to_string_pretty(v).unwrap() + "\n"
    }

    fn lending() -> Declaration {
        let s = |xs: &[&str]| xs.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        Declaration {
            lends: Lends {
                agents: s(&["writer"]),
                effects: s(&["tests", "cut", "publish"]),
                guards: s(&["green", "approved"]),
                actions: s(&["note"]),
                delays: s(&["soon"]),
                gate: true,
                fail: true,
                ..Lends::default()
            },
            allows: Allows {
                models: s(&["anthropic/claude-haiku-5-5"]),
                workspace: vec![WorkspaceAccess::None, WorkspaceAccess::Read, WorkspaceAccess::Write],
            },
            ..Declaration::default()
        }
    }

    #[test]
    fn committed_schema_is_current() {
        let want = pretty(&chart_schema());
        let path = committed_path();
        if std::env::var_os("JR2_BLESS").is_some() {
            std::fs::write(&path, &want).unwrap();
            return;
        }
        let have = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            have == want,
            "grammar/chart.schema.json differs from chart_schema(); run `JR2_BLESS=1 cargo test -p jr2-compiler --lib chart::schema` to rewrite it"
        );
    }

    #[test]
    fn schemas_are_draft_2020_12() {
        let whole = chart_schema();
        assert_eq!(whole["$schema"], "https://json-schema.org/draft/2020-12/schema");
        jsonschema::draft202012::meta::validate(&whole).expect("the whole grammar is a Draft 2020-12 schema");
        for decl in [lending(), Declaration::default()] {
            let narrowed = chart_schema_for(&decl);
            jsonschema::draft202012::meta::validate(&narrowed).expect("a narrowed grammar is a Draft 2020-12 schema");
        }
    }

    #[test]
    fn root_description_is_the_briefing() {
        assert_eq!(chart_schema()["description"], chart_briefing(None));
        let decl = lending();
        assert_eq!(chart_schema_for(&decl)["description"], chart_briefing(Some(&decl)));
    }

    #[test]
    fn good_charts_pass_and_bad_ones_fail() {
        let validator = jsonschema::draft202012::new(&chart_schema()).unwrap();
        for text in GOOD {
            let chart: Value = serde_json::from_str(text).unwrap();
            let errors: Vec<String> = validator.iter_errors(&chart).map(|e| e.to_string()).collect();
            assert!(errors.is_empty(), "{text}\n{errors:#?}");
        }
        for (text, _) in BAD {
            let chart: Value = serde_json::from_str(text).unwrap();
            assert!(!validator.is_valid(&chart), "should fail: {text}");
        }
    }

    #[test]
    fn narrowed_schema_admits_only_lent_names() {
        let narrowed = chart_schema_for(&lending());
        let v = jsonschema::draft202012::new(&narrowed).unwrap();
        let ok = |t: &str| v.is_valid(&serde_json::from_str::<Value>(t).unwrap());
        // The contract's example: writer, gate and minted critic; guard `approved` is lent here.
        assert!(ok(super::tests_support::CONTRACT_EXAMPLE));
        assert!(ok(
            r#"{ "states": { "a": { "invoke": { "src": "fail", "input": { "reason": "no" } }, "after": { "soon": "b", "5m": "b" } }, "b": { "type": "final" } } }"#
        ));
        assert!(ok(
            r#"{ "states": { "a": { "on": { "x": { "guard": "jr2.ready", "actions": { "type": "note" } } } } } }"#
        ));
        assert!(!ok(r#"{ "states": { "a": { "on": { "x": { "guard": "red" } } } } }"#));
        assert!(!ok(r#"{ "states": { "a": { "on": { "x": { "guard": { "type": "red", "params": 1 } } } } } }"#));
        assert!(!ok(r#"{ "states": { "a": { "entry": "shout" } } }"#));
        assert!(!ok(r#"{ "states": { "a": { "after": { "later": "a" } } } }"#));
        assert!(!ok(
            r#"{ "agents": { "c": { "model": "openai/x", "instructions": "i", "workspace": "none" } }, "states": { "a": {} } }"#
        ));

        // Nothing lent, no model: no src at all, no minted Agent.
        let bare = jsonschema::draft202012::new(&chart_schema_for(&Declaration::default())).unwrap();
        let bare_ok = |t: &str| bare.is_valid(&serde_json::from_str::<Value>(t).unwrap());
        assert!(bare_ok(r#"{ "agents": {}, "states": { "a": { "type": "final" } } }"#));
        assert!(!bare_ok(r#"{ "states": { "a": { "invoke": { "src": "writer" } } } }"#));
        assert!(!bare_ok(r#"{ "states": { "a": { "invoke": { "src": "gate" } } } }"#));
        assert!(!bare_ok(
            r#"{ "agents": { "c": { "model": "m", "instructions": "i", "workspace": "none" } }, "states": { "a": {} } }"#
        ));
    }

    /// The example of `docs/reference/chart-grammar.md` is a Chart the grammar's schema admits (and
    /// the rule `chart-grammar`, `check::rules::chart::grammar`'s test).
    #[test]
    fn the_reference_example_is_a_chart() {
        let doc = std::fs::read_to_string(base::workspace::root().join("docs/reference/chart-grammar.md")).unwrap();
        let start = doc.find("```json\n").expect("an example") + "```json\n".len();
        let end = start + doc[start..].find("```").unwrap();
        let chart: Value = serde_json::from_str(&doc[start..end]).unwrap();
        let validator = jsonschema::draft202012::new(&chart_schema()).unwrap();
        assert!(validator.is_valid(&chart));
    }

    #[test]
    fn narrowed_src_description_follows_fail() {
        let mut decl = lending();
        assert_eq!(chart_schema_for(&decl)["$defs"]["Src"]["description"], SRC_DESCRIPTION);
        decl.lends.fail = false;
        let narrowed = chart_schema_for(&decl);
        assert_eq!(narrowed["$defs"]["Src"]["description"], SRC_DESCRIPTION_NO_FAIL);
        assert_eq!(narrowed["$defs"]["Src"]["anyOf"][0]["enum"], json!(["writer", "tests", "cut", "publish", "gate"]));
        assert_eq!(chart_schema()["$defs"]["Src"]["description"], SRC_DESCRIPTION);
    }
}
