//! The Chart door: admits a Chart against one Open body, or refuses it with the seed's lines.
//!
//! The order is the seed's: the JSON text, its size, the grammar (rule 1); then, over a Chart the
//! grammar admitted and lowered into the IR, the structure (rule 2), names (rule 3), payloads
//! (rule 4), minted Agents (rule 5), parties (rule 6), references and delays (rule 7) and lent
//! input shapes (rule 8). Each rule is one file of `crate::rules::chart`; this module runs them
//! in order, each given what it reads ([`Tree`] for rule 1, [`Chart`] after it, each in a
//! `rules::Ctx`) and the `rules::Sink` its lines go to.

use crate::rules::{Ctx, Sink};
use base::path::{join, names, path_text};
use chart::lower::{self, classify_src, one_or_many, LowerFault, SrcClass};
use diagnostics::Diagnostic;
use ir::{self, StateId};
use kit::lends::{LendManifest, Lends};
use syntax::json::{self, Json};

/// The door's verdict on one Chart text: its diagnostics, and its IR and the IR's source map where
/// the grammar admitted it. The IR is an executable [`ir::Machine`] ([`admit`]), or an
/// [`ir::CheckedMachine`] lowered for the door's rules only ([`check`]: the same diagnostics).
#[derive(Clone, Debug)]
pub struct Admission<M = ir::Machine> {
    pub diagnostics: Vec<Diagnostic>,
    pub machine: Option<M>,
    /// Where each node of `machine` is in the Chart (empty without one).
    pub source_map: ir::SourceMap,
}

impl<M> Admission<M> {
    /// Admitted: no error (warnings allowed).
    pub fn admitted(&self) -> bool {
        !self.diagnostics.iter().any(Diagnostic::is_error)
    }

    fn refused(diagnostics: Vec<Diagnostic>) -> Self {
        Admission { diagnostics, machine: None, source_map: ir::SourceMap::default() }
    }
}

/// Admits or refuses a Chart text, and lowers an admitted one into an executable IR (`jr2 ir`,
/// `jr2 sim`, `jr2 graph`). With no manifest, the checks that need an Open body (names, minted
/// Agents, input shapes) are skipped and the rest run.
pub fn admit(text: &str, manifest: Option<&LendManifest>) -> Admission {
    run(text, manifest, lower::lower)
}

/// [`admit`] for a check, which reads the diagnostics only: the same diagnostics, over an IR
/// lowered for the door's rules only ([`lower::lower_for_check`]: no expressions, events or
/// context, which no rule reads from the IR), which is what `jr2 check`, `jr2 chart check`, the
/// Node API's `admitChart` and the editor run.
pub fn check(text: &str, manifest: Option<&LendManifest>) -> Admission<ir::CheckedMachine> {
    run(text, manifest, lower::lower_for_check)
}

