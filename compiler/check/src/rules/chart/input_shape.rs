//! What the rule 8 checks share (not a rule): the invokes they read, what an input is, an
//! Effect's shape here, the lent cuts and pushes, and the Worktree path tests.

use crate::door::{Chart, InvokeAt};
use crate::rules::Ctx;
use base::path::join;
use base::Span;
use chart::lower::{whole_ref, SrcClass};
use ir::expr::placeholders;
use kit::lends::{CutExpect, EffectParts, InputShape};
use std::rc::Rc;
use syntax::json::Json;

/// One invoke as the rule 8 checks read it.
pub struct InputAt<'a> {
    pub inv: InvokeAt<'a>,
    pub class: SrcClass,
    /// The invoke's `input`, if it has one.
    pub input: Option<&'a Json<'a>>,
    /// `<invoke path>.input`.
    pub ipath: String,
}

impl<'a> InputAt<'a> {
    /// The seed's `isObject`: an object that is not a whole `{ "$ref": ... }`.
    pub fn is_object(&self) -> bool {
        self.input.is_some_and(is_object)
    }

    /// The input's span, or the invoke's where it has no input.
    pub fn span(&self) -> Span {
        self.input.map_or(self.inv.json.span, |i| i.span)
    }

    /// The input's keys, once each, in the order they first appear (as `Object.keys` of
    /// `JSON.parse` has them); empty where the input is not an object.
    pub fn given(&self) -> Vec<&'a str> {
        match self.input {
            Some(i) if is_object(i) => given_keys(i),
            _ => Vec::new(),
        }
    }

    /// [`InputAt::given`] with each key's value (the last one, as `JSON.parse` keeps it): for a
    /// rule that reads every key's value, in one pass (a [`InputAt::value`] per key would scan the
    /// input once per key).
    pub fn given_values(&self) -> Vec<(&'a str, &'a Json<'a>)> {
        match self.input {
            Some(i) if is_object(i) => i.entries().map(|m| (m.key, &m.value)).collect(),
            _ => Vec::new(),
        }
    }

    /// The value of one key of the input (the last one, as `JSON.parse` keeps it).
    pub fn value(&self, key: &str) -> Option<&'a Json<'a>> {
        self.input.filter(|i| is_object(i)).and_then(|i| i.get(key))
    }

    /// `<ipath>.<key>`.
    pub fn key_path(&self, key: &str) -> String {
        join(&self.ipath, key)
    }
}

/// The invokes rule 8 reads: none without a manifest, and none whose `src` rule 3 refused.
/// Collected once per Chart, for the nine rules that read them.
pub fn inputs<'c, 'a>(cx: &'c Ctx<Chart<'a>>) -> &'c [InputAt<'a>] {
    cx.inputs.get_or_init(|| {
        if cx.manifest.is_none() {
            return Vec::new();
        }
        cx.invokes()
            .iter()
            .filter_map(|inv| {
                let class = inv.class;
                if !matches!(class, SrcClass::Lent(_) | SrcClass::Minted | SrcClass::Gate | SrcClass::Fail) {
                    return None;
                }
                let input = inv.json.get("input");
                let ipath = join(inv.path, "input");
                Some(InputAt { inv: inv.clone(), class, input, ipath })
            })
            .collect()
    })
}

/// An object that is not a whole reference.
pub fn is_object(v: &Json) -> bool {
    v.is_object() && v.member("$ref").is_none()
}

/// A whole-value reference `{ "$ref": "..." }`.
pub fn is_ref(v: &Json) -> bool {
    whole_ref(v).is_some()
}

/// A string or a reference: what an Effect's input slot takes.
pub fn is_slot_value(v: &Json) -> bool {
    v.as_str().is_some() || is_ref(v)
}

/// An object's keys, once each, in the order of [`Json::entries`] (which gives each key once: no
/// search here, so an input of 100 000 keys stays linear).
pub fn given_keys<'a>(v: &Json<'a>) -> Vec<&'a str> {
    v.entries().map(|m| m.key).collect()
}

/// Does a string hold a `{{ }}` reference? Its value is known only when it runs.
pub fn has_references(s: &str) -> bool {
    chart::lower::has_placeholder(s) && !placeholders(s).is_empty()
}

/// The parts of a lent Effect, where the manifest lends them.
pub fn effect_parts<'a>(cx: &Ctx<Chart<'a>>, src: &str) -> Option<&'a EffectParts> {
    cx.manifest?.lent.effects.get(src)
}

/// The Repo Slots the door knows, if it knows them.
pub fn repo_slots<'a>(cx: &Ctx<Chart<'a>>) -> Option<&'a [String]> {
    cx.manifest?.repo_slots.as_deref()
}

