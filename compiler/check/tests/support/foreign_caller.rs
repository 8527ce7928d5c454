//! The text of a caller Workflow with one foreign `dispatch` per `(callee, url)` target, each
//! with the slot `{ ticket: string }` and a state of its own. Shared by the door tests of the
//! compiler (`compiler/tests/it/doors.rs`) and of the CLI (`tests/it/foreign.rs`), which include
//! this file by path.

pub(crate) fn foreign_caller(targets: &[(&str, &str)]) -> String {
    let mut slots = String::new();
    let mut states = String::new();
    for (i, (callee, url)) in targets.iter().enumerate() {
        slots.push_str(&format!(
            "    go{i}: dispatch(\"{callee}\", {{ input: z.object({{ ticket: z.string() }}), target: {{ url: \"{url}\", token: secret(\"ops\") }} }}),\n"
        ));
        let next = if i + 1 == targets.len() { "done".to_string() } else { format!("s{}", i + 1) };
        states.push_str(&format!(
            "    s{i}: {{ invoke: {{ src: \"go{i}\", input: ({{ context }}) => ({{ ticket: context.ticket }}), onDone: \"{next}\" }} }},\n"
        ));
    }
    format!(
        r#"import {{ z }} from "zod";
import {{ dispatch, jr2Setup, secret }} from "@jr2/orchestrator";

export const machine = jr2Setup({{
  types: {{}} as {{ context: {{ ticket: string }}; input: {{ ticket: string }} }},
  actors: {{
{slots}  }},
}}).createMachine({{
  id: "caller",
  context: ({{ input }}) => input,
  initial: "s0",
  states: {{
{states}    done: {{ type: "final" }},
  }},
}});
"#
    )
}