/// How a door lowers a Chart the grammar admitted: [`lower::lower`] or [`lower::lower_for_check`].
type Lower<M> = for<'a, 'm> fn(&'a Json<'a>, Option<&'m LendManifest>) -> lower::Lowered<'a, M>;

fn run<M: std::ops::Deref<Target = ir::Statechart>>(
    text: &str,
    manifest: Option<&LendManifest>,
    lower: Lower<M>,
) -> Admission<M> {
    let arena = json::arena_for(text);
    let parsed = json::parse(text, &arena);
    if !parsed.errors.is_empty() {
        return Admission::refused(parsed.errors.iter().map(crate::rules::chart::json_syntax::diagnostic).collect());
    }
    run_parsed(&parsed.value, &parsed.duplicates, text.len(), manifest, lower)
}

/// Checks a Chart file by itself (`jr2 check FILE`, `jr2 chart check`, an editor's Chart outside
/// any Instance): [`check`], and with no manifest (and a JSON text) the warning
/// `chart-without-lends`, which says what was not checked and how to check it, so that a run
/// never passes what it did not look at.
pub fn check_lone(text: &str, manifest: Option<&LendManifest>) -> Admission<ir::CheckedMachine> {
    let mut admission = check(text, manifest);
    // A text that is no JSON was not checked past its syntax at all: its errors say so.
    let parsed = !admission.diagnostics.iter().any(|d| d.code == crate::rules::chart::json_syntax::JSON_SYNTAX.code);
    if manifest.is_none() && parsed {
        admission.diagnostics.push(crate::rules::chart::chart_without_lends::diagnostic(text));
    }
    admission
}

/// Checks a parsed Chart ([`check`]) with the repeated keys its parse noted
/// ([`json::Parsed::duplicates`]); `size` is its text's length in bytes.
pub fn check_parsed(
    chart: &Json<'_>,
    duplicates: &[json::DuplicateKey],
    size: usize,
    manifest: Option<&LendManifest>,
) -> Admission<ir::CheckedMachine> {
    run_parsed(chart, duplicates, size, manifest, lower::lower_for_check)
}

fn run_parsed<M: std::ops::Deref<Target = ir::Statechart>>(
    chart: &Json<'_>,
    duplicates: &[json::DuplicateKey],
    size: usize,
    manifest: Option<&LendManifest>,
    lower: Lower<M>,
) -> Admission<M> {
    // A Chart is one file: its lines are in the sink's, `FileId(0)`.
    let mut sink = Sink::default();
    let tree = Ctx::new(Tree { chart, duplicates, size, manifest });
    for check in crate::rules::chart::TREE_CHECKS {
        check(&tree, &mut sink);
    }
    if sink.has_errors() {
        return Admission::refused(sink.into_diagnostics());
    }
    use crate::rules::chart::too_many_states;
    if too_many_states::declared(chart, too_many_states::LOWERED_AT_MOST) > too_many_states::LOWERED_AT_MOST {
        too_many_states::refuse_unlowered(chart, &mut sink);
        return Admission::refused(sink.into_diagnostics());
    }
    let lowered = lower(chart, manifest);
    let cx = Ctx::new(Chart::new(chart, manifest, &lowered));
    for check in crate::rules::chart::CHECKS {
        check(&cx, &mut sink);
    }
    Admission { diagnostics: sink.into_diagnostics(), machine: Some(lowered.machine), source_map: lowered.source_map }
}

/// What rule 1's checks read: the Chart's JSON as parsed (before the grammar admits it), the
/// repeated keys its parse noted, its text's size in bytes and the Open body.
pub struct Tree<'a> {
    pub chart: &'a Json<'a>,
    pub duplicates: &'a [json::DuplicateKey],
    pub size: usize,
    pub manifest: Option<&'a LendManifest>,
}

/// What the door's rules from rule 2 on read: the Chart's JSON, the Open body, the IR and its
/// source map. The IR is the statechart of [`lower::lower_for_check`]'s (or [`lower::lower`]'s):
/// a rule reads its states, their invokes' `src`, kind and `id`, and its transitions' sources,
/// and reads the rest (expressions, events) from the JSON.
pub struct Chart<'a> {
    pub chart: &'a Json<'a>,
    pub manifest: Option<&'a LendManifest>,
    pub machine: &'a ir::Statechart,
    /// Where each state, transition and invoke of `machine` is.
    pub map: &'a ir::SourceMap,
    /// `state_json[i]` is the JSON of `StateId(i)`.
    pub state_json: &'a [&'a Json<'a>],
    pub faults: &'a [LowerFault],
    invokes: Vec<InvokeAt<'a>>,
    transitions: Vec<TransitionAt<'a>>,
    all_guards: Vec<(String, &'a Json<'a>)>,
    /// The invokes rule 8 reads, collected by the first rule that asks
    /// (`rules::chart::input_shape::inputs`).
    pub(crate) inputs: std::cell::OnceCell<Vec<crate::rules::chart::input_shape::InputAt<'a>>>,
    /// The input shapes of the lent Effects invoked, by `src`, as the first rule that asks for
    /// one computes it (`rules::chart::input_shape::shape_of`).
    pub(crate) shapes: std::cell::RefCell<Vec<(Box<str>, ShapeOf)>>,
}

/// A lent Effect's input shape here, where the door can read one.
type ShapeOf = Option<std::rc::Rc<crate::rules::chart::input_shape::Shaped>>;

