// The asynchronous half of Calibrate, in the worker: a file in the Origin
// Private File System and its FileSystemSyncAccessHandle (creating one is a
// Promise, and only a dedicated worker may). The engine then reads the file
// through the handle synchronously, one real call per source read
// (crate/src/wasm.rs, calibrate_opfs).

/** The file Calibrate writes, reads back and removes. */
const FILE_NAME = "buflab-calibrate.bin";

/** The parts of the OPFS API used here (the DOM lib types omit the worker-only ones). */
interface SyncHandle {
  close(): void;
}
interface FileHandle {
  createSyncAccessHandle?: () => Promise<SyncHandle>;
}
interface Directory {
  getFileHandle(name: string, options: { create: boolean }): Promise<FileHandle>;
  removeEntry(name: string): Promise<void>;
}
interface StorageLike {
  getDirectory?: () => Promise<Directory>;
}

export type OpfsFile =
  /** An open handle, to hand to the engine; `release` closes it and removes the file. */
  | { handle: SyncHandle; release(): Promise<void> }
  /** What this browser (or context) lacks, in words for the page. */
  | { missing: string };

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** Opens Calibrate's file for synchronous access, or says why it cannot. */
export async function openOpfsFile(): Promise<OpfsFile> {
  const storage = (globalThis as { navigator?: { storage?: StorageLike } }).navigator?.storage;
  if (typeof storage?.getDirectory !== "function") {
    return { missing: "This browser has no Origin Private File System (navigator.storage.getDirectory is missing)." };
  }
  let directory: Directory;
  let file: FileHandle;
  try {
    directory = await storage.getDirectory();
    file = await directory.getFileHandle(FILE_NAME, { create: true });
  } catch (error) {
    return { missing: `The Origin Private File System refused a file here (${describe(error)}).` };
  }
  if (typeof file.createSyncAccessHandle !== "function") {
    return { missing: "This browser cannot read an Origin Private File System file synchronously (no FileSystemSyncAccessHandle)." };
  }
  let handle: SyncHandle;
  try {
    handle = await file.createSyncAccessHandle();
  } catch (error) {
    return { missing: `The Origin Private File System refused a sync access handle here (${describe(error)}).` };
  }
  return {
    handle,
    async release() {
      handle.close();
      await directory.removeEntry(FILE_NAME).catch(() => undefined);
    },
  };
}
