import type { MessageKey } from './i18n/messages';

/**
 * A failure the user can act on (wrong code, taken e-mail, ...). Answered as HTTP 200 with an error
 * envelope whose message is `key` translated; `field` lets a form mark the input, `data` carries extras
 * such as `retry_after`. Anything else thrown is a server error.
 */
export class BusinessError extends Error {
  readonly field: string | undefined;
  readonly data: Record<string, unknown> | undefined;

  constructor(
    readonly key: MessageKey,
    options: { field?: string; data?: Record<string, unknown> } = {},
  ) {
    super(key);
    this.name = 'BusinessError';
    this.field = options.field;
    this.data = options.data;
  }
}

/** The session is missing or no longer valid: answered with the type-999 envelope (SPEC 4). */
export class SessionRequiredError extends Error {
  constructor(readonly key: 'notLoggedIn' | 'sessionExpired') {
    super(key);
    this.name = 'SessionRequiredError';
  }
}
