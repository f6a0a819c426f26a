// First launch: what Giftbatch does, that this is the Simulator (no real gifts, no key), and a
// one-click path to a first campaign with the sample list. Coming back here (the address bar's
// #/welcome, Back) with a new campaign in progress loses nothing: the sample asks first
// (DiscardNewCampaign), and "my own list" goes back to that campaign as New campaign does.
import { openNewCampaign, startWithSample, useDiscardGuard } from '../new-campaign/DiscardNewCampaign.tsx';
import { currentEnvironment } from '../../stores/environments-store.ts';
import type { Stores } from '../../stores/index.ts';
import { useApp, useEnvironments, useStores } from '../../stores/hooks.ts';

export function WelcomeScreen() {
  const stores = useStores();
  const info = useApp((s) => s.info);
  const env = useEnvironments(currentEnvironment);
  const simulated = env?.simulated ?? true;

  const { guard, dialog } = useDiscardGuard('sample');
  const { sample, own } = welcomeChoices(stores, guard);

  return (
    <section className="welcome" data-testid="welcome" aria-labelledby="welcome-title">
      <h1 id="welcome-title">Welcome to Giftbatch</h1>
      <p className="lead">Send gift cards by e-mail to a whole list of people at once, from a spreadsheet, and watch every one get delivered.</p>
      {simulated && (
        <div className="callout callout-sim" data-testid="welcome-simulated">
          <strong>You are on the Simulator.</strong> It is a gift service built into the app: nothing real is ordered, nobody
          is e-mailed, nothing is charged, and no API key is needed. Try everything here first.
        </div>
      )}
      <ol className="steps-list">
        <li>Pick a gift card from the catalog.</li>
        <li>Import your list of recipients (a CSV file or an .xlsx or .ods workbook) and fix the rows that need it.</li>
        <li>Check the total, send, and watch each gift go from ordered to delivered.</li>
      </ol>
      <div className="actions">
        <button type="button" className="button-primary button-large" data-testid="welcome-sample" onClick={sample}>
          Try it with the sample list
        </button>
        <button type="button" onClick={own} data-testid="welcome-own">
          Start with my own list (CSV, .xlsx, .ods)
        </button>
      </div>
      {/* Its own line, a link's look with no padding: left-aligned with the buttons above (a quiet button's padding put it ~14 px in). */}
      <p className="welcome-setup">
        <button
          type="button"
          className="link"
          onClick={() => {
            void stores.app.getState().dismissWelcome();
            stores.app.getState().navigate({ name: 'environments' });
          }}
        >
          Set up Sandbox or Production
        </button>
      </p>
      {info && <p className="muted small">The sample is {info.sampleCsvName}: a dozen made-up recipients, one of them with an e-mail to fix.</p>}
      {dialog}
    </section>
  );
}

/**
 * The welcome's two ways into New campaign. The sample replaces what the wizard holds, so it goes
 * through `guard` (asks first when that loses a new campaign in progress); "my own list" goes back to
 * the campaign in progress, if any, as it was left, else an empty one.
 */
export function welcomeChoices(stores: Stores, guard: (action: () => void) => void): { sample: () => void; own: () => void } {
  return {
    sample: () => guard(() => startWithSample(stores)),
    own: () => {
      void stores.app.getState().dismissWelcome();
      openNewCampaign(stores);
    },
  };
}
