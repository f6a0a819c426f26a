// Composition root of the renderer: the client for this shell, the stores, the event channel, the
// theme and the address bar's hash kept in step with the screen.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { createApi, MissingTokenError } from './api/create-api.ts';
import type { Timers } from './api/event-socket.ts';
import { hashToRoute, routeToHash } from './lib/route.ts';
import type { ThemeChoice } from './stores/app-store.ts';
import { StoresContext } from './stores/hooks.ts';
import { connectEvents, createStores } from './stores/index.ts';
import './styles/theme.css';
import './styles/app.css';

const THEME_KEY = 'giftbatch.theme';

function savedTheme(): ThemeChoice {
  try {
    const t = window.localStorage.getItem(THEME_KEY);
    return t === 'light' || t === 'dark' ? t : 'system';
  } catch {
    return 'system';
  }
}

function applyTheme(theme: ThemeChoice): void {
  if (theme === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
  try {
    window.localStorage.setItem(THEME_KEY, theme);
  } catch {
    // Storage can be off; the theme then lasts for this page only.
  }
}

function fatal(container: HTMLElement, message: string): void {
  container.innerHTML = '';
  const main = document.createElement('main');
  main.className = 'fatal';
  main.dataset.state = 'failed';
  main.dataset.testid = 'app';
  const h = document.createElement('h1');
  h.textContent = 'Giftbatch cannot start';
  const p = document.createElement('p');
  p.textContent = message;
  main.append(h, p);
  container.append(main);
}

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

const timers: Timers = { setTimeout: (fn, ms) => window.setTimeout(fn, ms), clearTimeout: (h) => window.clearTimeout(h as number) };

try {
  const api = createApi();
  const stores = createStores({ api, timers, now: () => Date.now(), theme: savedTheme() });
  applyTheme(stores.app.getState().theme);
  stores.app.subscribe((s, prev) => {
    if (s.theme !== prev.theme) applyTheme(s.theme);
    if (s.route !== prev.route && s.phase === 'ready') {
      const hash = routeToHash(s.route);
      if (window.location.hash !== hash) window.history.pushState(null, '', hash);
    }
  });
  window.addEventListener('popstate', () => {
    const route = hashToRoute(window.location.hash);
    if (route) stores.app.getState().navigate(route);
  });
  connectEvents(stores, { api, timers, now: () => Date.now() });
  void stores.environments.getState().load();
  void stores.app.getState().load(hashToRoute(window.location.hash));

  createRoot(container).render(
    <StrictMode>
      <StoresContext.Provider value={stores}>
        <App />
      </StoresContext.Provider>
    </StrictMode>,
  );
} catch (error) {
  fatal(container, error instanceof MissingTokenError ? error.message : `Something went wrong while starting: ${String(error)}`);
}
