// The room's answers in the page's model: a scan only in presenter mode at
// a predict step, a card's latest letter, unknown markers ignored, the
// answers frozen and the camera stopped at Reveal, an empty room on the next
// lesson, and the hand count's histogram without a camera.

import { describe, expect, it } from "vitest";
import { realCodec } from "../engine/real-engine";
import schema from "../engine/schema.gen.json";
import type { Decoded, Params } from "../engine/types.gen";
import { answeredCards, emptyRoom, histogram, MAX_HANDS, roomLeft, roomUpdate, type Room, type RoomAction } from "./room";
import { initialState, update, type AppState, type Effect } from "./state";

const defaults = schema.defaults as unknown as Params;
const codec = realCodec();
const decoded = (p: Params): Decoded => ({ params: p, notices: [], fragment: codec.links(p).link, links: codec.links(p) });
function stateWith(p: Partial<Params>): AppState {
  return update(initialState(decoded({ ...defaults, ...p }), codec), { type: "codecReady" }).state;
}
const presenting = () => stateWith({ present: true, predict: true, lesson: "one-byte" });

/** Applies room actions in turn; the effects of the last. */
function act(state: AppState, ...actions: RoomAction[]): { state: AppState; effects: Effect[] } {
  let effects: Effect[] = [];
  for (const action of actions) ({ state, effects } = update(state, { type: "room", action }));
  return { state, effects };
}
const cameraEffects = (effects: Effect[]) => effects.filter((e) => e.type === "room").map((e) => (e.type === "room" ? e.effect.kind : ""));