/// The seed's `shapeHere`: where the door knows the Workspace has Repo Slots, `worktree` is
/// required on what can name one.
pub fn shape_here(cx: &Ctx<Chart>, parts: &EffectParts) -> Option<InputShape> {
    let shape = parts.input_shape()?;
    if repo_slots(cx).is_none_or(|s| s.is_empty()) || !shape.optional.iter().any(|k| k == "worktree") {
        return Some(shape);
    }
    let mut required = shape.required.clone();
    required.push("worktree".to_string());
    let optional = shape.optional.iter().filter(|k| *k != "worktree").cloned().collect();
    Some(InputShape { required, optional, one_of: shape.one_of })
}

/// A lent Effect's [`shape_here`] and its [`InputShape::keys`].
pub struct Shaped {
    pub shape: InputShape,
    pub keys: Vec<String>,
}

/// [`shape_here`] of the lent Effect `src`, with its keys, computed once per Chart and `src`: a
/// Chart invokes a few Effects many times, and a shape is read from the manifest's schemas.
pub fn shape_of(cx: &Ctx<Chart>, src: &str) -> Option<Rc<Shaped>> {
    if let Some((_, shaped)) = cx.shapes.borrow().iter().find(|(s, _)| **s == *src) {
        return shaped.clone();
    }
    let shaped = effect_parts(cx, src).and_then(|p| shape_here(cx, p)).map(|shape| {
        let keys = shape.keys();
        Rc::new(Shaped { shape, keys })
    });
    cx.shapes.borrow_mut().push((src.into(), shaped.clone()));
    shaped
}

/// The seed's `shapeText`: what an Effect's input takes, for a line of the door.
pub fn shape_text(shape: &InputShape) -> String {
    let mut need: Vec<String> = shape.required.clone();
    if let Some(one) = &shape.one_of {
        need.push(format!("exactly one of {}", base::list::listed(one)));
    }
    let need = base::list::listed(&need);
    let may = if shape.optional.is_empty() {
        String::new()
    } else {
        format!("{}optionally {}", if need.is_empty() { "" } else { ", and " }, base::list::listed(&shape.optional))
    };
    if need.is_empty() && may.is_empty() {
        "nothing".to_string()
    } else {
        format!("{need}{may}")
    }
}

/// The lent Effects with their parts, in the declaration's order.
pub fn lent_effects<'a>(cx: &Ctx<Chart<'a>>) -> Vec<(&'a str, &'a EffectParts)> {
    let Some(m) = cx.manifest else { return Vec::new() };
    m.declaration.lends.effects.iter().filter_map(|n| Some((n.as_str(), m.lent.effects.get(n)?))).collect()
}

/// The seed's `lentForcePush`: the name of a lent push that forces, if one is lent.
pub fn lent_force_push<'a>(cx: &Ctx<Chart<'a>>) -> Option<&'a str> {
    lent_effects(cx).into_iter().find(|(_, p)| matches!(p, EffectParts::Push { force: true })).map(|(n, _)| n)
}

/// The seed's `lentNewCuts`: the lent cuts that make only a new branch.
pub fn lent_new_cuts<'a>(cx: &Ctx<Chart<'a>>) -> Vec<&'a str> {
    lent_effects(cx)
        .into_iter()
        .filter(|(_, p)| p.cut().is_some_and(|c| c.expect == Some(CutExpect::New)))
        .map(|(n, _)| n)
        .collect()
}

/// `/work/<slot>/<name>` (the seed's `^/work/([^/]+)/([^/.-][^/]*)$`): the slot, or `None`.
pub fn worktree_slot(value: &str) -> Option<&str> {
    let rest = value.strip_prefix("/work/")?;
    let (slot, name) = rest.split_once('/')?;
    let first = name.chars().next()?;
    if slot.is_empty() || name.contains('/') || matches!(first, '.' | '-') {
        return None;
    }
    Some(slot)
}

/// `path.posix.normalize` of Node: `.` and `..` resolved, slashes collapsed, a trailing slash
/// kept, `.` for an empty relative path.
pub fn posix_normalize(path: &str) -> String {
    if path.is_empty() {
        return ".".to_string();
    }
    let absolute = path.starts_with('/');
    let trailing = path.ends_with('/');
    let mut segs: Vec<&str> = Vec::new();
    for seg in path.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                if segs.last().is_some_and(|s| *s != "..") {
                    segs.pop();
                } else if !absolute {
                    segs.push("..");
                }
            }
            s => segs.push(s),
        }
    }
    let mut out = segs.join("/");
    if out.is_empty() && !absolute {
        out.push('.');
    }
    if !out.is_empty() && trailing {
        out.push('/');
    }
    if absolute {
        format!("/{out}")
    } else {
        out
    }
}

