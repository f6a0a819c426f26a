// The simulator's memory across restarts: an append-only file of JSON lines, one per mutation
// (state-codec.ts), replayed into the store on start. The app's Simulator environment and the CLI
// start and stop the simulator with every command, and a real service outlives its clients: an
// order that got a 200 must still be there after a restart.
//
// Each line is written with one synchronous write on a kept-open descriptor before the response
// leaves, so an acknowledged mutation is in the OS page cache before the client hears of it.
// There is no fsync: a killed process (even SIGKILL) loses nothing the kernel already holds, and
// only a power cut could, which a simulator need not survive; fsync per order would cost ms.
// A line counts once its newline is written: a torn last line (killed mid-write, so never
// acknowledged) is cut off on load, so the next line starts clean.
//
// No line holds an API key: accounts are named by a hash of the key (account-id.ts). A file written
// by an older simulator (v1 lines, raw keys) is migrated on load: replayed as usual, then rewritten
// whole with the keys hashed (to a temporary file, renamed over the old one) before anything is
// appended, so the keys are gone from the file from the first start of this version on.

import {
  closeSync, fstatSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, truncateSync,
  writeSync,
} from 'node:fs';
import { dirname, isAbsolute } from 'node:path';
import type { Money } from '../../shared/domain/money.ts';
import {
  decodeLine, encodeAccept, encodeAccount, encodeForce, encodeLine, encodeOrder, LEGACY_STATE_VERSION, orderFromLine,
  STATE_VERSION, type StateLine,
} from './state-codec.ts';
import type { OrderRecord, Store, StoreJournal } from './store.ts';
import { ApiError, type ItemStatus, type OrderStatus } from './types.ts';

/** Individual warnings logged per load; the rest are counted in one line. */
const MAX_WARNINGS = 10;

export interface StateFile extends StoreJournal {
  readonly path: string;
  /** Replays the file into the store the first time it is called, and opens it for appending. */
  load(store: Store): void;
  /** Closes the descriptor; a later mutation reopens it. */
  close(): void;
}

export interface LoadSummary {
  applied: number;
  skipped: number;
  /** v1 lines (raw keys) read; when > 0 the file is rewritten as `rewrite`. */
  legacy: number;
  /** The file as this version writes it: every line decoded (v1 ones hashed) and those of a newer version. */
  rewrite: string[];
}

export function createStateFile(path: string, log: (line: string) => void): StateFile {
  if (!isAbsolute(path)) throw new Error(`stateFile must be an absolute path, got "${path}"`);
  let loaded = false;
  let fd: number | null = null;
  // Where the file ends, so a failed write can be cut back to the last whole line.
  let size = 0;

  const openForAppend = (): number => {
    if (fd === null) {
      fd = openSync(path, 'a', 0o600);
      size = fstatSync(fd).size;
    }
    return fd;
  };

  const append = (text: string, what: string): void => {
    if (!loaded) throw new Error('the state file is written before it was loaded; call load() first');
    const bytes = Buffer.from(`${text}\n`, 'utf8');
    let written = 0;
    try {
      const handle = openForAppend();
      written = writeSync(handle, bytes);
      if (written !== bytes.length) throw new Error(`only ${written} of ${bytes.length} bytes were written`);
      size += written;
    } catch (err) {
      if (fd !== null && written > 0) {
        try { ftruncateSync(fd, size); } catch { /* the next load cuts the torn line instead */ }
      }
      const reason = err instanceof Error ? err.message : String(err);
      log(`state file ${path}: could not record ${what}: ${reason}`);
      throw new ApiError(500, 'INTERNAL',
        `the simulator could not record ${what} in its state file (${reason}); nothing was committed, retry the request`);
    }
  };

  return {
    path,
    load(store) {
      if (loaded) return;
      const started = Date.now();
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      const summary = replay(path, store, log);
      loaded = true;
      if (summary.legacy > 0) migrate(path, summary, log);
      openForAppend();
      if (summary.applied > 0 || summary.skipped > 0) {
        log(`state file ${path}: replayed ${summary.applied} lines${summary.skipped > 0 ? `, skipped ${summary.skipped}` : ''} in ${Date.now() - started}ms`);
      }
    },
    close() {
      if (fd === null) return;
      const handle = fd;
      fd = null;
      closeSync(handle);
    },
    orderCreated: (order: OrderRecord) => append(encodeOrder(order), `order ${order.id}`),
    recipientAccepted: (order: OrderRecord, at: number) => append(encodeAccept(order.accountId, order.id, at), `the acceptance of order ${order.id}`),
    statusForced: (order: OrderRecord, orderStatus: OrderStatus | null, itemStatus: ItemStatus | null) =>
      append(encodeForce(order.accountId, order.id, orderStatus, itemStatus), `the forced status of order ${order.id}`),
    accountSet: (accountId: string, balance: Money) => append(encodeAccount(accountId, balance), 'an account change'),
  };
}