describe("the room (the model)", () => {
  it("scans only in presenter mode while the question asks", () => {
    expect(cameraEffects(act(presenting(), { kind: "scan" }).effects)).toEqual(["startCamera"]);
    expect(act(presenting(), { kind: "scan" }).state.room.camera).toBe("starting");
    for (const p of [{ present: false, predict: true, lesson: "one-byte" as const }, { present: true, predict: false, lesson: "one-byte" as const }, { present: true, predict: true, lesson: null }]) {
      const { state, effects } = act(stateWith(p), { kind: "scan" });
      expect(effects, JSON.stringify(p)).toEqual([]);
      expect(state.room.camera).toBe("off");
    }
    const revealed = update(presenting(), { type: "reveal" }).state;
    expect(act(revealed, { kind: "scan" }).effects).toEqual([]);
  });

  it("counts each card's latest letter, shows who answered and never a marker that is no card", () => {
    const { state } = act(
      presenting(),
      { kind: "scan" },
      { kind: "cameraOn" },
      { kind: "seen", markers: [{ id: 0, letter: "A" }, { id: 4, letter: "C" }, { id: 40, letter: "B" }, { id: 977, letter: "D" }] },
      { kind: "seen", markers: [{ id: 0, letter: "B" }, { id: 9, letter: "B" }] },
    );
    expect(answeredCards(state.room)).toEqual([1, 5, 10]);
    expect(histogram(state.room)).toEqual({ A: 0, B: 2, C: 1, D: 0 });
    expect(state.room.frames).toBe(2);
  });

  it("ignores frames before the camera is on, and freezes the answers at Reveal, stopping the camera", () => {
    const before = act(presenting(), { kind: "scan" }, { kind: "seen", markers: [{ id: 1, letter: "A" }] }).state;
    expect(answeredCards(before.room)).toEqual([]);
    const on = act(before, { kind: "cameraOn" }, { kind: "seen", markers: [{ id: 1, letter: "A" }] }).state;
    const revealed = update(on, { type: "reveal" });
    expect(cameraEffects(revealed.effects)).toEqual(["stopCamera"]);
    expect(revealed.state.room.camera).toBe("off");
    const late = act(revealed.state, { kind: "seen", markers: [{ id: 2, letter: "D" }] }).state;
    expect(histogram(late.room)).toEqual({ A: 1, B: 0, C: 0, D: 0 });
    // A clicker's forward reveals too.
    expect(cameraEffects(update(on, { type: "forward", order: ["one-byte", "no-help"] }).effects)).toEqual(["stopCamera"]);
  });

  it("starts the next lesson with an empty room and the camera stopped", () => {
    const on = act(presenting(), { kind: "scan" }, { kind: "cameraOn" }, { kind: "seen", markers: [{ id: 1, letter: "A" }] }, { kind: "hands", letter: "C", count: 3 }).state;
    const next = { ...defaults, present: true, predict: true, lesson: "no-help" as const };
    const moved = update(on, { type: "linkLoaded", link: decoded(next), links: codec.links(next) });
    expect(cameraEffects(moved.effects)).toEqual(["stopCamera"]);
    expect(histogram(moved.state.room)).toEqual({ A: 0, B: 0, C: 0, D: 0 });
    expect(moved.state.room.camera).toBe("off");
  });

  it("without a camera, the hands typed make the histogram; a refusal is said", () => {
    const refused = act(presenting(), { kind: "scan" }, { kind: "cameraFailed", refused: true, message: "Permission denied" }).state;
    expect(refused.room.camera).toBe("refused");
    expect(refused.room.cameraNote).toBe("Permission denied");
    const counted = act(refused, { kind: "hands", letter: "A", count: 4 }, { kind: "hands", letter: "D", count: 2.7 }, { kind: "hands", letter: "B", count: -3 }, { kind: "hands", letter: "C", count: 1e9 }).state;
    expect(histogram(counted.room)).toEqual({ A: 4, B: 0, C: MAX_HANDS, D: 2 });
    // A camera that comes after a refusal is not used.
    expect(cameraEffects(act(refused, { kind: "cameraOn" }).effects)).toEqual(["stopCamera"]);
  });

  it("stops the camera when presenter mode goes off", () => {
    const on = act(presenting(), { kind: "scan" }, { kind: "cameraOn" }).state;
    const off = { ...on.params, present: false };
    expect(cameraEffects(update(on, { type: "display", params: off, links: codec.links(off) }).effects)).toEqual(["stopCamera"]);
  });

  it("stops a camera still starting, ignores a second scan and a late failure, and asks the page for nothing else", () => {
    const asking = { present: true, asking: true };
    const starting = roomUpdate(emptyRoom(), { kind: "scan" }, asking).room;
    expect(starting.camera).toBe("starting");
    // A second press while the camera starts: nothing new.
    expect(roomUpdate(starting, { kind: "scan" }, asking)).toEqual({ room: starting, effects: [] });
    // Stop before the camera answered: stopped (the camera may still come, and is then stopped at once).
    expect(roomUpdate(starting, { kind: "stop" }, asking)).toEqual({ room: { ...starting, camera: "off" }, effects: [{ kind: "stopCamera" }] });
    const on = roomUpdate(starting, { kind: "cameraOn" }, asking);
    expect(on).toEqual({ room: { ...starting, camera: "on" }, effects: [] });
    expect(roomUpdate(on.room, { kind: "stop" }, asking)).toEqual({ room: { ...on.room, camera: "off" }, effects: [{ kind: "stopCamera" }] });
    // A failure reported after the camera came (or after Stop) changes nothing.
    const late = { kind: "cameraFailed", refused: true, message: "late" } as const;
    expect(roomUpdate(on.room, late, asking)).toEqual({ room: on.room, effects: [] });
    expect(roomUpdate(emptyRoom(), late, asking)).toEqual({ room: emptyRoom(), effects: [] });
    expect(roomUpdate(starting, late, asking)).toEqual({ room: { ...starting, camera: "refused", cameraNote: "late" }, effects: [] });
    // No camera at all (not a refusal): said as unavailable.
    expect(roomUpdate(starting, { kind: "cameraFailed", refused: false, message: "none" }, asking).room).toEqual({ ...starting, camera: "unavailable", cameraNote: "none" });
    // Frames and hands change the counts only: no camera effect.
    expect(roomUpdate(on.room, { kind: "seen", markers: [{ id: 1, letter: "A" }] }, asking).effects).toEqual([]);
    expect(roomUpdate(on.room, { kind: "hands", letter: "B", count: 2 }, asking).effects).toEqual([]);
    // Clear empties the answers and keeps the camera as it is, running or not.
    const full = roomUpdate(roomUpdate(on.room, { kind: "seen", markers: [{ id: 1, letter: "A" }] }, asking).room, { kind: "hands", letter: "B", count: 2 }, asking).room;
    expect(roomUpdate(full, { kind: "clear" }, asking)).toEqual({ room: { ...emptyRoom(), camera: "on" }, effects: [] });
  });

  it("leaves an empty room as it is, and empties any other, stopping only a camera that runs", () => {
    const empty = emptyRoom();
    expect(roomLeft(empty).room).toBe(empty);
    expect(roomLeft(empty).effects).toEqual([]);
    const cases: [string, Room, string[]][] = [
      ["a card", { ...empty, cards: { 3: "A" } }, []],
      ["hands", { ...empty, hands: { ...empty.hands, D: 1 } }, []],
      ["a refusal said", { ...empty, camera: "refused", cameraNote: "no" }, []],
      ["a camera starting", { ...empty, camera: "starting" }, ["stopCamera"]],
      ["a camera on", { ...empty, camera: "on" }, ["stopCamera"]],
    ];
    for (const [what, room, effects] of cases) {
      const left = roomLeft(room);
      expect(left.room, what).toEqual(emptyRoom());
      expect(left.effects.map((e) => e.kind), what).toEqual(effects);
    }
  });
});
