//! [`Notes`] from the JSON documents that say what the IR does not: `jr2 parts`'s (a Machine's
//! carried parts), a lend manifest's, a Chart's own. Read as JSON, the documented shapes, so that
//! this crate knows no front end; a field that is not there is a note not taken.

use crate::Notes;
use serde_json::Value;

/// Is this a part of the Machine's own top level (`path: []`, or no path)?
fn top_level(part: &Value) -> bool {
    part.get("path").and_then(Value::as_array).is_none_or(|p| p.is_empty())
}

fn items<'a>(doc: &'a Value, key: &str) -> impl Iterator<Item = &'a Value> {
    doc.get(key).and_then(Value::as_array).into_iter().flatten().filter(|p| top_level(p))
}

fn text(v: Option<&Value>) -> Option<String> {
    v.and_then(Value::as_str).map(str::to_string)
}

impl Notes {
    /// From a Machine's carried parts, as `jr2 parts` prints them: each top-level Agent's
    /// `definition.model`, each Effect's `placement`, each Open body's `slot`. (A child Machine's
    /// own slots are drawn in its own picture.)
    pub fn from_parts(parts: &Value) -> Notes {
        let mut notes = Notes::default();
        for a in items(parts, "agents") {
            if let Some(slot) = text(a.get("slot")) {
                notes.slots.entry(slot).or_default().model = text(a.get("definition").and_then(|d| d.get("model")));
            }
        }
        for e in items(parts, "effects") {
            if let Some(name) = text(e.get("name")) {
                notes.slots.entry(name).or_default().placement = text(e.get("placement"));
            }
        }
        for o in items(parts, "openBodies") {
            if let Some(slot) = text(o.get("slot")) {
                notes.slots.entry(slot).or_default().open = true;
            }
        }
        notes
    }

    /// For a Chart run in an Open body: the Open bodies of its wrapper are not the Chart's, and
    /// the lend manifest's `lent.agents.<slot>.model` names the lent Agents' models.
    pub fn lend(&mut self, manifest: &Value) {
        for slot in self.slots.values_mut() {
            slot.open = false;
        }
        if let Some(Value::Object(agents)) = manifest.get("lent").and_then(|l| l.get("agents")) {
            for (slot, def) in agents {
                self.slots.entry(slot.clone()).or_default().model = text(def.get("model"));
            }
        }
    }

    /// A Chart's own minted Agents: `agents.<slot>.model`.
    pub fn mint(&mut self, chart: &Value) {
        if let Some(Value::Object(agents)) = chart.get("agents") {
            for (slot, def) in agents {
                self.slots.entry(slot.clone()).or_default().model = text(def.get("model"));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn notes_come_from_the_top_level_parts_the_manifest_and_the_chart() {
        let parts = json!({
            "agents": [
                { "slot": "writer", "path": [], "definition": { "model": "m/a" } },
                { "slot": "inner", "path": ["child"], "definition": { "model": "m/b" } }
            ],
            "effects": [{ "name": "post", "path": [], "kind": "http", "placement": "instance" }],
            "openBodies": [{ "slot": "plan", "path": [] }]
        });
        let mut notes = Notes::from_parts(&parts);
        assert_eq!(notes.slots["writer"].model.as_deref(), Some("m/a"));
        assert!(!notes.slots.contains_key("inner"));
        assert_eq!(notes.slots["post"].placement.as_deref(), Some("instance"));
        assert!(notes.slots["plan"].open);
        notes.lend(&json!({ "lent": { "agents": { "writer": { "model": "m/c" } } } }));
        notes.mint(&json!({ "agents": { "critic": { "model": "m/d" } } }));
        assert!(!notes.slots["plan"].open);
        assert_eq!(notes.slots["writer"].model.as_deref(), Some("m/c"));
        assert_eq!(notes.slots["critic"].model.as_deref(), Some("m/d"));
    }
}
