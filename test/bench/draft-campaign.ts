// A draft campaign of generated rows in a fresh data folder, for the scenarios that then start the
// browser shell on that folder (ui, ui-send): the simulator's USD range product, USD 25 by default,
// the first-launch welcome already dismissed (so the campaign's address opens the campaign), and any
// other settings the scenario needs (the simulator's address and rate) stored first.
import { settingKeys } from '../../electron/core/app/environments.ts';
import { SIMULATOR_LOCAL_KEY } from '../../electron/core/connections.ts';
import { setSetting } from '../../electron/core/db/repos/settings.ts';
import { openEngine } from '../../electron/core/engine.ts';
import { createMemorySecretStore } from '../../electron/core/secrets/secret-store.ts';
import { productIdFor } from '../../electron/simulator/index.ts';
import { createCampaignNow } from '../support/engine-import.ts';
import { recipientsCsv } from './csv-data.ts';

export async function createDraftCampaign(
  dataDir: string,
  draft: { rows: number; seed: number; name: string; settings?: readonly [key: string, value: unknown][] },
): Promise<string> {
  const engine = await openEngine({ dataDir, secrets: createMemorySecretStore(), env: {} });
  try {
    const now = Date.now();
    for (const [key, value] of draft.settings ?? []) setSetting(engine.db, key, value, now);
    setSetting(engine.db, settingKeys.welcomeDismissed, true, now);
    const connection = await engine.connections.get('simulator');
    const product = await engine.findProduct(connection, productIdFor(SIMULATOR_LOCAL_KEY, 'us-range'), 'US');
    const { campaign } = createCampaignNow(engine, connection, {
      bytes: recipientsCsv(draft.rows, draft.seed),
      product,
      name: draft.name,
      senderName: 'Bench team',
      defaultAmount: { minor: 2500, currency: 'USD' },
    });
    return campaign.id;
  } finally {
    await engine.close();
  }
}
