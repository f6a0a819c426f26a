import { describe, expect, it } from 'vitest';
import { hashToRoute, routeToHash, type Route } from '../../../../renderer/src/lib/route.ts';

describe('routes in the address bar', () => {
  it('round-trips every screen through the hash', () => {
    const routes: Route[] = [{ name: 'campaigns' }, { name: 'campaign', id: 'c 1/é' }, { name: 'new' }, { name: 'environments' }, { name: 'welcome' }];
    for (const r of routes) expect(hashToRoute(routeToHash(r))).toEqual(r);
  });

  it('answers null for no hash or an unknown one, so the app picks the screen', () => {
    expect(hashToRoute('')).toBeNull();
    expect(hashToRoute('#/nowhere')).toBeNull();
  });
});
