// realistic: a media player (parallel playback and volume, deep history, tags).
import { setup } from "xstate";

export const machine = setup({}).createMachine({
  id: "player",
  type: "parallel",
  states: {
    playback: {
      initial: "stopped",
      states: {
        stopped: { tags: "idle", on: { play: "playing" } },
        playing: {
          tags: "busy",
          initial: "normal",
          states: { normal: { on: { ff: "fast" } }, fast: { on: { ff: "normal" } } },
          on: { pause: "paused", stop: "stopped" },
        },
        paused: { on: { play: "hist", stop: "stopped" } },
        hist: { type: "history", history: "deep", target: "playing" },
      },
    },
    volume: {
      initial: "unmuted",
      states: { unmuted: { on: { mute: "muted" } }, muted: { on: { mute: "unmuted" } } },
    },
  },
});
