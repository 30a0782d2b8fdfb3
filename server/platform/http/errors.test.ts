import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { envelopeServerOptions, registerErrorHandling } from './errors';

/** A bare app with the envelope options and one parametric route (the product's routes have no parameters). */
async function appWithParam() {
  const app = Fastify({ logger: false, maxParamLength: 16, ...envelopeServerOptions });
  registerErrorHandling(app);
  app.get('/item/:id', async () => ({ ok: true }));
  await app.ready();
  return app;
}

describe('envelope for errors found before any route', () => {
  it('answers a path parameter over the length limit with 414 and bad URL encoding with 400', async () => {
    const app = await appWithParam();
    try {
      const long = await app.inject({ method: 'GET', url: `/item/${'a'.repeat(100)}`, headers: { lang: 'en' } });
      expect(long.statusCode).toBe(414);
      expect(long.json()).toEqual({
        type: 'error',
        code: 0,
        message: 'The request is too large',
        reason: 'requestTooLarge',
      });
      const bad = await app.inject({ method: 'GET', url: '/item/%zz', headers: { lang: 'de' } });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({
        type: 'error',
        code: 0,
        message: 'Die Anfrage konnte nicht gelesen werden',
        reason: 'bodyMalformed',
      });
      expect((await app.inject({ method: 'GET', url: '/item/7' })).json()).toEqual({ ok: true });
    } finally {
      await app.close();
    }
  });
});
