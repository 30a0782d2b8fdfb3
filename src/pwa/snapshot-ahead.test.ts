import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { answerArrivedAt, SNAPSHOT_ARRIVED_HEADER, SNAPSHOT_CALL } from '../first-paint/market';

const ORIGIN = 'https://app.example';
const SOURCE = readFileSync(join(__dirname, '../../public/snapshot-ahead.js'), 'utf8');

interface FakeFetchEvent {
  request: Request;
  answered?: Promise<Response>;
  kept: Promise<unknown>[];
  respondWith(answer: Promise<Response>): void;
  waitUntil(work: Promise<unknown>): void;
}

/**
 * The imported script in a worker scope of its own: its fetch listener, the network it asks (each call recorded,
 * answered by `network`) and a clock the test moves.
 */
function worker(network: (url: string) => Promise<Response>) {
  let listener: ((event: FakeFetchEvent) => void) | undefined;
  const asked: string[] = [];
  const clock = { now: 1_000_000 };
  const scope = {
    location: new URL(ORIGIN),
    addEventListener: (type: string, fn: (event: FakeFetchEvent) => void) => {
      if (type === 'fetch') listener = fn;
    },
  };
  runInNewContext(SOURCE, {
    self: scope,
    fetch: (input: string | Request) => {
      const url = typeof input === 'string' ? input : input.url;
      asked.push(url);
      return network(url);
    },
    Date: { now: () => clock.now },
    Headers,
    Response,
    URL,
  });
  if (!listener) throw new Error('the script registered no fetch listener');
  const on = listener;
  const dispatch = (url: string, init: { mode?: RequestMode; method?: string } = {}): FakeFetchEvent => {
    // A Request's mode cannot be set to 'navigate' from script: the listener reads only these fields.
    const request = { url: new URL(url, ORIGIN).href, mode: init.mode ?? 'cors', method: init.method ?? 'GET' };
    const event: FakeFetchEvent = {
      request: request as Request,
      kept: [],
      respondWith(answer) {
        this.answered = answer;
      },
      waitUntil(work) {
        this.kept.push(work);
      },
    };
    on(event);
    return event;
  };
  return { dispatch, asked, clock };
}

const snapshotBody = JSON.stringify({ type: 'ok', data: { served_at: 1, quotes: [], instruments: [] } });
const fromServer = () =>
  Promise.resolve(
    new Response(snapshotBody, {
      status: 200,
      headers: { 'content-type': 'application/json', 'content-encoding': 'br', 'content-length': '9' },
    }),
  );

