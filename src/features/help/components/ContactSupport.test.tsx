import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { i18n, loadNamespace, startI18n } from '../../../lib/i18n';
import { inRouter } from '../../../test-support/in-router';
import { ContactSupport } from './ContactSupport';

/**
 * The help centre's way to customer service is one link to the chat page, which opens ready to type; from an article
 * or a chosen topic it names the support topic, so a conversation it opens starts on it.
 */

beforeAll(async () => {
  await startI18n('en');
  await i18n.changeLanguage('en');
  await loadNamespace('help');
});
afterEach(cleanup);

const href = async () => (await screen.findByRole('link', { name: /Contact support/ })).getAttribute('href');

describe('ContactSupport', () => {
  it('links straight to the support chat', async () => {
    render(inRouter(() => <ContactSupport />));
    expect(await href()).toBe('/pages/help/center/chat');
  });

  it('carries the topic being read, security questions as account ones', async () => {
    render(inRouter(() => <ContactSupport topic="withdrawal" />));
    expect(await href()).toBe('/pages/help/center/chat?topic=withdrawal');
    cleanup();
    render(inRouter(() => <ContactSupport topic="security" />));
    expect(await href()).toBe('/pages/help/center/chat?topic=account');
  });
});
