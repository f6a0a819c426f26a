// The storage layer's public face: open the file, then one repository per table.
export { openDatabase, integrityCheck, userVersion, DatabaseTooNewError, MigrationError, SCHEMA_VERSION } from './open.ts';
export type { Db, OpenOptions, IntegrityReport } from './open.ts';
export { newExternalReferenceId, newCampaignId, EXTERNAL_REFERENCE_ID_PATTERN } from './ids.ts';
export { CorruptRowError } from './parse.ts';
export type { Issue } from './parse.ts';
export * from './repos/campaigns.ts';
export * from './repos/recipients.ts';
export * from './repos/recipient-transitions.ts';
export * from './repos/recipient-edits.ts';
export * from './repos/events.ts';
export * from './repos/settings.ts';
