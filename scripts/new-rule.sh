#!/usr/bin/env bash
# Adds a rule: its file (doc comment, declaration, the check's signature for its family), its line
# in the family's registry list (`family!` in its mod.rs) and its fixture folder with a first
# refused case, which fails its harness until the check reports it. As oxc's and ruff's scripts do.
#
#   scripts/new-rule.sh FAMILY CODE [error|warning]
#
# FAMILY is one of chart (a Chart door rule), walk, walk_pick, instance, preflight, compat,
# machine, config; CODE is kebab-case (`unknown-thing`). Then: write the check and the fixture, run its
# harness, and `JR2_BLESS=1 cargo test --test it docs` for its docs/rules/ page.
set -euo pipefail
cd "$(dirname "$0")/.."
usage() { echo "usage: scripts/new-rule.sh chart|walk|walk_pick|instance|preflight|compat|machine|config CODE [error|warning]" >&2; exit 2; }
[ $# -ge 2 ] || usage
family=$1 code=$2 severity=${3:-error}
case $family in chart|walk|walk_pick|instance|preflight|compat|machine|config) ;; *) usage ;; esac
[[ $code =~ ^[a-z][a-z0-9]*(-[a-z0-9]+)*$ ]] || { echo "new-rule: CODE is kebab-case, like unknown-thing" >&2; exit 2; }
case $severity in error) sev=Error ;; warning) sev=Warning ;; *) usage ;; esac
snake=${code//-/_}
const=$(echo "$snake" | tr '[:lower:]' '[:upper:]')
dir=compiler/check/src/rules/$family
file=$dir/$snake.rs
[ -e "$file" ] && { echo "new-rule: $file exists" >&2; exit 1; }
if grep -rqs "code: \"$code\"" compiler/check/src/rules; then echo "new-rule: a rule named $code exists" >&2; exit 1; fi

lang=ts
case $family in chart) lang=json ;; esac
door_rule=None
[ "$family" = chart ] && door_rule="Some(2)"
{
  echo "//! The rule \`$code\`: what it refuses, then its check and its tests."
  echo
  case $family in
    chart) echo "use crate::door::Chart;"; echo "use crate::rules::{Ctx, Sink};" ;;
    walk) echo "use super::Walk;"; echo "use crate::rules::{Ctx, Sink};" ;;
    walk_pick) echo "use super::Picks;"; echo "use crate::rules::{Ctx, Sink};" ;;
    preflight) echo "use super::Workflow;"; echo "use crate::rules::{Ctx, Sink};" ;;
    instance|compat) echo "use super::Subject;"; echo "use crate::rules::{Ctx, Sink};" ;;
  esac
  echo "use diagnostics::declare_rule;"
  echo
  echo "declare_rule! {"
  echo "    /// Refuses ... (one line: what it refuses; it is the rule's summary)."
  echo "    ///"
  echo "    /// ## Why"
  echo "    /// What goes wrong at run time when this is let through."
  echo "    ///"
  echo "    /// ## Example"
  echo "    /// \`\`\`$lang"
  echo "    /// the smallest input it refuses"
  echo "    /// \`\`\`"
  echo "    ///"
  echo "    /// ## Use instead"
  echo "    /// \`\`\`$lang"
  echo "    /// the same input, fixed"
  echo "    /// \`\`\`"
  echo "    pub static $const = { code: \"$code\", rule: $door_rule, severity: $sev };"
  echo "}"
  # Every rule's check has one shape: its family's input in a `rules::Ctx`, and the one
  # `rules::Sink` (`sink.report(&RULE, loc, message)`, `sink.line(...)` for a door line).
  case $family in
    chart) printf '\n/// The door runs this over a Chart the grammar admitted.\npub fn check(_cx: &Ctx<Chart>, _sink: &mut Sink) {}\n' ;;
    walk) printf '\n/// The walk runs this over each Machine.\npub fn check(_cx: &Ctx<Walk>, _sink: &mut Sink) {}\n' ;;
    walk_pick) printf '\n/// `walk_pick::check` runs this over each Machine.\npub fn check(_cx: &Ctx<Picks>, _sink: &mut Sink) {}\n' ;;
    preflight) printf '\n/// `rules::preflight::check` runs this over each Workflow, against the config.\npub fn check(_cx: &Ctx<Workflow>, _sink: &mut Sink) {}\n' ;;
    instance) printf '\n/// The Instance check runs this on each subject (a file name, a dispatch, a named Chart).\npub(crate) fn check(_cx: &Ctx<Subject<'"'"'_>>, _sink: &mut Sink) {}\n' ;;
    compat) printf '\n/// Door compatibility runs this on each finding and on what each door read gave.\npub fn check(_cx: &Ctx<Subject<'"'"'_>>, _sink: &mut Sink) {}\n' ;;
  esac
  # The pre-flight's fixtures are run from each rule's tests (`rules::preflight::testing`).
  if [ "$family" = preflight ]; then
    printf '\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn fixtures() {\n        super::super::testing::fixtures("%s");\n    }\n}\n' "$code"
  fi
} > "$file"

