// A stand-in for a Worker in the bridges' unit tests: it records what is
// posted and lets the test answer, crash or check termination. The engine
// itself is never imitated: its behaviour is tested against the real wasm.

export class StandInWorker<In, Out> {
  posted: In[] = [];
  terminated = false;
  private listeners = new Map<string, ((event: never) => void)[]>();

  postMessage(message: In): void {
    this.posted.push(message);
  }
  terminate(): void {
    this.terminated = true;
  }
  addEventListener(type: string, listener: (event: never) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  /** The worker says something. */
  say(message: Out): void {
    for (const l of this.listeners.get("message") ?? []) l({ data: message } as never);
  }
  /** The worker throws at top level (or fails to load its script). */
  crash(message: string): void {
    const event = { message, filename: "worker.js", lineno: 7, preventDefault: () => undefined };
    for (const l of this.listeners.get("error") ?? []) l(event as never);
  }
}
