import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { FormEvent, ReactElement } from 'react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { Field, PasswordField } from '../components/Field';
import { i18n, startI18n } from '../lib/i18n';
import { type SubmitResult, useForm } from './useForm';

const schema = z.object({
  email: z.string().check(z.minLength(1, 'emailRequired')),
  code: z.string().check(z.regex(/^\d{6}$/, 'codeInvalid')),
  password: z.string().check(z.minLength(1, 'passwordRequired')),
});

function deferred<T>() {
  let resolve: (v: T) => void = () => {};
  const promise = new Promise<T>((res) => {
    resolve = res;
  });
  return { promise, resolve };
}

let call: () => Promise<SubmitResult> = async () => ({ ok: true });
const submitted: unknown[] = [];

function Demo(): ReactElement {
  const form = useForm({ email: '', code: '', password: '' });
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!form.validate(schema)) return;
    const r = await form.submitWith(call);
    submitted.push(r);
  };
  return (
    <form onSubmit={submit} noValidate>
      <Field label="E-mail" {...form.bind('email')} />
      <Field label="Code" {...form.bind('code', { map: (v) => v.replace(/\D/g, '') })} />
      <PasswordField label="Password" {...form.bind('password')} />
      <output data-testid="busy">{form.busy ? 'busy' : 'idle'}</output>
      <button type="submit">Send</button>
    </form>
  );
}

const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
/** The message shown under a field (Field links it with aria-describedby). */
const messageOf = (label: string) => {
  const id = input(label).getAttribute('aria-describedby');
  return id ? document.getElementById(id)?.textContent : undefined;
};
const t = (key: string) => i18n.t(`errors:${key}` as 'errors:invalidInput');

beforeAll(async () => {
  await startI18n('en');
});

afterEach(() => {
  cleanup();
  submitted.length = 0;
  call = async () => ({ ok: true });
});

describe('useForm', () => {
  it('shows the translated schema messages under their fields and does not call the server', async () => {
    let calls = 0;
    call = async () => {
      calls++;
      return { ok: true };
    };
    render(<Demo />);
    fireEvent.change(input('Code'), { target: { value: '12' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send' })));
    expect(messageOf('E-mail')).toBe(t('emailRequired'));
    expect(messageOf('Code')).toBe(t('codeInvalid'));
    expect(messageOf('Password')).toBe(t('passwordRequired'));
    expect(t('emailRequired')).not.toBe('emailRequired');
    expect(input('E-mail').getAttribute('aria-invalid')).toBe('true');
    expect(calls).toBe(0);
  });

  it('clears only the field the user types in, and applies the input mapping', async () => {
    render(<Demo />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send' })));
    fireEvent.change(input('Code'), { target: { value: '12a3' } });
    expect(input('Code').value).toBe('123');
    expect(messageOf('Code')).toBeFalsy();
    expect(input('Code').getAttribute('aria-invalid')).toBeNull();
    expect(messageOf('E-mail')).toBe(t('emailRequired'));
    expect(messageOf('Password')).toBe(t('passwordRequired'));
  });

  it('is busy during the call and puts the server message under the field it names', async () => {
    const answer = deferred<SubmitResult>();
    call = () => answer.promise;
    render(<Demo />);
    fireEvent.change(input('E-mail'), { target: { value: 'ann@example.com' } });
    fireEvent.change(input('Code'), { target: { value: '123456' } });
    fireEvent.change(input('Password'), { target: { value: 'secret' } });
    expect(screen.getByTestId('busy').textContent).toBe('idle');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Send' })));
    expect(screen.getByTestId('busy').textContent).toBe('busy');
    await act(async () => answer.resolve({ ok: false, field: 'code', message: 'The code has expired' }));
    expect(screen.getByTestId('busy').textContent).toBe('idle');
    expect(messageOf('Code')).toBe('The code has expired');
    expect(messageOf('E-mail')).toBeFalsy();
    expect(submitted).toEqual([{ ok: false, field: 'code', message: 'The code has expired' }]);
  });

  it('ends busy when the call throws', async () => {
    call = async () => {
      throw new Error('boom');
    };
    let thrown: unknown;
    function Thrower(): ReactElement {
      const form = useForm({ a: '' });
      return (
        <button type="button" onClick={() => form.submitWith(call).catch((e: unknown) => (thrown = e))}>
          {form.busy ? 'busy' : 'idle'}
        </button>
      );
    }
    render(<Thrower />);
    await act(async () => fireEvent.click(screen.getByRole('button')));
    expect(thrown).toBeInstanceOf(Error);
    expect(screen.getByRole('button').textContent).toBe('idle');
  });
});
