// The room's camera, at the page's edge (effects.ts starts and stops it):
// getUserMedia on this computer, each frame handed to the detector's worker
// (detect-worker.ts) as soon as the last one is read, the markers found
// reported back. No frame is stored, drawn or sent anywhere. Each frame's
// detector time is a performance measure (`buflab:room-frame`), for the
// bench and the tests.

import type { FrameRead } from "./detect-worker";
import type { Letter } from "../../shared/cards";

export interface CameraReports {
  on(): void;
  failed(refused: boolean, message: string): void;
  seen(markers: { id: number; letter: Letter }[]): void;
}

/** What a failed getUserMedia means for the room, in words. */
export function cameraFailure(error: unknown): { refused: boolean; message: string } {
  const name = error instanceof DOMException ? error.name : "";
  if (name === "NotAllowedError" || name === "SecurityError") return { refused: true, message: "The camera was refused" };
  if (name === "NotFoundError" || name === "OverconstrainedError") return { refused: false, message: "No camera was found" };
  if (name === "NotReadableError") return { refused: false, message: "The camera is in use by another program" };
  return { refused: false, message: `The camera could not start${error instanceof Error && error.message ? ` (${error.message})` : ""}` };
}

/** Starts the camera and the detector; the function returned stops both. */
export function startCamera(reports: CameraReports): () => void {
  let stopped = false;
  let stream: MediaStream | null = null;
  let worker: Worker | null = null;
  const stop = (): void => {
    stopped = true;
    stream?.getTracks().forEach((t) => t.stop());
    worker?.terminate();
  };
  if (!navigator.mediaDevices?.getUserMedia) {
    reports.failed(false, "This browser offers no camera to this page (a camera needs https or localhost)");
    return stop;
  }
  navigator.mediaDevices
    .getUserMedia({ audio: false, video: { width: { ideal: 1280 }, height: { ideal: 720 }, facingMode: "environment" } })
    .then(async (media) => {
      stream = media;
      if (stopped) return stop();
      const video = document.createElement("video");
      video.muted = true;
      video.playsInline = true;
      video.srcObject = media;
      await video.play();
      if (stopped) return;
      worker = new Worker(new URL("./detect-worker.ts", import.meta.url), { type: "module", name: "buflab-room" });
      reports.on();
      const next = async (): Promise<void> => {
        if (stopped) return;
        const frame = await createImageBitmap(video);
        if (stopped) return frame.close();
        worker!.postMessage({ frame }, [frame]);
      };
      worker.onmessage = (event: MessageEvent<FrameRead>) => {
        if (stopped) return;
        const { markers, ms } = event.data;
        performance.measure("buflab:room-frame", { start: performance.now() - ms, duration: ms });
        reports.seen(markers as { id: number; letter: Letter }[]);
        void next();
      };
      void next();
    })
    .catch((error: unknown) => {
      if (stopped) return;
      const { refused, message } = cameraFailure(error);
      reports.failed(refused, message);
    });
  return stop;
}
