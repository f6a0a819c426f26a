// Identifiers minted by the engine.
//
// external_reference_id is the service's de-duplication key: a POST repeated under it returns the
// order already made instead of charging again, so a row keeps its one key for life. Its length
// limit is "not shown", so it is kept short and plain: "gb-" + a 26-character ULID (Crockford
// base32, 48 bits of time then 80 random bits) = 29 ASCII characters. The time prefix makes keys
// minted together sort together, which keeps the UNIQUE index's inserts local on a large import.

import { randomFillSync } from 'node:crypto';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const POOL_SIZE = 16 * 1024;
const pool = new Uint8Array(POOL_SIZE);
let poolOffset = POOL_SIZE;

// Random bytes are drawn from a pool refilled in bulk: a 100,000-row import mints 100,000 keys,
// and one system call per key would dominate it.
function randomChars(count: number): string {
  if (poolOffset + count > POOL_SIZE) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  let out = '';
  for (let i = 0; i < count; i++) out += CROCKFORD[(pool[poolOffset + i] ?? 0) & 31];
  poolOffset += count;
  return out;
}

let lastTime = -1;
let lastTimeChars = '';

function timeChars(ms: number): string {
  if (ms === lastTime) return lastTimeChars;
  let rest = Math.max(0, Math.trunc(ms));
  let out = '';
  for (let i = 0; i < 10; i++) {
    out = CROCKFORD[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  lastTime = ms;
  lastTimeChars = out;
  return out;
}

export const EXTERNAL_REFERENCE_ID_PATTERN = /^gb-[0-9A-HJKMNP-TV-Z]{26}$/;

// Monotonic within one millisecond (as ULID's spec allows): an import stamps all its rows with the
// same time, and consecutive keys keep the UNIQUE index's inserts at its end instead of scattered.
// Two processes minting in the same millisecond start from independent 80-bit random points, so
// their runs do not meet; if they ever did, the UNIQUE constraint would refuse the import whole.
let lastKeyTime = -1;
const lastRandom: number[] = new Array<number>(16).fill(0);

function nextRandomDigits(ms: number): string {
  let carried = ms === lastKeyTime;
  if (carried) {
    let i = lastRandom.length - 1;
    while (i >= 0 && lastRandom[i] === 31) lastRandom[i--] = 0;
    if (i < 0) carried = false;
    else lastRandom[i] = (lastRandom[i] ?? 0) + 1;
  }
  if (!carried) {
    const fresh = randomChars(16);
    for (let i = 0; i < 16; i++) lastRandom[i] = CROCKFORD.indexOf(fresh[i] ?? '0');
    lastKeyTime = ms;
  }
  let out = '';
  for (const d of lastRandom) out += CROCKFORD[d];
  return out;
}

/** A fresh de-duplication key for one recipient row: "gb-01JD4Q…", 29 ASCII characters. */
export function newExternalReferenceId(now: number = Date.now()): string {
  return `gb-${timeChars(now)}${nextRandomDigits(now)}`;
}

/** A short campaign id the CLI can print and a person can type: "c_" + 10 characters (50 random bits). */
export function newCampaignId(): string {
  return `c_${randomChars(10).toLowerCase()}`;
}
