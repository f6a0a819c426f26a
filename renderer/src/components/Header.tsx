// The bar on every screen: where you are, which environment is in use (and, on the Simulator, that
// nothing is real), the event channel when it is down, and the theme.
import type { EnvironmentName } from '../../../shared/contract.ts';
import { openNewCampaign } from '../features/new-campaign/DiscardNewCampaign.tsx';
import type { Route } from '../lib/route.ts';
import type { ThemeChoice } from '../stores/app-store.ts';
import { currentEnvironment } from '../stores/environments-store.ts';
import { useApp, useEnvironments, useStores } from '../stores/hooks.ts';
import { SimulatorBadge } from './SimulatorBadge.tsx';

export const ENVIRONMENT_LABELS: Readonly<Record<EnvironmentName, string>> = {
  simulator: 'Simulator',
  sandbox: 'Sandbox',
  production: 'Production',
};

const NAV: ReadonlyArray<{ route: Route; label: string; testId: string }> = [
  { route: { name: 'campaigns' }, label: 'Campaigns', testId: 'nav-campaigns' },
  { route: { name: 'new' }, label: 'New campaign', testId: 'nav-new' },
  { route: { name: 'environments' }, label: 'Environments & key', testId: 'nav-environments' },
];

function isActive(current: Route, target: Route): boolean {
  if (target.name === 'campaigns') return current.name === 'campaigns' || current.name === 'campaign';
  return current.name === target.name;
}

export function Header() {
  const stores = useStores();
  const route = useApp((s) => s.route);
  const theme = useApp((s) => s.theme);
  const connection = useApp((s) => s.connection);
  const env = useEnvironments(currentEnvironment);

  return (
    <header className="topbar">
      <div className="brand" aria-label="Giftbatch">
        <span className="brand-mark" aria-hidden="true">
          ◆
        </span>
        Giftbatch
      </div>
      <nav aria-label="Main">
        <ul className="nav">
          {NAV.map((item) => (
            <li key={item.testId}>
              <button
                type="button"
                className="nav-link"
                data-testid={item.testId}
                aria-current={isActive(route, item.route) ? 'page' : undefined}
                onClick={() => {
                  // New campaign goes back to the one in progress, if any, as it was left.
                  if (item.route.name === 'new') openNewCampaign(stores);
                  else stores.app.getState().navigate(item.route);
                }}
              >
                {item.label}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <div className="topbar-end">
        {(connection === 'reconnecting' || connection === 'closed') && (
          <span className="badge badge-warn" role="status" data-testid="connection-lost" title="Reconnecting to Giftbatch…">
            {/* In a narrow window the badge says it short, so the header stays on one line; a screen reader hears it whole. */}
            <span className="wide-only">Reconnecting to Giftbatch…</span>
            <span className="narrow-only" aria-hidden="true">
              Reconnecting…
            </span>
          </span>
        )}
        {env && (
          // On the Simulator the badge beside it names the environment already: the pill is for screen readers only.
          <span className={env.simulated ? 'env-pill visually-hidden' : 'env-pill'} data-testid="current-environment" data-environment={env.name}>
            {ENVIRONMENT_LABELS[env.name]}
          </span>
        )}
        {env?.simulated && <SimulatorBadge />}
        <label className="theme-select">
          <span className="visually-hidden">Theme</span>
          <select value={theme} onChange={(e) => stores.app.getState().setTheme(e.target.value as ThemeChoice)} data-testid="theme-select">
            <option value="system">Theme: system</option>
            <option value="light">Theme: light</option>
            <option value="dark">Theme: dark</option>
          </select>
        </label>
      </div>
    </header>
  );
}
