import { type ReactElement, useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { LeverSide } from '../../../../protocol/lever';

/** Long or short: two large buttons in the side's colour, one of them chosen (a radio group). */
export function SideSwitch({
  value,
  onChange,
}: {
  value: LeverSide;
  onChange: (side: LeverSide) => void;
}): ReactElement {
  const { t } = useTranslation();
  return (
    <div className="lever-sides" role="radiogroup" aria-label={t('lever.ticket.side')}>
      {(['long', 'short'] as const).map((side) => (
        // biome-ignore lint/a11y/useSemanticElements: two buttons acting as the radios of one group
        <button
          key={side}
          type="button"
          role="radio"
          aria-checked={side === value}
          className={`lever-side is-${side}${side === value ? ' is-active' : ''}`}
          onClick={() => onChange(side)}
          data-testid={`side-${side}`}
        >
          {t(side === 'long' ? 'lever.ticket.long' : 'lever.ticket.short')}
        </button>
      ))}
    </div>
  );
}

/**
 * The instrument's leverage choices (RULES: 1 to 100, capped per instrument) on a slider that stops only at them, with
 * each step named under the track: a thumb for one hand, a tap on a step's name to jump there.
 */
export function LeverageSlider({
  leverages,
  value,
  onChange,
}: {
  leverages: readonly number[];
  value: number;
  onChange: (leverage: number) => void;
}): ReactElement {
  const { t } = useTranslation();
  const id = useId();
  const index = Math.max(0, leverages.indexOf(value));
  const times = (n: number) => t('lever.ticket.times', { n });
  return (
    <div className="lever-leverages">
      <div className="lever-leverage-head">
        <label className="lever-label" htmlFor={id}>
          {t('lever.ticket.leverage')}
        </label>
        <output className="lever-leverage-value" htmlFor={id} data-testid="leverage-value">
          {times(value)}
        </output>
      </div>
      <input
        id={id}
        type="range"
        className="lever-slider"
        min={0}
        max={Math.max(0, leverages.length - 1)}
        step={1}
        value={index}
        aria-valuetext={times(value)}
        onChange={(e) => {
          const next = leverages[Number(e.target.value)];
          if (next !== undefined) onChange(next);
        }}
        data-testid="leverage-slider"
      />
      {/* The slider is the control for assistive technology; the names are a pointer's shortcut to a step. */}
      <div className="lever-steps" aria-hidden="true">
        {leverages.map((n) => (
          <button
            key={n}
            type="button"
            tabIndex={-1}
            className={`lever-step${n === value ? ' is-active' : ''}`}
            onClick={() => onChange(n)}
            data-testid={`leverage-${n}`}
          >
            {times(n)}
          </button>
        ))}
      </div>
    </div>
  );
}
