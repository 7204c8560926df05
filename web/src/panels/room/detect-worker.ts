// The room's marker detector, in a worker of its own: each camera frame
// comes as an ImageBitmap, is read here and dropped; only the markers found
// (ids and letters) and the time the detector took go back. Nothing is kept
// between frames but the detector itself.

import { createMarkerReader } from "./marker";

export interface FrameRead {
  markers: { id: number; letter: string }[];
  /** The detector's time for this frame. */
  ms: number;
  width: number;
  height: number;
}

const read = createMarkerReader();
let canvas: OffscreenCanvas | null = null;
let context: OffscreenCanvasRenderingContext2D | null = null;

self.onmessage = (event: MessageEvent<{ frame: ImageBitmap }>) => {
  const { frame } = event.data;
  const { width, height } = frame;
  if (canvas === null || canvas.width !== width || canvas.height !== height) {
    canvas = new OffscreenCanvas(width, height);
    context = canvas.getContext("2d", { willReadFrequently: true });
  }
  context!.drawImage(frame, 0, 0);
  frame.close();
  const started = performance.now();
  const pixels = context!.getImageData(0, 0, width, height);
  const markers = read(pixels);
  const reply: FrameRead = { markers, ms: performance.now() - started, width, height };
  self.postMessage(reply);
};
