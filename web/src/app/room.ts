// The room's answers, the page model's room section (state.ts holds a
// `room` and sends room actions here): in presenter mode at a predict step,
// the teacher scans the room's printed cards with this computer's camera,
// or types the raised hands per letter; Reveal shows the room's histogram
// beside the real answer. Pure: the camera and the marker detector are the
// edge's (effects.ts → panels/room/camera.ts); what they report arrives as
// actions.
//
// Rules:
//   - a scan starts only in presenter mode at a predict step (`canScan`);
//   - a card seen again counts its latest letter; a marker that is no card
//     never counts (`cardOf`);
//   - the answers freeze at Reveal: the camera stops, and nothing seen after counts;
//   - another lesson (or step) starts an empty room, and stops the camera.

import { cardOf, LETTERS, type Letter } from "../shared/cards";

/** Where the camera is: off; asked for; reading frames; refused by the person or the browser; absent from this browser. */
export type Camera = "off" | "starting" | "on" | "refused" | "unavailable";

export interface Room {
  camera: Camera;
  /** Why the camera is refused or unavailable, in words (null otherwise). */
  cameraNote: string | null;
  /** Each card's latest letter, by card number. */
  cards: Readonly<Record<number, Letter>>;
  /** Raised hands typed per letter. */
  hands: Readonly<Record<Letter, number>>;
  /** Frames read since the camera went on (what the page says of the scan). */
  frames: number;
}

export type RoomAction =
  /** Scan the room pressed. */
  | { kind: "scan" }
  /** Stop scanning pressed. */
  | { kind: "stop" }
  /** The camera is reading frames. */
  | { kind: "cameraOn" }
  /** The camera could not be had: refused (permission), or none in this browser. */
  | { kind: "cameraFailed"; refused: boolean; message: string }
  /** A frame was read: the markers in it (by marker id) and the letter each shows on top. */
  | { kind: "seen"; markers: readonly { id: number; letter: Letter }[] }
  /** Raised hands typed for one letter. */
  | { kind: "hands"; letter: Letter; count: number }
  /** Start again: no answers. */
  | { kind: "clear" };

export type RoomEffect = { kind: "startCamera" } | { kind: "stopCamera" };

const noHands = (): Record<Letter, number> => ({ A: 0, B: 0, C: 0, D: 0 });

export function emptyRoom(): Room {
  return { camera: "off", cameraNote: null, cards: {}, hands: noHands(), frames: 0 };
}

/** Where the room's scan may run: presenter mode, a lesson's question waiting for its answer. */
export interface RoomContext {
  present: boolean;
  asking: boolean;
}

export function canScan(context: RoomContext): boolean {
  return context.present && context.asking;
}

/** True while the camera is asked for or reading. */
export function scanning(room: Room): boolean {
  return room.camera === "starting" || room.camera === "on";
}

/** The most hands one letter may have: a room, not a stadium. */
export const MAX_HANDS = 999;

/** The room's next state and the camera's effects. */
export function roomUpdate(room: Room, action: RoomAction, context: RoomContext): { room: Room; effects: RoomEffect[] } {
  const same = { room, effects: [] };
  switch (action.kind) {
    case "scan":
      if (!canScan(context) || scanning(room)) return same;
      return { room: { ...room, camera: "starting", cameraNote: null, frames: 0 }, effects: [{ kind: "startCamera" }] };
    case "stop":
      return scanning(room) ? { room: { ...room, camera: "off" }, effects: [{ kind: "stopCamera" }] } : same;
    case "cameraOn":
      return room.camera === "starting" ? { room: { ...room, camera: "on" }, effects: [] } : { room, effects: [{ kind: "stopCamera" }] };
    case "cameraFailed":
      if (room.camera !== "starting") return same;
      return { room: { ...room, camera: action.refused ? "refused" : "unavailable", cameraNote: action.message }, effects: [] };
    case "seen": {
      if (room.camera !== "on" || !context.asking) return same;
      const cards = { ...room.cards };
      for (const m of action.markers) {
        const card = cardOf(m.id);
        if (card !== null && LETTERS.includes(m.letter)) cards[card] = m.letter;
      }
      return { room: { ...room, cards, frames: room.frames + 1 }, effects: [] };
    }
    case "hands": {
      const count = Number.isFinite(action.count) ? Math.min(MAX_HANDS, Math.max(0, Math.floor(action.count))) : 0;
      return { room: { ...room, hands: { ...room.hands, [action.letter]: count } }, effects: [] };
    }
    case "clear":
      return { room: { ...emptyRoom(), camera: room.camera }, effects: [] };
  }
}

/** At Reveal the answers freeze: the camera stops. */
export function roomRevealed(room: Room): { room: Room; effects: RoomEffect[] } {
  return scanning(room) ? { room: { ...room, camera: "off" }, effects: [{ kind: "stopCamera" }] } : { room, effects: [] };
}

/** Another lesson or step: an empty room, the camera stopped. */
export function roomLeft(room: Room): { room: Room; effects: RoomEffect[] } {
  const empty = Object.keys(room.cards).length === 0 && LETTERS.every((l) => room.hands[l] === 0) && room.camera === "off";
  return empty ? { room, effects: [] } : { room: emptyRoom(), effects: scanning(room) ? [{ kind: "stopCamera" }] : [] };
}

/** The card numbers that have answered, in order (what the page shows while asking: who, never what). */
export function answeredCards(room: Room): number[] {
  return Object.keys(room.cards)
    .map(Number)
    .sort((a, b) => a - b);
}

/** How many answered each letter: the cards' latest letters and the hands typed. */
export function histogram(room: Room): Record<Letter, number> {
  const counts = { ...room.hands };
  for (const letter of Object.values(room.cards)) counts[letter] += 1;
  return counts;
}
