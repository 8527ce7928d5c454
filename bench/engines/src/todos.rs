//! The workload: the todomvc machine's guard and `assign` functions as the JavaScript that a type
//! strip of `todos.mjs` gives (text for text), and which of them each event type calls. The
//! transitions themselves are a table lookup here, as they are in the runtime's core: what is
//! measured is calling the functions.

use serde_json::Value;

/// The carried functions, each an expression the engine compiles once.
pub const FUNCTIONS: [&str; 9] = [
    // 0: the guard of newTodo.commit
    "({ event }) => event.value.trim().length > 0",
    // 1: newTodo.change, todo
    "({ event }) => event.value",
    // 2: newTodo.commit, todos
    "({ context, event }) => {
          const newTodo = {
            id: Math.random().toString(36).substring(7),
            title: event.value,
            completed: false,
          };
          return [...context.todos, newTodo];
        }",
    // 3: todo.commit, todos
    "({ context, event }) => {
          const { todo: todoToUpdate } = event;
          if (!todoToUpdate.title.trim().length) {
            return context.todos.filter((todo) => todo.id !== todoToUpdate.id);
          }
          return context.todos.map((todo) => {
            if (todo.id === todoToUpdate.id) {
              return todoToUpdate;
            }
            return todo;
          });
        }",
    // 4: todo.delete, todos
    "({ context, event }) => {
          const { id } = event;
          return context.todos.filter((todo) => todo.id !== id);
        }",
    // 5: filter.change, filter
    "({ event }) => event.filter",
    // 6: todo.mark, todos
    "({ context, event }) => {
          const { mark } = event;
          return context.todos.map((todo) => {
            if (todo.id === event.id) {
              return { ...todo, completed: mark === \"completed\" };
            }
            return todo;
          });
        }",
    // 7: todo.markAll, todos
    "({ context, event }) => {
          const { mark } = event;
          return context.todos.map((todo) => {
            return { ...todo, completed: mark === \"completed\" };
          });
        }",
    // 8: todos.clearCompleted, todos
    "({ context }) => {
          return context.todos.filter((todo) => !todo.completed);
        }",
];

/// One `assign` key: a carried function, or a value the front end lowered (`todo: ''`).
pub enum Update {
    Call(usize),
    Const(Value),
}

