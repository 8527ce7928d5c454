//! A JSON value as the IR keeps one, the IR's one JSON type (a JSON Schema it made, an event's
//! `input` rendered from zod; a literal; a Machine's initial `context`): an object is its entries
//! in order in one list (no hash map: a schema's objects have a handful of keys, looked up
//! rarely), a string is inline up to 24 bytes ([`Name`]).
//!
//! It serializes exactly as the same `serde_json::Value` (with `preserve_order`) does, key order
//! included, so the IR's JSON does not depend on which of the two holds a schema; it converts from
//! and into `serde_json::Value` for readers that want that type.
//!
//! Invariant: an object holds each key once (`JsonMap::insert` replaces a key's value in place,
//! as `serde_json::Map` does).

use super::Name;
use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A JSON value (see the module's doc).
#[derive(Clone, Debug, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    Number(serde_json::Number),
    String(Name),
    Array(Vec<Json>),
    Object(JsonMap),
}

/// A JSON object: its entries in insertion order, each key once.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct JsonMap(Vec<(Name, Json)>);

impl JsonMap {
    pub fn new() -> Self {
        JsonMap(Vec::new())
    }

    pub fn with_capacity(n: usize) -> Self {
        JsonMap(Vec::with_capacity(n))
    }

    /// Adds an entry whose key the caller knows is not there yet (the keys of a value-model object,
    /// of a lowered object, of a zod shape: each unique by its maker's invariant). No search, so
    /// an object of many keys is built in linear time, as with `serde_json::Map`.
    pub fn push(&mut self, key: impl Into<Name>, value: Json) {
        self.0.push((key.into(), value));
    }

    /// Sets `key` to `value`: in its place if the key is there, else at the end (a scan: for the
    /// few keys of a schema object written one by one).
    pub fn insert(&mut self, key: impl Into<Name>, value: Json) {
        let key = key.into();
        match self.0.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => slot.1 = value,
            None => self.0.push((key, value)),
        }
    }

    pub fn get(&self, key: &str) -> Option<&Json> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// Removes `key`'s entry, keeping the others' order; its value, where it was there.
    pub fn remove(&mut self, key: &str) -> Option<Json> {
        let i = self.0.iter().position(|(k, _)| k == key)?;
        Some(self.0.remove(i).1)
    }

    /// The entries, their values writable.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (&Name, &mut Json)> {
        self.0.iter_mut().map(|(k, v)| (&*k, v))
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    pub fn keys(&self) -> impl Iterator<Item = &Name> {
        self.0.iter().map(|(k, _)| k)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&Name, &Json)> {
        self.0.iter().map(|(k, v)| (k, v))
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl IntoIterator for JsonMap {
    type Item = (Name, Json);
    type IntoIter = std::vec::IntoIter<(Name, Json)>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl Json {
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }
}

impl From<i64> for Json {
    fn from(n: i64) -> Self {
        Json::Number(n.into())
    }
}

impl From<serde_json::Value> for Json {
    fn from(v: serde_json::Value) -> Self {
        use serde_json::Value as J;
        match v {
            J::Null => Json::Null,
            J::Bool(b) => Json::Bool(b),
            J::Number(n) => Json::Number(n),
            J::String(s) => Json::String(s.into()),
            J::Array(items) => Json::Array(items.into_iter().map(Json::from).collect()),
            J::Object(m) => {
                let mut out = JsonMap::with_capacity(m.len());
                for (k, v) in m {
                    out.push(k, v.into());
                }
                Json::Object(out)
            }
        }
    }
}

impl From<Json> for serde_json::Value {
    fn from(v: Json) -> Self {
        use serde_json::Value as J;
        match v {
            Json::Null => J::Null,
            Json::Bool(b) => J::Bool(b),
            Json::Number(n) => J::Number(n),
            Json::String(s) => J::String(s.into_string()),
            Json::Array(items) => J::Array(items.into_iter().map(J::from).collect()),
            Json::Object(m) => {
                let mut out = serde_json::Map::with_capacity(m.len());
                for (k, v) in m {
                    out.insert(k.into_string(), v.into());
                }
                J::Object(out)
            }
        }
    }
}

impl Serialize for Json {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Json::Null => s.serialize_unit(),
            Json::Bool(b) => s.serialize_bool(*b),
            Json::Number(n) => n.serialize(s),
            Json::String(v) => s.serialize_str(v),
            Json::Array(items) => {
                let mut seq = s.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Json::Object(m) => {
                let mut map = s.serialize_map(Some(m.len()))?;
                for (k, v) in &m.0 {
                    map.serialize_entry(k.as_str(), v)?;
                }
                map.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for Json {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        serde_json::Value::deserialize(d).map(Json::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A value serializes as the same `serde_json::Value` does, key order and numbers included,
    /// compact and pretty, and goes there and back unchanged.
    #[test]
    fn serializes_as_serde_json_does() {
        let v = json!({
            "type": "object",
            "properties": { "b": { "type": "integer", "minimum": -3, "maximum": 2.5 }, "a": { "enum": ["x", null, true] } },
            "required": ["b"],
            "description": "a string longer than twenty-four bytes, on the heap",
            "additionalProperties": false,
            "nested": [[], {}, [{ "z": 1, "y": 2 }]]
        });
        let j = Json::from(v.clone());
        assert_eq!(serde_json::to_string(&j).unwrap(), serde_json::to_string(&v).unwrap());
        assert_eq!(serde_json::to_string_pretty(&j).unwrap(), serde_json::to_string_pretty(&v).unwrap());
        assert_eq!(serde_json::Value::from(j.clone()), v);
        let back: Json = serde_json::from_str(&serde_json::to_string(&j).unwrap()).unwrap();
        assert_eq!(back, j);
    }

    /// A key set again keeps its place and takes the new value, as in `serde_json::Map`.
    #[test]
    fn a_key_set_again_keeps_its_place() {
        let mut m = JsonMap::new();
        m.insert("a", Json::from(1));
        m.insert("b", Json::from(2));
        m.insert("a", Json::from(3));
        let mut s = serde_json::Map::new();
        s.insert("a".into(), json!(1));
        s.insert("b".into(), json!(2));
        s.insert("a".into(), json!(3));
        assert_eq!(serde_json::to_string(&Json::Object(m)).unwrap(), serde_json::to_string(&s).unwrap());
    }
}
