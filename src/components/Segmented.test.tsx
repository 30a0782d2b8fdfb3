import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Segmented } from './Segmented';

const OPTIONS = [
  { value: 'phone', label: 'Phone' },
  { value: 'email', label: 'E-mail' },
  { value: 'wallet', label: 'Wallet' },
] as const;

function Harness() {
  const [value, setValue] = useState<'phone' | 'email' | 'wallet'>('phone');
  return <Segmented value={value} options={OPTIONS} onChange={setValue} label="Sign in with" />;
}

const tab = (name: string) => screen.getByRole('tab', { name });

afterEach(cleanup);

describe('Segmented', () => {
  it('is one Tab stop: the chosen option', () => {
    render(<Harness />);
    expect(tab('Phone').tabIndex).toBe(0);
    expect(tab('E-mail').tabIndex).toBe(-1);
    expect(tab('Wallet').tabIndex).toBe(-1);
  });

  it('chooses and focuses with the arrow keys (wrapping), Home and End', () => {
    render(<Harness />);
    act(() => tab('Phone').focus());
    fireEvent.keyDown(tab('Phone'), { key: 'ArrowRight' });
    expect(tab('E-mail').getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(tab('E-mail'));
    expect(tab('E-mail').tabIndex).toBe(0);
    fireEvent.keyDown(tab('E-mail'), { key: 'End' });
    expect(document.activeElement).toBe(tab('Wallet'));
    fireEvent.keyDown(tab('Wallet'), { key: 'ArrowRight' });
    expect(document.activeElement).toBe(tab('Phone'));
    expect(tab('Phone').getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(tab('Phone'), { key: 'ArrowLeft' });
    expect(document.activeElement).toBe(tab('Wallet'));
    fireEvent.keyDown(tab('Wallet'), { key: 'Home' });
    expect(document.activeElement).toBe(tab('Phone'));
  });

  it('leaves other keys alone', () => {
    render(<Harness />);
    fireEvent.keyDown(tab('Phone'), { key: 'Enter' });
    fireEvent.keyDown(tab('Phone'), { key: 'a' });
    fireEvent.keyDown(tab('Phone'), { key: 'ArrowDown' });
    expect(tab('Phone').getAttribute('aria-selected')).toBe('true');
  });
});
