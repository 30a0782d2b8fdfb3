import asyncapiSpecs from '@asyncapi/specs';
import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERIODS, parseTopic } from '../../protocol/market';
import { marketTopics } from '../../protocol/market-topics';
import { privateTopicName } from '../../protocol/realtime';
import { calls } from '../../server/domains';
import { MarketFeed } from '../../server/market/feed';
import { MarketSimulator } from '../../server/market/simulator';
import { API_DOCS_PATH } from '../../server/platform/http/api-docs';
import { channelKey } from '../../server/platform/http/api-docs/asyncapi';
import { isObject, type JsonObject } from '../../server/platform/http/api-docs/json-schema';
import { opsCalls } from '../../server/platform/http/api-docs/openapi';
import { renderReferencePage } from '../../server/platform/http/api-docs/page';
import { messageKeys } from '../../server/platform/i18n/messages';
import { openTestDatabase, registeredRoutes, startTestApp, type TestApp, type TestDatabase } from './harness';

/**
 * The published interface documents are made from the protocol's schemas; these checks hold that they describe
 * everything the server serves (every call of the table, every topic and command it registers), that each is a valid
 * document of its standard, and that the app serves them.
 */

/** Follows a local `#/a/b` pointer; undefined when it leads nowhere. */
function resolve(document: JsonObject, ref: string): unknown {
  let current: unknown = document;
  for (const part of ref.replace(/^#\//, '').split('/')) {
    const key = part.replaceAll('~1', '/').replaceAll('~0', '~');
    current = isObject(current) ? current[key] : undefined;
  }
  return current;
}

/** Every `$ref` in a document. */
function refsIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (isObject(value)) {
    for (const [key, inner] of Object.entries(value)) {
      if (key === '$ref' && typeof inner === 'string') found.push(inner);
      else refsIn(inner, found);
    }
  }
  return found;
}

const asObject = (value: unknown): JsonObject => {
  if (!isObject(value)) throw new Error(`not an object: ${JSON.stringify(value)?.slice(0, 80)}`);
  return value;
};

