// Importing a file straight into the engine's database, as the import worker does inside a job:
// for tests and benches that need a campaign to exist and are not about how it got there (the app
// and the CLI import through `campaigns:create`).
import type { CsvImport } from '../../shared/domain/csv/index.ts';
import { importCampaign, previewImport } from '../../electron/core/campaigns/importer.ts';
import type { Connection } from '../../electron/core/connections.ts';
import type { CreatedCampaign } from '../../electron/core/db/repos/campaigns.ts';
import { importRequestOf, previewRequestOf, type CampaignRequest, type Engine, type PreviewOptions } from '../../electron/core/engine.ts';
import type { Product } from '../../electron/core/service/index.ts';

export function createCampaignNow(engine: Engine, connection: Connection, request: CampaignRequest): CreatedCampaign & { preview: CsvImport } {
  return importCampaign(engine.db, importRequestOf(connection, request), engine.clock.now());
}

export function previewNow(engine: Engine, connection: Connection, bytes: Uint8Array, product: Product, opts: PreviewOptions = {}): CsvImport {
  return previewImport(engine.db, previewRequestOf(connection, bytes, product, opts));
}
