import { expect } from 'vitest';
import type { OpsCallSpec, OpsRole } from '../../protocol/ops-console';
import { OPS_TOKEN_HEADER } from '../../protocol/ops-console';
import { createOperator, type OperatorServices, totpCode } from '../../server/domains/operators';
import { BusinessError } from '../../server/platform/errors';
import type { Envelope, TestApp } from './harness';

/** How many entries the operators' audit log holds. */
export const auditCount = async (t: TestApp): Promise<number> =>
  Number(
    (
      await t.db
        .selectFrom('ops_audit')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/**
 * The support console seen from tests: operators signed in with password and authenticator code, console calls with
 * the console's token (never a user's), and operator service calls that must be refused with a given key and field.
 */
export function consoleClient(
  app: () => TestApp,
  services: () => OperatorServices,
  options: { password: string; names: string; ipBlock: number },
) {
  let serial = 0;

  /** A new operator with `roles`, signed in: its console token and name. */
  async function signedIn(roles: OpsRole[], name = `${options.names}${++serial}`) {
    const t = app();
    const created = await createOperator(services(), { name, roles, password: options.password });
    if (!created.ok) throw new Error(created.problem);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/ops/login',
      headers: { lang: 'en', 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        name,
        password: options.password,
        code: totpCode(created.secret, t.clock.now()),
      }).toString(),
      remoteAddress: `10.${options.ipBlock}.${serial}.1`,
    });
    const body = response.json<Envelope>();
    expect(body, JSON.stringify(body)).toMatchObject({ type: 'ok' });
    return { token: (body.data as { token: string }).token, id: created.operator.id, name };
  }

  /** One console call of `table` with an operator's token; never a 5xx. */
  async function ops<T extends Record<string, OpsCallSpec>>(
    table: T,
    path: keyof T & string,
    fields: Record<string, string>,
    token: string,
  ): Promise<Envelope> {
    const { method } = table[path] as OpsCallSpec;
    const query = new URLSearchParams(fields).toString();
    const response = await app().app.inject({
      method,
      url: method === 'GET' ? `/api/${path}?${query}` : `/api/${path}`,
      headers: {
        lang: 'en',
        [OPS_TOKEN_HEADER]: token,
        ...(method === 'GET' ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
      },
      ...(method === 'GET' ? {} : { payload: query }),
    });
    expect(response.statusCode).toBeLessThan(500);
    return response.json<Envelope>();
  }

  return { signedIn, ops };
}

/** Each attempt is refused with a BusinessError of its key and field (callers check that nothing changed). */
export async function expectRefusals(attempts: ReadonlyArray<[() => Promise<unknown>, string, string]>): Promise<void> {
  for (const [attempt, key, field] of attempts) {
    const err = await attempt().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err, key).toBeInstanceOf(BusinessError);
    expect(err).toMatchObject({ key, field });
  }
}