describe('the API and socket documents', () => {
  let database: TestDatabase;
  let t: TestApp;
  let openapi: JsonObject;
  let asyncapi: JsonObject;

  beforeAll(async () => {
    database = await openTestDatabase('sqlite');
    const now = Date.UTC(2024, 5, 4, 12);
    const feed = new MarketFeed(new MarketSimulator({ seed: 'api-docs', now: () => now, backfillDays: 1 }), () => now);
    t = await startTestApp(database.handle, { market: { feed, record: false } });
    const [open, async] = await Promise.all([
      t.app.inject({ method: 'GET', url: '/api/docs/openapi.json' }),
      t.app.inject({ method: 'GET', url: '/api/docs/asyncapi.json' }),
    ]);
    expect(open.statusCode).toBe(200);
    expect(open.headers['content-type']).toMatch(/^application\/json/);
    expect(async.statusCode).toBe(200);
    expect(async.headers['content-type']).toMatch(/^application\/json/);
    openapi = asObject(open.json());
    asyncapi = asObject(async.json());
  });

  afterAll(async () => {
    await t?.close();
    await database?.close();
  });

  it('OpenAPI has every call of the table with its method, session and envelope', () => {
    expect(openapi.openapi).toBe('3.1.0');
    expect(asObject(openapi.info)).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    const paths = asObject(openapi.paths);
    for (const [path, spec] of Object.entries(calls)) {
      const item = asObject(paths[`/api/${path}`]);
      expect(Object.keys(item), path).toEqual([spec.method.toLowerCase()]);
      const operation = asObject(item[spec.method.toLowerCase()]);
      expect(operation.security, path).toEqual(spec.auth ? [{ session: [] }] : [{}, { session: [] }]);
      const answers = resolve(operation, '#/responses/200/content/application~1json/schema/oneOf');
      expect(Array.isArray(answers) && answers.length, path).toBe(spec.auth ? 3 : 2);
      const ok = asObject(Array.isArray(answers) ? answers[0] : undefined);
      expect(resolve(ok, '#/properties/type/const'), path).toBe('ok');
      expect(resolve(ok, '#/properties/data'), path).toBeDefined();
      if (spec.method === 'GET') expect(operation.requestBody, path).toBeUndefined();
      else expect(resolve(operation, '#/requestBody/content/application~1x-www-form-urlencoded/schema')).toBeDefined();
    }
    for (const [path, spec] of Object.entries(opsCalls)) {
      const operation = asObject(asObject(paths[`/api/${path}`])[spec.method.toLowerCase()]);
      expect(operation['x-ops-access'], path).toBe(spec.access);
    }
  });

  it('OpenAPI has every route the app serves under /api, whoever registered it', () => {
    const paths = asObject(openapi.paths);
    const served = registeredRoutes(t.app).filter(
      (route) => route.path.startsWith('/api/') && !route.path.startsWith(API_DOCS_PATH),
    );
    expect(served.length).toBeGreaterThan(Object.keys(calls).length);
    for (const route of served) {
      const item = paths[route.path];
      expect(item, route.path).toBeDefined();
      const methods = route.methods.filter((m) => m !== 'HEAD').map((m) => m.toLowerCase());
      expect(Object.keys(asObject(item)).sort(), route.path).toEqual(methods.sort());
    }
  });

  it('OpenAPI states request fields as the client sends them, and the refusal with its reason', () => {
    const trade = asObject(resolve(openapi, '#/paths/~1api~1coin~1trade/post'));
    const form = asObject(resolve(trade, '#/requestBody/content/application~1x-www-form-urlencoded/schema'));
    expect(form.required).toEqual(expect.arrayContaining(['symbol', 'side', 'type', 'request_id']));
    const candles = asObject(resolve(openapi, '#/paths/~1api~1currency~1new_timeshar/get'));
    const query = (candles.parameters as unknown[]).filter((p) => isObject(p) && p.in === 'query');
    expect(query.map((p) => asObject(p).name)).toEqual(['symbol', 'period', 'limit']);
    const error = asObject(resolve(openapi, '#/components/schemas/ErrorEnvelope'));
    expect(error.required).toEqual(expect.arrayContaining(['type', 'code', 'message', 'reason']));
    expect(resolve(error, '#/properties/reason/enum')).toEqual(messageKeys());
  });

  it('OpenAPI is a valid OpenAPI 3.1 document whose references all resolve', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(openapi));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    for (const ref of refsIn(openapi)) expect(resolve(openapi, ref), ref).toBeDefined();
    // The validator does fail a broken document, so the check above means something.
    const broken = structuredClone(openapi);
    delete broken.info;
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('AsyncAPI has every topic and command the server registers', () => {
    expect(asyncapi.asyncapi).toBe('3.0.0');
    const channels = asObject(asyncapi.channels);
    const operations = asObject(asyncapi.operations);
    // Made from what the app registered: every domain's topic and command, and no other.
    const { topics, commands } = t.app.channels.surface();
    expect(topics.length).toBeGreaterThan(0);
    expect(commands.length).toBeGreaterThan(0);
    const privateChannels = Object.values(channels).filter((c) => asObject(c)['x-socketio-event'] === 'private');
    expect(privateChannels).toHaveLength(topics.length);
    for (const { name, summary } of topics) {
      expect(asObject(channels[channelKey('private', name)]).summary).toBe(summary);
      const key = channelKey('private', name);
      expect(asObject(channels[key]).address).toBe(privateTopicName(name));
      expect(asObject(operations[`send_${key}`]).action).toBe('send');
    }
    for (const { name } of commands) {
      const key = channelKey('command', name);
      expect(resolve(channels, `#/${key}/messages/request/payload/properties/name/const`)).toBe(name);
      expect(asObject(operations[`receive_${key}`]).reply).toBeDefined();
    }
    // Each market topic's address, filled in, is one the server's topic parser takes as that topic.
    for (const [name, spec] of Object.entries(marketTopics)) {
      const topic = spec.address.replace('{symbol}', 'BTC').replace('{period}', PERIODS[0]);
      expect(parseTopic(topic)?.kind, topic).toBe(name);
      expect(asObject(channels[channelKey('market', name)]).address).toBe(spec.address);
    }
  });

  it('AsyncAPI is valid against the AsyncAPI 3.0.0 schema and its references resolve', () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    const validate = ajv.compile(asyncapiSpecs.schemasWithoutId['3.0.0']);
    expect(validate(asyncapi) ? [] : validate.errors).toEqual([]);
    for (const ref of refsIn(asyncapi)) expect(resolve(asyncapi, ref), ref).toBeDefined();
    const broken = structuredClone(asyncapi);
    delete broken.channels;
    broken.operations = { lost: { action: 'send' } };
    expect(validate(broken)).toBe(false);
  });

  it('serves a self-contained reference page with every call and topic', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.body).not.toMatch(/<script|<link|src=/i);
    for (const path of Object.keys(calls)) expect(page.body).toContain(`<code>/api/${path}</code>`);
    const { topics, commands } = t.app.channels.surface();
    for (const { name } of topics) expect(page.body).toContain(`<code>${privateTopicName(name)}</code>`);
    for (const { name } of commands) expect(page.body).toContain(`<code>${name}</code>`);
  });

  it('escapes every text it draws', () => {
    const hostile = '<img src=x onerror=alert(1)>';
    const html = renderReferencePage(
      {
        info: { title: hostile, version: '"1', description: hostile },
        paths: {
          [`/api/${hostile}`]: {
            post: {
              tags: [hostile],
              requestBody: {
                content: {
                  'application/x-www-form-urlencoded': {
                    schema: { type: 'object', properties: { [hostile]: { type: 'string', pattern: hostile } } },
                  },
                },
              },
            },
          },
        },
      },
      { info: { description: hostile }, channels: { x: { title: hostile, address: hostile, summary: hostile } } },
      [[hostile, hostile]],
    );
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });
});
