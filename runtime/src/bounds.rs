//! Bounds on a run's context: its size written out and its depth. A context that passes one ends
//! the run `error`, naming the bound, at the action that made it (an `assign`, a location's
//! assignment, a `foreach` item): a Machine that doubles a string or an array on each event, or
//! nests the context in itself, stops there instead of taking the host's memory.
//!
//! The size is the context's JSON as `JSON.stringify` would write it (what every reader of a
//! snapshot walks), measured without writing it: a value shared in several places counts in each
//! (so `{ a: x, b: x }` repeated is caught although it shares), and a shared subtree is measured
//! once and its size reused, so that the walk stays linear in the values the run holds.

use ir::eval::JsValue;
use std::collections::HashMap;
use std::sync::Arc;

/// A context's bounds ([`crate::Runtime::bounds`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// Its size as JSON, in bytes (16 MiB by default).
    pub context_bytes: usize,
    /// How deeply its arrays and objects nest (64 by default: a snapshot's stored form nests a
    /// little more, and stays within what JSON readers take).
    pub context_depth: usize,
}

impl Default for Bounds {
    fn default() -> Bounds {
        Bounds { context_bytes: 16 << 20, context_depth: 64 }
    }
}

impl Bounds {
    /// Why the context passes a bound, or `None` where it is within both.
    pub(crate) fn check(&self, context: &JsValue) -> Option<String> {
        let mut walk = Walk { bounds: *self, sizes: HashMap::new() };
        match walk.size(context, 1) {
            Ok(_) => None,
            Err(Over::Bytes) => Some(format!(
                "the context grew past its bound of {} bytes (as JSON): a run's context is bounded (`Bounds::context_bytes`)",
                self.context_bytes
            )),
            Err(Over::Depth) => Some(format!(
                "the context nests deeper than its bound of {} levels: a run's context is bounded (`Bounds::context_depth`)",
                self.context_depth
            )),
        }
    }
}

enum Over {
    Bytes,
    Depth,
}

struct Walk {
    bounds: Bounds,
    /// The size of each array or object measured so far, by address (a shared one is measured
    /// once), with the depth it was measured at: one met deeper is measured again.
    sizes: HashMap<usize, (usize, usize)>,
}

impl Walk {
    fn size(&mut self, v: &JsValue, depth: usize) -> Result<usize, Over> {
        // A value held once (its count is 1) is met once in the walk: only shared ones are
        // remembered, so that measuring an unshared context allocates nothing.
        let (key, items, shared) = match v {
            JsValue::Undefined => return Ok(0),
            JsValue::Null | JsValue::Bool(_) => return Ok(5),
            JsValue::Number(_) => return Ok(8),
            JsValue::String(s) => return self.within(s.len() + 2),
            JsValue::Array(items) => {
                (Arc::as_ptr(items) as *const u8 as usize, items.len(), Arc::strong_count(items) > 1)
            }
            JsValue::Object(props) => {
                (Arc::as_ptr(props) as *const u8 as usize, props.len(), Arc::strong_count(props) > 1)
            }
        };
        if depth > self.bounds.context_depth {
            return Err(Over::Depth);
        }
        // Only a shared value is looked up (most are not: no hash per value).
        if let Some(&(size, at)) = shared.then(|| self.sizes.get(&key)).flatten() {
            if depth <= at {
                // Measured at this depth or deeper before: its subtree fits below here too.
                return Ok(size);
            }
        }
        let mut size = 2 + items;
        match v {
            JsValue::Array(items) => {
                for x in items.iter() {
                    size = size.saturating_add(self.size(x, depth + 1)?);
                }
            }
            JsValue::Object(props) => {
                for (k, x) in props.iter() {
                    size = size.saturating_add(k.len() + 3).saturating_add(self.size(x, depth + 1)?);
                }
            }
            _ => {}
        }
        // Checked once a container is measured (each item's own check is within it): the walk is
        // linear in what the run holds, so it stops at the first container past the bound.
        self.within(size)?;
        if shared {
            self.sizes.insert(key, (size, depth));
        }
        Ok(size)
    }

    fn within(&self, size: usize) -> Result<usize, Over> {
        if size > self.bounds.context_bytes {
            return Err(Over::Bytes);
        }
        Ok(size)
    }
}