# The registry line, last in the family's list.
line="    $snake::$const,"
case $family in chart|walk|walk_pick|preflight|instance|compat) line="    $snake::$const => check," ;; esac
python3 - "$dir/mod.rs" "$line" <<'PY'
import sys
path, line = sys.argv[1], sys.argv[2]
text = open(path).read()
start = text.index("family! {")
end = text.index("\n}\n", start)
open(path, "w").write(text[:end] + "\n" + line + text[end:])
PY

# The fixture folder, with a first refused case for its harness.
fixtures=compiler/check/tests/fixtures
case $family in
  chart) mkdir -p "$fixtures/door/$code"
    printf '{\n  "initial": "a",\n  "states": { "a": { "type": "final" } }\n//             ^ %s[%s]\n}\n' "$severity" "$code" > "$fixtures/door/$code/refused.json"
    where="$fixtures/door/$code/refused.json" ;;
  config) where="no fixture folder (write its case in tests/it/suppress.rs)" ;;
  walk|walk_pick|machine) mkdir -p "$fixtures/$family/$code"
    printf 'import { jr2Setup } from "@jr2/orchestrator";\n\nexport const machine = jr2Setup({}).createMachine({\n  id: "example",\n  initial: "a",\n  states: { a: { type: "final" } },\n//          ^ %s[%s]\n});\n' "$severity" "$code" > "$fixtures/$family/$code/refused.ts"
    where="$fixtures/$family/$code/refused.ts" ;;
  preflight) mkdir -p "$fixtures/preflight/$code"
    # Each Workflow is checked against the fixtures' one config, preflight/jr2.config.ts.
    for name in refused admitted; do
      mark=''
      [ $name = refused ] && mark=$(printf '\n//          ^ %s[%s]' "$severity" "$code")
      printf 'import { jr2Setup } from "@jr2/orchestrator";\n\nexport const machine = jr2Setup({}).createMachine({\n  id: "example",\n  initial: "a",\n  states: { a: { type: "final" } },%s\n});\n' "$mark" > "$fixtures/preflight/$code/$name.ts"
    done
    where="$fixtures/preflight/$code/refused.ts and admitted.ts" ;;
  # An Instance rule's and a door rule's cases are mini Instances, under instance/ both.
  instance|compat) mkdir -p "$fixtures/instance/$code/refused/workflows"
    printf 'import { jr2Setup } from "@jr2/orchestrator";\n\nexport const machine = jr2Setup({}).createMachine({\n  id: "example",\n  initial: "a",\n  states: { a: { type: "final" } },\n//          ^ %s[%s]\n});\n' "$severity" "$code" > "$fixtures/instance/$code/refused/workflows/example.ts"
    where="$fixtures/instance/$code/refused/" ;;
esac
echo "new-rule: wrote $file, its line in $dir/mod.rs, and $where"
echo "new-rule: next, write the doc and the check, make the fixture show the case, run its harness"
echo "          (cargo test -p check), then JR2_BLESS=1 cargo test --test it docs"