/// One invoke of the Chart, as rules visit it.
#[derive(Clone)]
pub struct InvokeAt<'a> {
    pub state: StateId,
    /// Its index in the state's invokes.
    pub index: usize,
    pub json: &'a Json<'a>,
    /// `states.review.invoke.0` (or `states.review.invoke` for a single invoke).
    pub path: &'a str,
    pub src: &'a str,
    /// What `src` names (rule 3), classified once.
    pub class: SrcClass,
}

/// One transition value (a target string or an object), as rules visit it.
pub struct TransitionAt<'a> {
    pub state: StateId,
    pub json: &'a Json<'a>,
    pub path: &'a str,
}

impl<'a> Chart<'a> {
    /// The input of one Chart's rules; what every rule visits is collected once, here.
    pub fn new<M: std::ops::Deref<Target = ir::Statechart>>(
        chart: &'a Json<'a>,
        manifest: Option<&'a LendManifest>,
        lowered: &'a lower::Lowered<'a, M>,
    ) -> Self {
        let mut cx = Chart {
            chart,
            manifest,
            machine: &lowered.machine,
            map: &lowered.source_map,
            state_json: &lowered.state_json,
            faults: &lowered.faults,
            invokes: Vec::new(),
            transitions: Vec::new(),
            all_guards: Vec::new(),
            inputs: std::cell::OnceCell::new(),
            shapes: Default::default(),
        };
        cx.invokes = cx.collect_invokes(&lowered.invoke_class);
        cx.transitions = cx.collect_transitions(&lowered.transition_json);
        cx.all_guards = cx.collect_all_guards();
        cx
    }

    /// Every invoke, state by state.
    pub fn invokes(&self) -> &[InvokeAt<'a>] {
        &self.invokes
    }

    /// Every transition value: `on`, `after`, `always`, `onDone`, and invokes' `onDone`/`onError`.
    pub fn transitions(&self) -> &[TransitionAt<'a>] {
        &self.transitions
    }