/// What an event type does: its guard, then its `assign` (xstate 5: every update reads the
/// context before the action, then `Object.assign({}, context, partial)`).
pub struct Transition {
    pub guard: Option<usize>,
    pub assigns: Vec<(&'static str, Update)>,
}

/// The table, built once (its `Const`s are JSON values).
pub fn table() -> &'static [(&'static str, Transition)] {
    static TABLE: std::sync::OnceLock<Vec<(&'static str, Transition)>> = std::sync::OnceLock::new();
    TABLE.get_or_init(build_table)
}

fn build_table() -> Vec<(&'static str, Transition)> {
    use Update::*;
    let t = |guard, assigns| Transition { guard, assigns };
    vec![
        ("newTodo.change", t(None, vec![("todo", Call(1))])),
        ("newTodo.commit", t(Some(0), vec![("todo", Const(Value::String(String::new()))), ("todos", Call(2))])),
        ("todo.commit", t(None, vec![("todos", Call(3))])),
        ("todo.delete", t(None, vec![("todos", Call(4))])),
        ("filter.change", t(None, vec![("filter", Call(5))])),
        ("todo.mark", t(None, vec![("todos", Call(6))])),
        ("todo.markAll", t(None, vec![("todos", Call(7))])),
        ("todos.clearCompleted", t(None, vec![("todos", Call(8))])),
    ]
}

/// The events, each with the index of its transition in `table()` (the core's routing, done once).
pub fn load_events(path: &str) -> Vec<(usize, Value)> {
    let table = table();
    let text = std::fs::read_to_string(path).expect("read the events");
    text.lines()
        .filter(|l| !l.is_empty())
        .map(|l| {
            let v: Value = serde_json::from_str(l).expect("an event is JSON");
            let ty = v["type"].as_str().expect("an event has a type");
            let i = table.iter().position(|(t, _)| *t == ty).expect("a known type");
            (i, v)
        })
        .collect()
}

pub fn initial_context() -> Value {
    serde_json::json!({
        "todo": "",
        "todos": [{ "id": "1", "title": "Learn state machines", "completed": false }],
        "filter": "all"
    })
}

/// A context of `n` todos: the live run of the memory measure.
pub fn context_of(n: usize) -> Value {
    let todos: Vec<Value> = (0..n)
        .map(
            |i| serde_json::json!({ "id": format!("id{i:05}"), "title": format!("todo {i}"), "completed": i % 3 == 0 }),
        )
        .collect();
    serde_json::json!({ "todo": "", "todos": todos, "filter": "all" })
}

pub const SEED: u32 = 34;

/// mulberry32, as todos.mjs has it: the run's Math.random, its state a u32 the snapshot keeps.
pub fn mulberry32(state: &mut u32) -> f64 {
    *state = state.wrapping_add(0x6d2b_79f5);
    let a = *state;
    let mut t = (a ^ (a >> 15)).wrapping_mul(1 | a);
    t = (t.wrapping_add((t ^ (t >> 7)).wrapping_mul(61 | t))) ^ t;
    f64::from(t ^ (t >> 14)) / 4_294_967_296.0
}

/// The same generator in JavaScript, installed as Math.random where no Rust hook is (designs a, b).
pub const MULBERRY32_JS: &str = "(() => { let a = 34;
  Math.random = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }; })()";

/// `Object.assign({}, context, partial)`: xstate 5's assign, done in the engine (design a).
pub const MERGE_JS: &str = "(context, partial) => Object.assign({}, context, partial)";

/// What every side prints: FNV-1a (32 bits) of the context's JSON, its length, the todo count.
pub fn digest(context: &Value) -> String {
    let s = serde_json::to_string(context).expect("JSON");
    let mut h: u32 = 0x811c_9dc5;
    for u in s.encode_utf16() {
        h ^= u32::from(u);
        h = h.wrapping_mul(0x0100_0193);
    }
    let n = context["todos"].as_array().map_or(0, Vec::len);
    format!("{{\"todos\":{n},\"bytes\":{},\"fnv1a\":\"{h:08x}\"}}", s.encode_utf16().count())
}

/// The floor: the same calls with no host in between, the whole event loop one JavaScript
/// function of the events (an array): what the engine alone costs on this workload.
pub fn floor_js() -> String {
    let mut s = String::from("(events) => {\n  const f = [\n");
    for src in FUNCTIONS {
        s.push_str(src);
        s.push_str(",\n");
    }
    s.push_str(
        "];
  const table = {
    'newTodo.change': [-1, [['todo', 1]]],
    'newTodo.commit': [0, [['todo', -1], ['todos', 2]]],
    'todo.commit': [-1, [['todos', 3]]],
    'todo.delete': [-1, [['todos', 4]]],
    'filter.change': [-1, [['filter', 5]]],
    'todo.mark': [-1, [['todos', 6]]],
    'todo.markAll': [-1, [['todos', 7]]],
    'todos.clearCompleted': [-1, [['todos', 8]]],
  };
  let context = { todo: '', todos: [{ id: '1', title: 'Learn state machines', completed: false }], filter: 'all' };
  for (const event of events) {
    const [g, assigns] = table[event.type];
    const args = { context, event };
    if (g >= 0 && !f[g](args)) continue;
    const partial = {};
    for (const [k, i] of assigns) partial[k] = i < 0 ? '' : f[i](args);
    context = Object.assign({}, context, partial);
  }
  return JSON.stringify(context);
}",
    );
    s
}
