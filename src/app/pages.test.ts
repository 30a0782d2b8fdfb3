import { describe, expect, it, vi } from 'vitest';
import type { Feature, FeaturePage } from '../lib/feature';
import { pageDef } from './pages';

// The tables are not the subject here: a page's strings load as they always do.
vi.mock('../lib/i18n', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../lib/i18n')>()),
  loadNamespace: async () => undefined,
}));

const Empty = () => null;

/** A page of the lever feature with a prefetch that records its calls. */
function leverPage(extra: Partial<FeaturePage>): { page: FeaturePage; feature: Feature } {
  const page: FeaturePage = { path: '/pages/lever/index', load: async () => ({ default: Empty }), ...extra };
  return { page, feature: { namespace: 'lever', pages: [page] } };
}

describe("a page's first data (feature.ts prefetch)", () => {
  it('is asked for beside the code for a member, and never for a guest on a page that needs a session', async () => {
    const prefetch = vi.fn(async () => undefined);
    const { page, feature } = leverPage({ auth: true, prefetch });
    await pageDef(feature, page, () => false).load();
    expect(prefetch).not.toHaveBeenCalled();
    await pageDef(feature, page, () => true).load();
    expect(prefetch).toHaveBeenCalledTimes(1);
  });

  it('is asked for on a public page without a session', async () => {
    const prefetch = vi.fn(async () => undefined);
    const { page, feature } = leverPage({ prefetch });
    await pageDef(feature, page, () => false).load();
    expect(prefetch).toHaveBeenCalledTimes(1);
  });

  it('leaves a failure to the page: its code still loads', async () => {
    const { page, feature } = leverPage({ auth: true, prefetch: () => Promise.reject(new Error('offline')) });
    const loaded = await pageDef(feature, page, () => true).load();
    expect(loaded.default).toBe(Empty);
  });
});