describe('the service worker asks for the snapshot with the navigation (public/snapshot-ahead.js)', () => {
  it('hands the navigation’s answer to the page’s request, once, with the time it arrived', async () => {
    const sw = worker(fromServer);
    const navigation = sw.dispatch('/lever?symbol=BTC', { mode: 'navigate' });
    // It does not answer the navigation (workbox does, from its cache), but keeps the worker alive for the request.
    expect(navigation.answered).toBeUndefined();
    expect(navigation.kept).toHaveLength(1);
    expect(sw.asked).toEqual([SNAPSHOT_CALL]);
    await navigation.kept[0];
    const arrived = sw.clock.now;
    sw.clock.now += 900;

    const page = sw.dispatch(SNAPSHOT_CALL);
    const answer = await page.answered;
    expect(answer?.status).toBe(200);
    expect(await answer?.text()).toBe(snapshotBody);
    expect(answer?.headers.get(SNAPSHOT_ARRIVED_HEADER)).toBe(String(arrived));
    expect(answer?.headers.get('content-type')).toBe('application/json');
    // Read decoded: the wire's encoding and length would misdescribe the body.
    expect(answer?.headers.get('content-encoding')).toBeNull();
    expect(answer?.headers.get('content-length')).toBeNull();
    expect(sw.asked).toEqual([SNAPSHOT_CALL]);

    // A second request is not this navigation's page: it goes to the server.
    expect(sw.dispatch(SNAPSHOT_CALL).answered).toBeUndefined();
  });

  it('leaves a request made long after the navigation to the server', async () => {
    const sw = worker(fromServer);
    await sw.dispatch('/', { mode: 'navigate' }).kept[0];
    sw.clock.now += 10_001;
    expect(sw.dispatch(SNAPSHOT_CALL).answered).toBeUndefined();
  });

  it('asks nothing for the pages the server answers itself, nor for other calls or methods', () => {
    const sw = worker(fromServer);
    for (const path of ['/api/market/snapshot', '/ops/users', '/socket.io/']) sw.dispatch(path, { mode: 'navigate' });
    sw.dispatch('/', { mode: 'navigate', method: 'POST' });
    sw.dispatch('https://elsewhere.example/', { mode: 'navigate' });
    expect(sw.asked).toEqual([]);
    expect(sw.dispatch(SNAPSHOT_CALL).answered).toBeUndefined();
  });

  it('lets the page’s request go to the network when the navigation’s failed', async () => {
    let calls = 0;
    const sw = worker(() => (calls++ === 0 ? Promise.reject(new TypeError('offline')) : fromServer()));
    await sw.dispatch('/', { mode: 'navigate' }).kept[0];
    const answer = await sw.dispatch(SNAPSHOT_CALL).answered;
    expect(answer?.headers.get(SNAPSHOT_ARRIVED_HEADER)).toBeNull();
    expect(await answer?.text()).toBe(snapshotBody);
    expect(sw.asked).toHaveLength(2);
  });

  it('lets the page’s request go to the network when the navigation’s answer broke off', async () => {
    let calls = 0;
    const broken = () => {
      const body = new ReadableStream({
        start(controller) {
          controller.error(new TypeError('connection reset'));
        },
      });
      return Promise.resolve(new Response(body, { status: 200 }));
    };
    const sw = worker(() => (calls++ === 0 ? broken() : fromServer()));
    await sw.dispatch('/', { mode: 'navigate' }).kept[0];
    const answer = await sw.dispatch(SNAPSHOT_CALL).answered;
    expect(await answer?.text()).toBe(snapshotBody);
    expect(sw.asked).toHaveLength(2);
  });

  it('hands over only the plain snapshot call', async () => {
    const sw = worker(fromServer);
    await sw.dispatch('/', { mode: 'navigate' }).kept[0];
    expect(sw.dispatch(`${SNAPSHOT_CALL}?x=1`).answered).toBeUndefined();
    expect(sw.dispatch('/api/market/other').answered).toBeUndefined();
    expect(sw.dispatch(SNAPSHOT_CALL, { method: 'POST' }).answered).toBeUndefined();
    expect(sw.dispatch(SNAPSHOT_CALL).answered).toBeDefined();
  });

  it('names the page’s call and header as src/first-paint/market.ts does', () => {
    expect(SOURCE).toContain(`const SNAPSHOT_CALL = '${SNAPSHOT_CALL}';`);
    expect(SOURCE).toContain(`const ARRIVED_HEADER = '${SNAPSHOT_ARRIVED_HEADER}';`);
  });
});

describe('answerArrivedAt', () => {
  const answer = (header?: string) =>
    new Response('{}', { headers: header === undefined ? {} : { [SNAPSHOT_ARRIVED_HEADER]: header } });

  it('counts a snapshot the worker asked ahead from when it arrived there', () => {
    expect(answerArrivedAt(answer('1000'), 1900)).toBe(1000);
  });

  it('counts from the page’s receipt without the header, or with one later than that or unreadable', () => {
    expect(answerArrivedAt(answer(), 1900)).toBe(1900);
    expect(answerArrivedAt(answer('2000'), 1900)).toBe(1900);
    expect(answerArrivedAt(answer('soon'), 1900)).toBe(1900);
    expect(answerArrivedAt(answer('0'), 1900)).toBe(1900);
  });
});
