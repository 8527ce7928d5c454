//! The Assembly: the Workflows a server runs, by name, as `jr2 up` publishes them (`PUT
//! /assembly`) and `jr2 serve` loads them at start. Each holds its IR (shared, by identity), its
//! door (the JSON Schema of its `schemas.input`, compiled once), its `jr2 up` listing and, for a
//! Chart wrapper, its Open body's lend manifest (what the Chart door admits a Chart against).

use crate::error::Line;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::sync::Arc;

/// What a Workflow is to a client.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// A Machine that runs by itself.
    Machine,
    /// A Machine with an Open body: a run may bring its Chart (`{ chart }`).
    ChartWrapper,
    /// A named Chart, `wrapper/chart`, run in its wrapper's Open body.
    Chart,
}

/// One Workflow as `PUT /assembly` sends it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Published {
    pub name: String,
    /// Its executable IR (`jr2 ir`'s, without the identity field); `null` for a named Chart,
    /// which the runtime cannot run yet.
    #[serde(default)]
    pub ir: Option<ir::Machine>,
    /// Its door: the JSON Schema of its `schemas.input`, where it declares one.
    #[serde(default)]
    pub input: Option<Value>,
    /// Its `jr2 up --check --format json` listing entry.
    #[serde(default)]
    pub listing: Option<Value>,
}

/// A Workflow loaded.
pub struct Workflow {
    pub name: String,
    pub kind: Kind,
    /// Its IR loaded once for all its starts (its program and stored text); `None` for a named
    /// Chart.
    pub loaded: Option<host::Loaded>,
    /// The IR's identity (64 hex digits); empty without an IR.
    pub identity: String,
    pub input: Option<Value>,
    pub door: Option<jsonschema::Validator>,
    pub listing: Option<Value>,
    /// A Chart wrapper's first Open body's manifest.
    pub manifest: Option<kit::LendManifest>,
}

impl std::fmt::Debug for Workflow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Workflow")
            .field("name", &self.name)
            .field("kind", &self.kind)
            .field("identity", &self.identity)
            .finish()
    }
}

/// Is `name` a Workflow's name (`stem`) or a named Chart's (`wrapper/chart`)?
fn valid_name(name: &str) -> bool {
    let ok = |part: &str| {
        !part.is_empty()
            && part.len() <= 200
            && part != "."
            && part != ".."
            && part.chars().all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.'))
    };
    match name.split_once('/') {
        Some((w, c)) => ok(w) && ok(c),
        None => ok(name),
    }
}

impl Workflow {
    /// A Workflow from what was published, or what is wrong with it (paths under `at`).
    pub fn load(p: Published, at: &str) -> Result<Workflow, Vec<Line>> {
        let mut wrong = Vec::new();
        if !valid_name(&p.name) {
            wrong.push(Line::new(
                format!("{at}/name"),
                format!("{:?} is no Workflow name (`stem` or `wrapper/chart`)", p.name),
            ));
        }
        let named_chart = p.name.contains('/');
        if p.ir.is_none() && !named_chart {
            wrong.push(Line::new(format!("{at}/ir"), "a Workflow needs its IR"));
        }
        let door = match &p.input {
            Some(schema) if !schema.is_null() => match jsonschema::validator_for(schema) {
                Ok(v) => Some(v),
                Err(e) => {
                    wrong.push(Line::new(
                        format!("{at}/input"),
                        format!("the door is no JSON Schema this server reads: {e}"),
                    ));
                    None
                }
            },
            _ => None,
        };
        if !wrong.is_empty() {
            return Err(wrong);
        }
        let manifest = p.ir.as_ref().and_then(|m| {
            m.slots.values().find_map(|s| match s.definition.as_ref()? {
                ir::Definition::Open(o) => Some(o.manifest.clone()),
                _ => None,
            })
        });
        let kind = if named_chart {
            Kind::Chart
        } else if manifest.is_some() {
            Kind::ChartWrapper
        } else {
            Kind::Machine
        };
        let loaded = match p.ir.map(host::Loaded::new).transpose() {
            Ok(l) => l,
            Err(e) => return Err(vec![Line::new(format!("{at}/ir"), format!("the IR does not load: {e}"))]),
        };
        Ok(Workflow {
            identity: loaded.as_ref().map(|l| l.identity().to_string()).unwrap_or_default(),
            name: p.name,
            kind,
            loaded,
            input: p.input.filter(|v| !v.is_null()),
            door,
            listing: p.listing.filter(|v| !v.is_null()),
            manifest,
        })
    }

    /// The listing's list field `key` (`gates`, `effects`, `failing`), `[]` where it has none.
    pub fn listed(&self, key: &str) -> Value {
        self.listing.as_ref().and_then(|l| l.get(key)).cloned().unwrap_or_else(|| Value::Array(Vec::new()))
    }
}

/// The Workflows, by name.
#[derive(Debug, Default)]
pub struct Assembly {
    pub workflows: BTreeMap<String, Arc<Workflow>>,
}

impl Assembly {
    /// An Assembly of what was published, or every line of what is wrong with it.
    pub fn load(published: Vec<Published>) -> Result<Assembly, Vec<Line>> {
        let mut out = Assembly::default();
        let mut wrong = Vec::new();
        for (i, p) in published.into_iter().enumerate() {
            let at = format!("/workflows/{i}");
            if out.workflows.contains_key(&p.name) {
                wrong.push(Line::new(format!("{at}/name"), format!("{:?} is published twice", p.name)));
                continue;
            }
            match Workflow::load(p, &at) {
                Ok(w) => {
                    out.workflows.insert(w.name.clone(), Arc::new(w));
                }
                Err(lines) => wrong.extend(lines),
            }
        }
        if wrong.is_empty() {
            Ok(out)
        } else {
            Err(wrong)
        }
    }

    pub fn get(&self, name: &str) -> Option<&Arc<Workflow>> {
        self.workflows.get(name)
    }
}
