import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { call } from '../../protocol/call-spec';
import type { CallContext } from '../platform/http/calls';
import { callRoutes, callTable } from './compose';
import { defineDomain } from './contract';

/** The loops that turn each domain's call table and handlers into the served routes refuse what the router could not serve. */

const ping = { 'test/ping': call('GET', false, z.object({}), z.object({ pong: z.string() })) } as const;
const echo = {
  'test/echo': call('POST', true, z.object({ text: z.string() }), z.object({ text: z.string() })),
} as const;
const ctx: CallContext = { lang: 'en', ip: '127.0.0.1', session: null };

const pingParts = { handlers: { 'test/ping': async () => ({ pong: 'pong' }) } };
const echoParts = { handlers: { 'test/echo': async (input: { text: string }) => ({ text: input.text }) } };
const pingDomain = defineDomain({ name: 'ping', calls: ping, start: () => pingParts });
const echoDomain = defineDomain({ name: 'echo', calls: echo, start: () => echoParts });

describe('callTable', () => {
  it("joins every domain's table, path by path", () => {
    const table = callTable([pingDomain, echoDomain]);
    expect(Object.keys(table).sort()).toEqual(['test/echo', 'test/ping']);
    expect(table['test/echo'].auth).toBe(true);
  });

  it('refuses a path two domains both name', () => {
    const twin = defineDomain({ name: 'twin', calls: ping });
    expect(() => callTable([pingDomain, twin])).toThrow('call test/ping is named by two domains');
  });
});

describe('callRoutes', () => {
  it("pairs each call with its own domain's handler", async () => {
    const domains = [pingDomain, echoDomain] as const;
    const routes = callRoutes(domains, [pingParts, echoParts]);
    expect(routes.map((r) => r.path)).toEqual(['test/ping', 'test/echo']);
    const echoed = routes.find((r) => r.path === 'test/echo');
    await expect(echoed?.handle({ text: 'hi' }, ctx)).resolves.toEqual({ text: 'hi' });
    expect(echoed?.spec).toBe(echo['test/echo']);
  });

  it('refuses a named call without a handler, and a handler of a call the domain does not name', () => {
    expect(() => callRoutes([pingDomain], [{}])).toThrow('ping names test/ping but has no handler for it');
    const stray = { handlers: { 'test/ping': async () => ({ pong: '' }), 'test/other': async () => ({}) } };
    expect(() => callRoutes([pingDomain], [stray])).toThrow('ping handles calls it does not name: test/other');
  });
});
