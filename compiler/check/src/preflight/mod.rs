//! `jr2 up --check`, the pre-flight of an Instance: the Instance check (`crate::instance`, keeping
//! every Workflow's compilation), plus the Instance config (`jr2.config.ts`, [`config`]) against
//! what the Workflows name (`rules::preflight`), plus what `jr2 up` lists for each Workflow
//! ([`listing`]).
//!
//! ```text
//! check_instance_compiled(root) ─────────────────────┐
//! read_config(root) ─► InstanceConfig ─┐             ├─► UpReport { report, config, workflows }
//! each Workflow ─► evaluate ─► value ──┴─► rules::preflight::check ─┘
//!                              └─► listing::of (parts_of, failing states, Gates)
//! ```
//!
//! The config's file comes first in the report, then the Instance check's files in their order;
//! a pre-flight diagnostic joins the file it is in (a Workflow, or a file it imports).

pub mod config;
pub mod listing;

use crate::compile::Located;
use crate::instance::{CheckedFile, InstanceReport};
use config::InstanceConfig;
use diagnostics::Diagnostic;
use machine::value::{Callee, Value, ValueKind};
use std::path::Path;

/// What `jr2 up --check` found.
#[derive(Debug, Default)]
pub struct UpReport {
    /// Every file with its diagnostics: the config, then the Instance check's files.
    pub report: InstanceReport,
    /// The Instance config, where it could be read.
    pub config: Option<InstanceConfig>,
    /// What `jr2 up` lists, one entry per Workflow, by name.
    pub workflows: Vec<listing::Listing>,
}

/// The pre-flight of the Instance at `root`, offline (foreign dispatch doors are not read).
pub fn check_up(root: &Path) -> UpReport {
    check_up_with(root, None)
}

/// The pre-flight of the Instance at `root`, reading each foreign dispatch target's door through
/// `doors` (`None`: offline, counted in the report's `foreign_skipped`).
pub fn check_up_with(root: &Path, doors: Option<&dyn crate::doors::DoorSource>) -> UpReport {
    let instance = crate::instance::check_instance_compiled(root, doors);
    let read = config::read_config(root);

    // The config's files, its own first.
    let mut files: Vec<CheckedFile> = Vec::new();
    for (i, f) in read.files.iter().enumerate() {
        let diagnostics: Vec<Diagnostic> =
            read.diagnostics.iter().filter(|d| d.file.0 as usize == i).map(|d| d.diagnostic.clone()).collect();
        if i == 0 || !diagnostics.is_empty() {
            files.push(CheckedFile { path: f.path.clone(), text: f.text.clone(), diagnostics });
        }
    }
    let workflows = instance.compiled;
    let mut report = InstanceReport {
        files,
        internal_errors: instance.internal_errors,
        foreign_skipped: instance.foreign_skipped,
        compiled: Vec::new(),
        unreadable: instance.unreadable,
    };
    // Each file's place in the report, the config's files first.
    let mut index: rustc_hash::FxHashMap<_, _> =
        report.files.iter().enumerate().map(|(i, f)| (f.path.clone(), i)).collect();
    for f in instance.files {
        crate::instance::merge(&mut report.files, &mut index, f);
    }

    // The rules and the listing read the values the Instance check compiled: nothing is
    // evaluated twice.
    let results = crate::instance::parallel(&workflows, |(path, ev)| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let value = ev.value();
            let found = match (value, &read.config) {
                (Some(value), Some(config)) => crate::rules::preflight::check(value, config),
                _ => Vec::new(),
            };
            let found: Vec<CheckedFile> = found
                .into_iter()
                .filter_map(|Located { file, diagnostic }| {
                    let f = ev.files.get(file.0 as usize)?;
                    Some(CheckedFile { path: f.path.clone(), text: f.text.clone(), diagnostics: vec![diagnostic] })
                })
                .collect();
            (found, listing::of(root, path, value))
        }))
        .ok()
    });
    let mut listed = Vec::new();
    for ((path, _), result) in workflows.iter().zip(results) {
        match result {
            Some((found, l)) => {
                for f in found {
                    crate::instance::merge(&mut report.files, &mut index, f);
                }
                listed.push(l);
            }
            None => {
                if !report.internal_errors.contains(path) {
                    report.internal_errors.push(path.clone());
                }
            }
        }
    }
    UpReport { report, config: read.config, workflows: listed }
}

/// A call of the kit found in a value: the call, the kit export's name, the object key it is the
/// value of (an actor slot's name), and the nearest kit call around it.
#[derive(Clone, Copy, Debug)]
pub struct KitCall<'v> {
    pub call: &'v Value<'v>,
    pub name: &'v str,
    pub key: Option<&'v str>,
    pub within: Option<&'v str>,
}

/// How deep [`kit_calls`] goes into a value (the evaluator bounds values; this bounds the walk).
const MAX_WALK_DEPTH: usize = 2_000;

/// Every call of the kit inside `root`, depth first, in source order.
pub fn kit_calls<'v>(root: &'v Value<'v>) -> Vec<KitCall<'v>> {
    fn visit<'v>(
        v: &'v Value<'v>,
        key: Option<&'v str>,
        within: Option<&'v str>,
        depth: usize,
        out: &mut Vec<KitCall<'v>>,
    ) {
        if depth > MAX_WALK_DEPTH {
            return;
        }
        match v.kind {
            ValueKind::Call(c) => {
                let inner = match c.callee {
                    Callee::Kit(name) => {
                        out.push(KitCall { call: v, name, key, within });
                        Some(name)
                    }
                    _ => within,
                };
                if let Some(r) = &c.receiver {
                    visit(r, key, inner, depth + 1, out);
                }
                for a in c.args {
                    visit(a, None, inner, depth + 1, out);
                }
            }
            ValueKind::Array { items } => items.iter().for_each(|x| visit(x, None, within, depth + 1, out)),
            ValueKind::Object { props } => {
                props.iter().for_each(|p| visit(&p.value, Some(p.key), within, depth + 1, out))
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    visit(root, None, None, 0, &mut out);
    out
}