    /// Every guard at every depth (inside `not`, `and`, `or` too), with its path.
    pub fn all_guards(&self) -> &[(String, &'a Json<'a>)] {
        &self.all_guards
    }
    /// The declaration's lends, where a manifest is given.
    pub fn lends(&self) -> Option<&'a Lends> {
        self.manifest.map(|m| &m.declaration.lends)
    }

    pub fn state_json(&self, id: StateId) -> &'a Json<'a> {
        self.state_json[id.index()]
    }

    /// The dotted path of a state (`(chart)` for the root).
    pub fn doc(&self, id: StateId) -> &'a str {
        path_text(self.map.state_path(id))
    }

    pub fn classify(&self, src: &str) -> SrcClass {
        classify_src(self.chart, self.manifest, src)
    }

    /// The minted Agents' names, in the Chart's order.
    pub fn minted(&self) -> Vec<&'a str> {
        self.chart.get("agents").map(|a| a.entries().map(|m| m.key).collect()).unwrap_or_default()
    }

    /// Every invoke, with the class lowering gave its `src` (`classes`, in the same order) and
    /// the path lowering gave it (in the source map).
    fn collect_invokes(&self, classes: &[SrcClass]) -> Vec<InvokeAt<'a>> {
        let map: &'a ir::SourceMap = self.map;
        let mut out: Vec<InvokeAt<'a>> = Vec::with_capacity(classes.len());
        for id in self.machine.ids() {
            let state = self.state_json(id);
            let Some(inv) = state.get("invoke") else { continue };
            for (index, json) in lower::items(inv).enumerate() {
                let path = map.invoke(id, index).map_or("", |i| &*i.path);
                let src = json.get("src").and_then(Json::as_str).unwrap_or_default();
                let class = classes.get(out.len()).copied().unwrap_or_else(|| self.classify(src));
                out.push(InvokeAt { state: id, index, json, path, src, class });
            }
        }
        out
    }

    /// The transitions as lowering found them, each with its JSON.
    fn collect_transitions(&self, transition_json: &[&'a Json<'a>]) -> Vec<TransitionAt<'a>> {
        let map: &'a ir::SourceMap = self.map;
        self.machine
            .transitions
            .iter()
            .zip(transition_json)
            .zip(map.transitions())
            .map(|((t, json), source)| TransitionAt { state: t.source, json, path: &source.path })
            .collect()
    }

    /// Every top-level guard (a transition's `guard`), with its path.
    pub fn guards(&self) -> Vec<(String, &'a Json<'a>)> {
        self.transitions.iter().filter_map(|t| t.json.get("guard").map(|g| (join(t.path, "guard"), g))).collect()
    }

    fn collect_all_guards(&self) -> Vec<(String, &'a Json<'a>)> {
        fn walk<'a>(path: String, g: &'a Json<'a>, out: &mut Vec<(String, &'a Json<'a>)>) {
            if let Some(inner) = g.get("not") {
                walk(join(&path, "not"), inner, out);
            }
            for key in ["and", "or"] {
                if let Some(list) = g.get(key).and_then(Json::as_array) {
                    for (i, inner) in list.iter().enumerate() {
                        walk(join(&join(&path, key), i), inner, out);
                    }
                }
            }
            out.push((path, g));
        }
        let mut out = Vec::new();
        for (path, g) in self.guards() {
            walk(path, g, &mut out);
        }
        out
    }

    /// Every action (entry, exit, and transitions' `actions`), with its path.
    pub fn actions(&self) -> Vec<(String, &'a Json<'a>)> {
        let mut out = self.entry_exit_actions();
        for t in self.transitions() {
            if let Some(v) = t.json.get("actions") {
                out.extend(one_or_many(v, &join(t.path, "actions")));
            }
        }
        out
    }

    /// Every state's `entry` and `exit` action, with its path.
    pub fn entry_exit_actions(&self) -> Vec<(String, &'a Json<'a>)> {
        let mut out = Vec::new();
        for id in self.machine.ids() {
            let state = self.state_json(id);
            for field in ["entry", "exit"] {
                if let Some(v) = state.get(field) {
                    out.extend(one_or_many(v, &join(self.map.state_path(id), field)));
                }
            }
        }
        out
    }

    /// The lent actors with their kinds, in the declaration's order: `agent`, `effect`, `machine`.
    pub fn lent_actors(&self) -> Vec<(String, &'static str)> {
        let Some(m) = self.manifest else { return Vec::new() };
        let l = &m.declaration.lends;
        let mut out = Vec::new();
        for (list, kind, lent) in [
            (&l.agents, "agent", &m.lent.agents.keys().cloned().collect::<Vec<_>>()),
            (&l.effects, "effect", &m.lent.effects.keys().cloned().collect()),
            (&l.machines, "machine", &m.lent.machines.keys().cloned().collect()),
        ] {
            out.extend(list.iter().filter(|n| lent.contains(n)).map(|n| (n.clone(), kind)));
        }
        out
    }

    /// The seed's `lentText()`: what this body lends, the kit, and what the Chart mints.
    pub fn lent_text(&self) -> String {
        let actors: Vec<String> = self.lent_actors().iter().map(|(n, k)| format!("{n} ({k})")).collect();
        let lends = self.lends();
        let mut kit = Vec::new();
        if lends.is_some_and(|l| l.gate) {
            kit.push("gate");
        }
        if lends.is_some_and(|l| l.fail) {
            kit.push("fail");
        }
        let kit = if kit.is_empty() { "none".to_string() } else { kit.join(", ") };
        format!("lent: {}; kit: {kit}; minted: {}", names(&actors), names(self.minted()))
    }
}

/// Runs one check over a Chart text, lowered without the grammar: for a rule's unit tests,
/// including lines the grammar refuses first (the seed keeps both).
#[cfg(test)]
pub fn run_check(text: &str, manifest: Option<&LendManifest>, check: fn(&Ctx<Chart>, &mut Sink)) -> Vec<Diagnostic> {
    let arena = json::Arena::new();
    let parsed = json::parse(text, &arena);
    assert!(parsed.errors.is_empty(), "{:?}", parsed.errors);
    let lowered = lower::lower_for_check(&parsed.value, manifest);
    let cx = Ctx::new(Chart::new(&parsed.value, manifest, &lowered));
    let mut sink = Sink::default();
    check(&cx, &mut sink);
    sink.into_diagnostics()
}