/** Applies every whole line of the file to the store; cuts off a torn last line. */
export function replay(path: string, store: Store, log: (line: string) => void): LoadSummary {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { applied: 0, skipped: 0, legacy: 0, rewrite: [] };
    throw err;
  }
  let skipped = 0;
  const warn = (line: number, reason: string): void => {
    skipped++;
    if (skipped <= MAX_WARNINGS) log(`state file ${path} line ${line}: skipped, ${reason}`);
  };

  const end = bytes.lastIndexOf(0x0a) + 1;
  const lines = bytes.subarray(0, end).toString('utf8').split('\n');
  lines.pop(); // the empty string after the last newline
  if (end < bytes.length) {
    warn(lines.length + 1, `torn (${bytes.length - end} bytes without a newline: the process stopped mid-write, before the client was answered); cut off`);
    truncateSync(path, end);
  }

  let applied = 0;
  let legacy = 0;
  const rewrite: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i] ?? '';
    if (text.trim() === '') continue;
    const decoded = decodeLine(text);
    if (!decoded.ok) {
      // A newer simulator's line is its business, and holds no key; anything else unreadable is
      // dropped by a rewrite (it was skipped anyway, and an old one may hold a key).
      if (decoded.newer) rewrite.push(text);
      warn(i + 1, decoded.reason);
      continue;
    }
    if (decoded.legacy) legacy++;
    // Kept even if it does not apply (a line naming an unknown order is skipped on every load, as before).
    rewrite.push(decoded.legacy ? encodeLine(decoded.line) : text);
    try {
      apply(store, decoded.line);
      applied++;
    } catch (err) {
      warn(i + 1, err instanceof Error ? err.message : String(err));
    }
  }
  if (skipped > MAX_WARNINGS) log(`state file ${path}: ${skipped - MAX_WARNINGS} more lines skipped`);
  return { applied, skipped, legacy, rewrite };
}

/**
 * Replaces a file that had v1 lines (raw API keys) with `summary.rewrite`: written to a temporary
 * file beside it, fsynced, and renamed over it, so a crash leaves the old file or the new one,
 * never half of each. If that fails (disk full, say) the simulator logs it and goes on: the file
 * is still readable (v1 and v2 lines mix), nothing new written holds a key, and the next load
 * tries again.
 */
function migrate(path: string, summary: LoadSummary, log: (line: string) => void): void {
  const temp = `${path}.migrating`;
  try {
    const fd = openSync(temp, 'w', 0o600);
    try {
      const text = summary.rewrite.map((l) => `${l}\n`).join('');
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
    syncDirectory(dirname(path));
    log(`state file ${path}: rewrote ${summary.legacy} v${LEGACY_STATE_VERSION} lines as v${STATE_VERSION}: accounts are now named by a hash of their API key, and the file holds no key`);
  } catch (err) {
    try { rmSync(temp, { force: true }); } catch { /* not ours to remove (a directory, say) */ }
    const reason = err instanceof Error ? err.message : String(err);
    log(`state file ${path}: could not rewrite its ${summary.legacy} v${LEGACY_STATE_VERSION} lines without their API keys (${reason}); they stay as they are until a later start manages it`);
  }
}

function syncDirectory(dir: string): void {
  let fd: number | null = null;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Not every platform can fsync a directory (Windows); the rename itself is atomic.
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

function apply(store: Store, line: StateLine): void {
  switch (line.type) {
    case 'order':
      store.restoreOrder(orderFromLine(line));
      return;
    case 'accept':
      store.restoreAccepted(line.account, line.orderId, line.at);
      return;
    case 'force':
      store.restoreForced(line.account, line.orderId, line.orderStatus, line.itemStatus);
      return;
    case 'account':
      store.restoreAccount(line.account, line.balance);
      return;
  }
}
