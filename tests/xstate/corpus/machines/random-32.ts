// random: a mixed machine (seed 32): 62 states, 3 history, 5 parallel, 12 with ids.
import { and, assign, fromCallback, fromPromise, not, or, setup, stateIn } from "xstate";

export const machine = setup({
  actors: {
    fetcher: fromPromise(async () => ({ ok: true })),
    ticker: fromCallback(({ sendBack }) => { sendBack({ type: "tick" }); return () => {}; }),
  },
  guards: {
    isReady: ({ context }) => context.ready,
    canRetry: ({ context }) => context.retries < 3,
    isAdmin: ({ context }) => context.role === "admin",
    hasItems: ({ context }) => context.items.length > 0,
  },
  delays: { long: 5000, backoff: ({ context }) => (context.retries + 1) * 1000 },
  actions: { track: () => {}, reset: assign({ retries: 0 }) },
}).createMachine({
  id: "mix32",
  context: { ready: false, retries: 0, role: "user", items: [] },
  initial: "shut",
  on: {
    "user.click": [
      { actions: "track", guard: "hasItems" },
      { target: ".shut.off", guard: or(["isAdmin", not("hasItems")]) },
    ],
  },
  states: {
    busy: {
      on: {
        go: [
          { target: "#shut-3.beta.open", guard: or(["hasItems", not("isReady")]) },
          { target: "#mix32.gamma.ready.off.busy", guard: stateIn("#open-15") },
        ],
        toggle: { target: "#mix32.shut.wait" },
        cancel: "#shut-3.busy.off",
      },
    },
    done: {
      initial: "shut",
      on: { back: "#mix32.shut.wait", "user.click": { target: "#mix32.shut" } },
      onDone: { target: "#shut-3.busy.idle" },
      states: {
        shut: {
          id: "shut-3",
          initial: "idle",
          on: {
            tick: [
              { target: "#mix32.gamma.ready.load", guard: not("canRetry"), reenter: true },
              { target: "#mix32.shut.open.idle.view" },
            ],
          },
          after: {
            "2500": { target: "#open-41.busy.edit", guard: "hasItems" },
            long: { target: "#mix32.gamma.beta", guard: "isAdmin" },
          },
          onDone: "#mix32.gamma.ready.load.busy",
          states: {
            idle: {
              on: {
                reset: { target: "#mix32.shut.alpha.off.shut", guard: not("isAdmin") },
                "user.click": "#mix32.gamma.ready.off",
              },
            },
            beta: {
              id: "beta-5",
              type: "parallel",
              always: { target: "#mix32.gamma.beta.load.ready", guard: and(["hasItems", "canRetry"]) },
              states: {
                open: {
                  id: "open-6",
                  invoke: {
                    src: "fetcher",
                    id: "inv68",
                    onDone: { target: "#mix32.done.shut.busy.idle", reenter: true },
                  },
                  on: {
                    next: [
                      { target: "#mix32.gamma.beta.open.idle", guard: "canRetry" },
                      { target: "#open-41.busy.view" },
                    ],
                  },
                },
                view: { on: { tick: { target: "#mix32.done.idle.edit" } } },
                shut: {
                  invoke: [
                    {
                      src: "fetcher",
                      id: "inv82",
                      systemId: "sys85",
                      onDone: { target: ["#beta-5.open", "#beta-5.view"], reenter: true },
                      onError: { target: "#open-41.busy.hist", reenter: true },
                    },
                    { src: "ticker", systemId: "sys88" },
                  ],
                  on: {
                    "ui.*": [{ actions: "track", guard: not("canRetry") }, { target: "#open-41.busy.hist" }],
                  },
                },
                hist: { type: "history", history: "deep", target: "open" },
              },
            },
            busy: {
              initial: "idle",
              tags: "busy",
              on: {
                "user.click": { target: "#mix32.gamma.ready.load.busy" },
                go: [
                  { target: "#open-32", guard: and(["isReady", "hasItems"]), reenter: true },
                  { target: "#shut-3.beta" },
                ],
                tick: { actions: "track", guard: stateIn("#shut-59") },
              },
              onDone: "#mix32.gamma.beta.open.load",
              states: {
                idle: {
                  after: {
                    long: {
                      target: "#mix32.gamma.beta.load.shut",
                      guard: and(["isReady", "canRetry"]),
                      reenter: true,
                    },
                  },
                },
                off: {
                  id: "off-12",
                  on: {
                    submit: { target: "#mix32.shut.alpha.off", reenter: true },
                    next: [
                      { actions: "track", guard: "isReady" },
                      { actions: "track", guard: "hasItems", reenter: true },
                    ],
                  },
                },
                shut: {
                  tags: "busy",
                  on: {
                    "ui.*": [
                      { target: "#mix32.shut.open.idle.view", guard: "canRetry" },
                      { target: "#mix32.gamma" },
                    ],
                    "user.click": { target: "#mix32.done.open" },
                  },
                },
              },
            },
            off: { type: "final", tags: "busy" },
          },
        },
        open: { id: "open-15", type: "final" },
        idle: {
          type: "parallel",
          invoke: [
            {
              src: "fetcher",
              systemId: "sys160",
              onDone: { target: "#mix32.gamma.beta.load.shut", guard: and(["isReady", "hasItems"]) },
              onError: "#mix32.shut.open.view",
            },
            { src: "fetcher", onDone: "#mix32.shut.open.edit", onError: "#off-60" },
          ],
          on: {
            cancel: [{ target: "#mix32.gamma.ready.off.on", guard: "isReady" }, { target: "#off-60" }],
          },
          states: { edit: {}, alpha: { tags: "busy" } },
        },
      },
    },
    gamma: {
      type: "parallel",
      states: {
        ready: {
          initial: "load",
          invoke: { src: "ticker" },
          on: {
            toggle: { actions: "track" },
            reset: [
              { actions: "track", guard: "canRetry", reenter: true },
              { target: "#mix32.done.shut.beta" },
            ],
            tick: [
              { target: "#mix32.gamma.beta.load.shut", guard: and(["canRetry", "hasItems"]) },
              { target: "#mix32.shut.open.edit", guard: or(["hasItems", not("isReady")]) },
            ],
          },
          states: {
            off: {
              initial: "on",
              after: {
                "2500": { target: "#mix32.shut.open.idle.done", guard: stateIn("#open-41") },
                long: { target: "#mix32.shut.alpha.off.edit", guard: "isReady", reenter: true },
              },
              states: {
                on: {
                  on: {
                    tick: { target: "#mix32.done.idle.edit", guard: "canRetry" },
                    reset: "#mix32.gamma.beta.open.idle",
                  },
                },
                beta: {
                  on: {
                    reset: { target: "#mix32.done.idle.alpha", guard: "isAdmin" },
                    go: { actions: "track", guard: "isAdmin" },
                  },
                },
                load: { type: "final", tags: "busy" },
                busy: {
                  on: {
                    reset: "#open-41",
                    cancel: { target: "#mix32.gamma.beta.open.load" },
                    "user.click": { target: "#mix32.done.idle.alpha" },
                  },
                  always: { target: "#mix32.done", guard: "canRetry" },
                },
              },
            },
            load: {
              id: "load-26",
              initial: "gamma",
              on: {
                submit: [
                  { target: "#mix32.shut.open.view", guard: "hasItems" },
                  { target: "#mix32.shut.alpha.off.edit", guard: "canRetry" },
                ],
                cancel: "#mix32.shut.open.idle.done",
                tick: [
                  {
                    target: "#mix32.shut.open.busy.hist",
                    guard: ({ context }) => context.retries > 0,
                  },
                  { target: "#beta-5.open" },
                ],
              },
              states: {
                gamma: {
                  invoke: [
                    { src: "fetcher", onError: { target: "#mix32.gamma.ready.off", reenter: true } },
                    { src: "ticker", id: "inv276", systemId: "sys271" },
                  ],
                  on: {
                    back: {
                      target: "#mix32.gamma.ready.load.gamma",
                      guard: and(["hasItems", "hasItems"]),
                    },
                    cancel: { target: "#mix32.shut.alpha.beta", guard: "isAdmin" },
                  },
                },
                done: {
                  tags: ["busy", "t28"],
                  on: {
                    "ui.*": [
                      { target: "#beta-5.open", guard: not("hasItems") },
                      {
                        target: "#shut-3.busy.off",
                        guard: ({ context }) => context.retries > 0,
                        reenter: true,
                      },
                    ],
                  },
                },
                off: {
                  invoke: {
                    src: "fetcher",
                    onDone: "#mix32.shut.open.busy.view",
                    onError: { target: "#beta-5.shut", guard: "isReady" },
                  },
                  on: {
                    next: [
                      { target: "#load-26.gamma", guard: stateIn("#off-12") },
                      { target: "#mix32.gamma.ready.off.on" },
                    ],
                  },
                },
                busy: { type: "final", tags: ["busy", "t30"] },
              },
            },
          },
        },
        beta: {
          initial: "open",
          on: {
            tick: [
              { target: "#mix32.shut.open.idle.wait", guard: "hasItems" },
              { target: "#shut-3.busy" },
            ],
          },
          onDone: "#mix32.busy",
          states: {
            open: {
              id: "open-32",
              initial: "load",
              on: { go: "#open-15", cancel: { target: "#mix32.shut" } },
              states: {
                edit: {
                  on: {
                    submit: [
                      { target: "#mix32.shut.alpha.alpha", guard: not("isReady") },
                      { target: "#mix32.shut.open.idle.hist" },
                    ],
                    "user.click": { target: "#idle-34", guard: "isAdmin" },
                  },
                },
                idle: {
                  id: "idle-34",
                  on: {
                    submit: "#load-26",
                    back: [
                      { target: "#mix32.done.idle.edit", guard: "hasItems" },
                      { target: "#mix32.gamma.ready.off" },
                    ],
                    "user.click": { target: "#mix32.gamma.beta.load.shut" },
                  },
                },
                load: { on: { toggle: "#mix32.gamma.beta" } },
              },
            },
            load: {
              initial: "shut",
              invoke: { src: "ticker", id: "inv361" },
              on: {
                submit: "#mix32.shut.wait",
                "user.click": { target: "#mix32.done.idle", guard: "isReady" },
                go: [
                  { target: "#mix32.done.shut.off", guard: or(["hasItems", not("isAdmin")]) },
                  { target: "#mix32.shut" },
                ],
              },
              states: {
                shut: {
                  on: {
                    reset: { target: "#mix32.gamma.ready.off.beta" },
                    go: { target: "#load-26.busy", guard: stateIn("#beta-5") },
                  },
                  after: { "1000": { target: "#mix32.shut.off", guard: "hasItems" } },
                },
                on: {
                  id: "on-38",
                  on: {
                    "user.click": "#mix32.gamma.beta",
                    tick: { actions: "track", guard: "isAdmin" },
                    back: { target: "#mix32.gamma.ready.load.gamma" },
                  },
                  always: { target: "#mix32.shut.wait", guard: or(["isReady", not("hasItems")]) },
                },
                ready: { type: "final" },
              },
            },
          },
        },
      },
    },
    shut: {
      initial: "open",
      invoke: { src: "fetcher", onError: { actions: "track" } },
      on: {
        tick: { target: "#mix32.gamma.ready.load.busy", guard: "isReady" },
        "user.click": [
          { target: "#on-38", guard: ({ context }) => context.retries > 0 },
          { target: ".open.idle.wait" },
        ],
      },
      always: { target: "done.shut.busy.shut", guard: "isReady", reenter: true },
      onDone: { target: "busy" },
      states: {
        open: {
          id: "open-41",
          initial: "idle",
          tags: "busy",
          invoke: {
            src: "fetcher",
            onDone: { target: "alpha.off.shut", reenter: true },
            onError: { target: "#mix32.done.shut.beta", guard: "hasItems" },
          },
          on: {
            tick: { target: "alpha.off.shut" },
            reset: { target: "#mix32.shut.alpha.off.edit", guard: not("isReady") },
          },
          onDone: { target: "#shut-3.beta.shut", reenter: true },
          states: {
            idle: {
              type: "parallel",
              tags: ["busy", "t42"],
              on: {
                back: { target: "#mix32.shut.alpha", guard: and(["canRetry", "isAdmin"]), reenter: true },
              },
              after: {
                "100": "#mix32.gamma.ready.off.load",
                backoff: { target: "#mix32.shut.alpha.alpha", guard: "canRetry" },
              },
              states: {
                view: { after: { "100": "view" } },
                done: { on: { back: { target: "#hist-52" } } },
                wait: {
                  on: {
                    submit: { actions: "track" },
                    reset: [{ target: "#on-38", guard: "isAdmin" }, { actions: "track" }],
                  },
                },
                hist: { history: true, target: "done" },
              },
            },
            view: { on: { cancel: { target: "#mix32.gamma.ready.off.busy", guard: "canRetry" } } },
            edit: {
              on: {
                "user.click": "#mix32.gamma.ready.off.beta",
                back: { target: "#mix32.gamma.ready.off.load", guard: stateIn("#idle-34"), reenter: true },
              },
            },
            busy: {
              type: "parallel",
              on: {
                "ui.*": { actions: "track", guard: and(["canRetry", "isAdmin"]) },
                reset: { target: "#mix32.done.shut.beta.view", guard: "isReady", reenter: true },
              },
              states: {
                view: {
                  on: {
                    tick: [{ target: ["view", "edit"], guard: "isReady" }, { target: "edit" }],
                    reset: { target: ["#open-41.busy.view", "#mix32.shut.open.busy.edit"] },
                  },
                  always: { target: "#mix32.shut", guard: "isReady" },
                },
                edit: {
                  on: {
                    next: [
                      { target: "#mix32.done.shut.busy", guard: "hasItems" },
                      { target: ["#mix32.shut.open.busy.view", "#open-41.busy.edit"] },
                    ],
                  },
                  after: { "1000": "#mix32.gamma.ready.load.done" },
                },
                hist: { id: "hist-52", type: "history", target: "view" },
              },
            },
          },
        },
        alpha: {
          initial: "alpha",
          on: { next: { actions: "track", guard: not("isAdmin") } },
          states: {
            alpha: { invoke: { src: "fetcher", onError: "#load-26.gamma" } },
            beta: {
              invoke: { src: "ticker", id: "inv553" },
              on: {
                "user.click": [
                  { target: "#mix32.gamma.beta.open.idle", guard: not("hasItems") },
                  { target: "off.edit" },
                ],
                reset: [{ target: "off.shut", guard: "isAdmin" }, { target: "#on-38" }],
                toggle: [{ target: "#shut-3.idle", guard: stateIn("#on-38") }, { actions: "track" }],
              },
            },
            off: {
              initial: "edit",
              on: {
                next: [
                  { target: "#open-41.view", guard: stateIn("#off-12") },
                  { target: "#mix32.gamma.ready.off.beta" },
                ],
                tick: "#mix32.shut.alpha.off.shut",
                "ui.*": "#mix32.gamma.ready.load.done",
              },
              states: {
                edit: { on: { go: { target: "#mix32.shut.off", reenter: true } } },
                alpha: {
                  on: {
                    "user.click": { target: "#mix32.gamma.beta.load.ready" },
                    cancel: { target: "#mix32.shut.alpha", reenter: true },
                  },
                },
                shut: { id: "shut-59" },
              },
            },
          },
        },
        off: { id: "off-60", on: { next: "#mix32.gamma" } },
        wait: {
          on: {
            "user.click": { target: "open.busy.view" },
            next: [
              { target: "#mix32.shut.open.idle.done", guard: not("isAdmin") },
              { actions: "track", guard: and(["isReady", "isReady"]) },
            ],
            tick: { actions: "track" },
          },
        },
      },
    },
  },
});
