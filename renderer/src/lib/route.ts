// The screen shown, as a small value kept in the address bar's hash so a reload stays put.

export type Route =
  | { name: 'campaigns' }
  | { name: 'campaign'; id: string }
  | { name: 'new' }
  | { name: 'environments' }
  | { name: 'welcome' };

export function routeToHash(route: Route): string {
  switch (route.name) {
    case 'campaign':
      return `#/campaigns/${encodeURIComponent(route.id)}`;
    case 'new':
      return '#/new';
    case 'environments':
      return '#/environments';
    case 'welcome':
      return '#/welcome';
    case 'campaigns':
      return '#/campaigns';
  }
}

export function hashToRoute(hash: string): Route | null {
  const path = hash.replace(/^#/, '');
  if (path === '/new') return { name: 'new' };
  if (path === '/environments') return { name: 'environments' };
  if (path === '/welcome') return { name: 'welcome' };
  if (path === '/campaigns' || path === '/' || path === '') return path === '' ? null : { name: 'campaigns' };
  const match = /^\/campaigns\/([^/]+)$/.exec(path);
  if (match?.[1]) {
    try {
      return { name: 'campaign', id: decodeURIComponent(match[1]) };
    } catch {
      return null;
    }
  }
  return null;
}
