import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatConversation } from '../../../../../../protocol/chat';
import { i18n, loadNamespace, startI18n } from '../../../../../lib/i18n';
import { clearSession, setSession } from '../../../../../state/session';
import { inRouter, okEnvelope } from '../../../../../test-support/in-router';
import SupportChatPage from './chat';

/**
 * One tap from the help centre reaches a support conversation ready to type: the page opens the user's open
 * conversation, or opens one on the way (chat/support/open, on the link's topic), and the message field has the focus.
 * The conversation's live feed is a stand-in here (its own tests cover it); the api answers from the stub below.
 */

vi.mock('../../../hooks/useConversation', () => ({
  useConversation: (id: number | null) =>
    id === null
      ? { feed: null, view: null }
      : {
          feed: { markRead: async () => {}, loadFirst: async () => {}, loadOlder: async () => {} },
          view: {
            conversation: null,
            messages: [],
            pending: [],
            hasOlder: false,
            loadingOlder: false,
            failed: false,
            loading: false,
          },
        },
  useConnectionState: () => 'connected',
}));

const conversation = (id: number, state: 'open' | 'closed', topic: ChatConversation['topic']): ChatConversation => ({
  id,
  kind: 'support',
  topic,
  order_id: null,
  peer: '',
  state,
  last_seq: 0,
  read_seq: 0,
  peer_read_seq: 0,
  unread: 0,
  last: null,
  created_at: 1,
  updated_at: 1,
});

/** What the stubbed api holds, and the topics chat/support/open was asked for. */
let held: { conversations: ChatConversation[]; internal: boolean; refuse: string | null };
let opened: string[] = [];

function serve(): void {
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost');
    const path = url.pathname.replace('/api/', '');
    const answer = (body: unknown) =>
      new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
    if (path === 'chat/list') return answer(okEnvelope({ conversations: held.conversations }));
    if (path === 'set/get_customer_url')
      return answer(okEnvelope({ url: held.internal ? '' : 'https://help.example.com', internal: held.internal }));
    if (path === 'chat/support/open') {
      const body = input instanceof Request ? await input.text() : String(init?.body ?? '');
      const topic = new URLSearchParams(body).get('topic') ?? '';
      opened.push(topic);
      if (held.refuse) return answer({ type: 'error', code: 0, message: held.refuse, reason: 'tooManyRequests' });
      const open = held.conversations.find((c) => c.state === 'open') ?? conversation(9, 'open', null);
      return answer(okEnvelope({ ...open, topic: open.topic ?? topic }));
    }
    throw new Error(`unexpected call ${path}`);
  });
}

beforeAll(async () => {
  await startI18n('en');
  await i18n.changeLanguage('en');
  await loadNamespace('chat');
});
beforeEach(() => {
  held = { conversations: [], internal: true, refuse: null };
  opened = [];
  serve();
  setSession('token', {
    id: 5,
    username: 'ben',
    email: null,
    mobile: null,
    area_code: null,
    invite_code: 'X1',
    lang: 'en',
    has_fund_password: true,
    created_at: 1,
  });
});
afterEach(() => {
  cleanup();
  clearSession();
  vi.unstubAllGlobals();
});

const box = () => screen.findByRole('textbox', { name: 'Write a message' });

describe('the support chat page', () => {
  it('opens a conversation on the way, on the link’s topic, with the message field focused', async () => {
    held.conversations = [conversation(3, 'closed', 'trading')];
    render(inRouter(() => <SupportChatPage />, '/?topic=deposit'));
    const field = await box();
    await waitFor(() => expect(document.activeElement).toBe(field));
    expect(opened).toEqual(['deposit']);
  });

  it('opens the user’s open conversation without asking for another', async () => {
    held.conversations = [conversation(4, 'open', 'account')];
    render(inRouter(() => <SupportChatPage />));
    const field = await box();
    await waitFor(() => expect(document.activeElement).toBe(field));
    expect(opened).toEqual([]);
  });

  it('asks on "something else" when the link names no topic it knows', async () => {
    render(inRouter(() => <SupportChatPage />, '/?topic=lottery'));
    await box();
    expect(opened).toEqual(['other']);
  });

  it('says why when the conversation cannot be opened, and tries again on request', async () => {
    held.refuse = 'Too many requests, please wait a moment';
    render(inRouter(() => <SupportChatPage />));
    await screen.findByText('Too many requests, please wait a moment');
    expect(screen.getByRole('link', { name: 'Start a new conversation' }).getAttribute('href')).toBe(
      '/pages/help/center/newchat',
    );
    held.refuse = null;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    const field = await box();
    await waitFor(() => expect(document.activeElement).toBe(field));
    expect(opened).toEqual(['other', 'other']);
  });

  it('opens nothing when customer service lives on an outside page', async () => {
    held.internal = false;
    render(inRouter(() => <SupportChatPage />));
    const link = await screen.findByRole('link', { name: 'Open customer service' });
    expect(link.getAttribute('href')).toBe('https://help.example.com');
    expect(opened).toEqual([]);
    expect(screen.queryByRole('textbox')).toBeNull();
  });
});