/// The seed's `slotFolderFault`: why a `cwd` is not a place to work (a Repo Slot's folder is no
/// Worktree), or `None` when it can be.
pub fn slot_folder_fault(cwd: &str, slots: &[String]) -> Option<String> {
    let normal = posix_normalize(cwd);
    let rest = normal.strip_prefix("/work/")?;
    let slot = rest.strip_suffix('/').unwrap_or(rest);
    if slot.is_empty() || slot.contains('/') || !slots.iter().any(|s| s == slot) {
        return None;
    }
    Some(format!(
        "\"{cwd}\" is a Repo Slot's folder, not a Worktree; `cwd` is a Worktree that a cut made, \"/work/{slot}/<name>\", or \"/work/{slot}/default\" to read, or \"/work\""
    ))
}

#[cfg(test)]
pub mod testing {
    //! The door's lines for a Chart and a manifest, as `code: message`.

    /// Every line of the door, as `code: message`.
    pub fn door_lines(chart: &str, lends: &str) -> Vec<String> {
        let manifest: kit::lends::LendManifest = serde_json::from_str(lends).expect("a manifest");
        crate::door::check(chart, Some(&manifest))
            .diagnostics
            .iter()
            .map(|d| format!("{}: {}", d.code, d.message))
            .collect()
    }

    /// The lines of one code, as `code: message`.
    pub fn lines_of(code: &str, chart: &str, lends: &str) -> Vec<String> {
        door_lines(chart, lends).into_iter().filter(|l| l.starts_with(&format!("{code}: "))).collect()
    }

    /// A Chart of one state `a` that invokes `invoke` and goes on to `done`.
    pub fn chart_with(invoke: &str) -> String {
        format!(
            r#"{{ "initial": "a", "states": {{ "a": {{ "invoke": {invoke}, "on": {{ "next": "done" }} }}, "done": {{ "type": "final" }} }} }}"#
        )
    }

    /// A manifest that lends the Agent `writer`, the Effects given as JSON members, gate and fail,
    /// with `extra` top-level members (like `"repoSlots": ["app"]`).
    pub fn lends_with(effects: &str, extra: &str) -> String {
        let names: Vec<String> = if effects.trim().is_empty() {
            Vec::new()
        } else {
            let v: serde_json::Value = serde_json::from_str(&format!("{{{effects}}}")).expect("effects");
            v.as_object().expect("object").keys().map(|k| format!("\"{k}\"")).collect()
        };
        let sep = if extra.is_empty() { "" } else { "," };
        format!(
            r#"{{
  "declaration": {{
    "lends": {{ "agents": ["writer", "reader"], "effects": [{}], "gate": true, "fail": true }},
    "allows": {{ "models": ["anthropic/claude-haiku-5-5"], "workspace": ["none", "read", "write"] }}
  }},
  "lent": {{
    "agents": {{
      "writer": {{ "model": "anthropic/claude-haiku-5-5", "instructions": "You write.", "workspace": "write" }},
      "reader": {{ "model": "anthropic/claude-haiku-5-5", "instructions": "You read.", "workspace": "none" }}
    }},
    "effects": {{ {effects} }}
  }}{sep}{extra}
}}"#,
            names.join(", ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalizes_as_node_does() {
        assert_eq!(posix_normalize("/work//app/"), "/work/app/");
        assert_eq!(posix_normalize("/work/app/."), "/work/app");
        assert_eq!(posix_normalize("/work/app/x/.."), "/work/app");
        assert_eq!(posix_normalize("/work/../work/app"), "/work/app");
        assert_eq!(posix_normalize("//work/app"), "/work/app");
        assert_eq!(posix_normalize("/.."), "/");
        assert_eq!(posix_normalize("a/../.."), "..");
        assert_eq!(posix_normalize("./"), "./");
    }

    #[test]
    fn worktree_paths() {
        assert_eq!(worktree_slot("/work/app/fix-1"), Some("app"));
        assert_eq!(worktree_slot("/work/app/.git"), None);
        assert_eq!(worktree_slot("/work/app/-x"), None);
        assert_eq!(worktree_slot("/work/app"), None);
        assert_eq!(worktree_slot("/work/app/a/b"), None);
        assert_eq!(worktree_slot("/work//a"), None);
    }

    #[test]
    fn shape_texts() {
        let s = |r: &[&str], o: &[&str], one: Option<&[&str]>| InputShape {
            required: r.iter().map(|x| x.to_string()).collect(),
            optional: o.iter().map(|x| x.to_string()).collect(),
            one_of: one.map(|xs| xs.iter().map(|x| x.to_string()).collect()),
        };
        assert_eq!(shape_text(&s(&[], &[], None)), "nothing");
        assert_eq!(shape_text(&s(&[], &["worktree"], None)), "optionally worktree");
        assert_eq!(shape_text(&s(&["file"], &["worktree"], None)), "file, and optionally worktree");
        assert_eq!(
            shape_text(&s(&["path"], &["from"], Some(&["branch", "detach"]))),
            "path, exactly one of branch, detach, and optionally from"
        );
    }
}
