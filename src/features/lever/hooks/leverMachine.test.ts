// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { failAnswer, fakeApiServer } from '../../../../core/api/testing';
import type { LeverOrderDraft } from '../../../../machines/lever/order.machine';
import { leverMachine } from './leverMachine';

/**
 * The verification prompt follows the refusal's reason, never its wording (issue 25): the same German text with
 * another reason is an ordinary refusal.
 */
describe('lever submission refused for verification', () => {
  const server = fakeApiServer();
  const draft: LeverOrderDraft = {
    symbol: 'BTC',
    side: 'long',
    type: 'market',
    margin_mode: 'isolated',
    lots: '1',
    leverage: '10',
    account: 'real',
  };

  async function submitRefusedWith(reason: string) {
    server.answer = () => failAnswer('Konto nicht verifiziert', undefined, reason);
    const actor = createActor(leverMachine, { input: { makeId: () => 'req-v' } }).start();
    actor.send({ type: 'PRICES_FRESH' });
    actor.send({ type: 'SUBMIT', draft });
    const settled = await waitFor(actor, (s) => !s.matches({ order: 'submitting' }));
    actor.stop();
    return settled;
  }

  it('opens the verification prompt on verificationRequired, whatever the language', async () => {
    const state = await submitRefusedWith('verificationRequired');
    expect(server.sent.map((c) => c.path)).toEqual(['lever/submit']);
    expect(state.matches({ order: 'verifying' })).toBe(true);
  });

  it('treats another reason with the same text as an ordinary refusal', async () => {
    const state = await submitRefusedWith('insufficientBalance');
    expect(state.matches({ order: 'entering' })).toBe(true);
    expect(state.context.error).toBe('Konto nicht verifiziert');
  });
});
