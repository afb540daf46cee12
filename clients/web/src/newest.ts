// The session's newest refresh token, where every tab of the browser reads the same one:
// IndexedDB, whose transactions are ordered across tabs. localStorage alone is not enough
// inside the refresh lock: Chromium keeps a copy of it in each renderer process and brings
// the others up to date asynchronously, so a tab that took the lock just after another
// wrote its new token could still read the spent one (seen: `refresh_reused` in the
// two-tab browser test). Without IndexedDB, localStorage is all there is.

export interface Newest {
  sessionId: string;
  refreshToken: string;
}

const DB = "pf";
const STORE = "session";
const KEY = "refresh";
let opened: Promise<IDBDatabase | null> | null = null;

function database(): Promise<IDBDatabase | null> {
  opened ??= new Promise((resolve) => {
    try {
      const request = indexedDB.open(DB, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(STORE);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => resolve(null);
    } catch {
      resolve(null); // no IndexedDB here
    }
  });
  return opened;
}

/** Run `work` in one transaction; resolve once it has committed (or failed: null). */
async function transaction<T>(mode: IDBTransactionMode, work: (store: IDBObjectStore) => IDBRequest<T> | void): Promise<T | null> {
  const db = await database();
  if (!db) return null;
  return new Promise((resolve) => {
    const tx = db.transaction(STORE, mode);
    const request = work(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(request ? request.result : null);
    tx.onerror = tx.onabort = () => resolve(null);
  });
}

/** The newest refresh token of `sessionId` that any tab stored, or null when none is known. */
export async function readNewest(sessionId: string): Promise<string | null> {
  const newest = (await transaction("readonly", (store) => store.get(KEY))) as Newest | undefined | null;
  return newest?.sessionId === sessionId ? newest.refreshToken : null;
}

/** Keep the session's newest refresh token; resolves once every tab would read it. */
export async function writeNewest(newest: Newest): Promise<void> {
  await transaction("readwrite", (store) => void store.put(newest, KEY));
}

/** Forget `sessionId`'s refresh token (signed out), unless another session has replaced it. */
export async function forgetNewest(sessionId: string): Promise<void> {
  await transaction("readwrite", (store) => {
    const request = store.get(KEY);
    request.onsuccess = () => {
      if ((request.result as Newest | undefined)?.sessionId === sessionId) store.delete(KEY);
    };
  });
}
