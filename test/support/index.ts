// What most integration tests start from, in one import: real parts (a SQLite file, the simulator
// over HTTP), fakes only for time and faults. Importing it registers their afterEach clean-ups.
export * from './db.ts';
export * from './simulator.ts';
export * from './campaign.ts';
export * from './fake-clock.ts';
export * from './recording-proxy.ts';
export * from './invariants.ts';
