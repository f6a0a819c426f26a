// Shared helpers for integration tests: real parts (a SQLite file, the simulator over HTTP), fakes
// only for time and faults.
export * from './temp-db.ts';
export * from './simulator.ts';
export * from './campaign.ts';
export * from './fake-clock.ts';
export * from './recording-proxy.ts';
export * from './invariants.ts';
