// xstate's todomvc `todosMachine` (examples/todomvc-react/src/todosMachine.ts, the xstate 5
// version), written again here as the JavaScript that a type strip of it gives: the same guard and
// `assign` functions, text for text, that src/todos.rs hands to the embedded engines.
//
// Math.random is the one thing of the run that is not a function of the events: `seeded(seed)`
// replaces it with mulberry32, the generator src/todos.rs implements in Rust too, so that every
// side gives the same todo ids and so the same final context.
import { assign, createMachine } from "xstate";

export function mulberry32(seed) {
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// JR2_TODOS_SEED sets it: bench/runtime.sh gives the generator's state jr2 seeds a run of the
// session "jr2" with (FNV-1a of its id), so that both sides make the same todo ids.
export const SEED = Number(process.env.JR2_TODOS_SEED ?? 34);

export const todosMachine = createMachine({
  id: "todos",
  context: {
    todo: "",
    todos: [{ id: "1", title: "Learn state machines", completed: false }],
    filter: "all",
  },
  on: {
    "newTodo.change": {
      actions: assign({
        todo: ({ event }) => event.value,
      }),
    },
    "newTodo.commit": {
      guard: ({ event }) => event.value.trim().length > 0,
      actions: assign({
        todo: "",
        todos: ({ context, event }) => {
          const newTodo = {
            id: Math.random().toString(36).substring(7),
            title: event.value,
            completed: false,
          };
          return [...context.todos, newTodo];
        },
      }),
    },
    "todo.commit": {
      actions: assign({
        todos: ({ context, event }) => {
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
        },
      }),
    },
    "todo.delete": {
      actions: assign({
        todos: ({ context, event }) => {
          const { id } = event;
          return context.todos.filter((todo) => todo.id !== id);
        },
      }),
    },
    "filter.change": {
      actions: assign({
        filter: ({ event }) => event.filter,
      }),
    },
    "todo.mark": {
      actions: assign({
        todos: ({ context, event }) => {
          const { mark } = event;
          return context.todos.map((todo) => {
            if (todo.id === event.id) {
              return { ...todo, completed: mark === "completed" };
            }
            return todo;
          });
        },
      }),
    },
    "todo.markAll": {
      actions: assign({
        todos: ({ context, event }) => {
          const { mark } = event;
          return context.todos.map((todo) => {
            return { ...todo, completed: mark === "completed" };
          });
        },
      }),
    },
    "todos.clearCompleted": {
      actions: assign({
        todos: ({ context }) => {
          return context.todos.filter((todo) => !todo.completed);
        },
      }),
    },
  },
});

// FNV-1a (32 bits) of the context's JSON: what every side prints to show it ends the same.
export function digest(context) {
  const s = JSON.stringify(context);
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return { todos: context.todos.length, bytes: s.length, fnv1a: h.toString(16).padStart(8, "0") };
}
