// The app shell: header, the screen for the current route, notices. `data-state` on the root is
// the app's own signal that it has loaded (end-to-end tests wait for it).
import { Header } from './components/Header.tsx';
import { Notices } from './components/Notices.tsx';
import { CampaignScreen } from './features/campaign/CampaignScreen.tsx';
import { CampaignsScreen } from './features/campaigns/CampaignsScreen.tsx';
import { EnvironmentsScreen } from './features/environments/EnvironmentsScreen.tsx';
import { NewCampaignScreen } from './features/new-campaign/NewCampaignScreen.tsx';
import { WelcomeScreen } from './features/welcome/WelcomeScreen.tsx';
import { useApp, useStores } from './stores/hooks.ts';

function Screen() {
  const route = useApp((s) => s.route);
  switch (route.name) {
    case 'welcome':
      return <WelcomeScreen />;
    case 'environments':
      return <EnvironmentsScreen />;
    case 'new':
      return <NewCampaignScreen />;
    case 'campaign':
      return <CampaignScreen id={route.id} />;
    case 'campaigns':
      return <CampaignsScreen />;
  }
}

export function App() {
  const phase = useApp((s) => s.phase);
  const loadError = useApp((s) => s.loadError);
  const differentBuilds = useApp((s) => s.differentBuilds);
  const stores = useStores();
  return (
    <div className="app" data-testid="app" data-state={phase}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Header />
      <main id="main" className="main" tabIndex={-1}>
        {phase === 'loading' && <p className="muted" role="status">Starting Giftbatch…</p>}
        {phase === 'failed' && (
          <div className="panel" role="alert" data-testid="load-error" data-problem={differentBuilds ? 'different-builds' : 'failed'}>
            <h1>{differentBuilds ? 'Giftbatch needs a restart' : 'Giftbatch could not start'}</h1>
            <p>{loadError}</p>
            {/* Trying again meets the same engine: only a restart brings another build. */}
            {!differentBuilds && (
              <button type="button" className="button-primary" onClick={() => void stores.app.getState().load(null)}>
                Try again
              </button>
            )}
          </div>
        )}
        {phase === 'ready' && <Screen />}
      </main>
      <Notices />
    </div>
  );
}
