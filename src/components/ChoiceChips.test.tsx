import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChoiceChips } from './ChoiceChips';

afterEach(cleanup);

describe('choice chips', () => {
  it('are radios of a named group by default, the chosen one checked and marked', () => {
    const onChange = vi.fn();
    render(
      <ChoiceChips
        choices={[5, 10, 20]}
        value={10}
        onChange={onChange}
        label="Leverage"
        text={(n) => `${n}x`}
        testId={(n) => `leverage-${n}`}
        rowClassName="lever-chips"
        chipClassName="lever-chip"
      />,
    );
    const group = screen.getByRole('radiogroup', { name: 'Leverage' });
    expect(group.className).toBe('lever-chips');
    const radios = screen.getAllByRole('radio');
    expect(radios.map((r) => [r.textContent, r.getAttribute('aria-checked'), r.className])).toEqual([
      ['5x', 'false', 'chip lever-chip'],
      ['10x', 'true', 'chip lever-chip is-active'],
      ['20x', 'false', 'chip lever-chip'],
    ]);
    fireEvent.click(screen.getByTestId('leverage-20'));
    expect(onChange).toHaveBeenCalledWith(20);
  });

  it('are tabs of a tab list when they switch a view', () => {
    const onChange = vi.fn();
    render(
      <ChoiceChips
        kind="tab"
        choices={['all', 'paid'] as const}
        value="all"
        onChange={onChange}
        label="Order status"
        text={(s) => s.toUpperCase()}
        testId={(s) => `tab-${s}`}
      />,
    );
    expect(screen.getByRole('tablist', { name: 'Order status' }).className).toBe('chip-row');
    expect(
      screen.getAllByRole('tab').map((t) => [t.textContent, t.getAttribute('aria-selected'), t.className]),
    ).toEqual([
      ['ALL', 'true', 'chip is-active'],
      ['PAID', 'false', 'chip'],
    ]);
    expect(screen.queryByRole('radio')).toBeNull();
    fireEvent.click(screen.getByRole('tab', { name: 'PAID' }));
    expect(onChange).toHaveBeenCalledWith('paid');
  });
});
