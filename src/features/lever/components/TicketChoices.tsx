import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import type { LeverSide } from '../../../../protocol/lever';
import { ChoiceChips } from '../../../components/ChoiceChips';

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

/** The instrument's leverage choices (RULES: 1 to 100, capped per instrument) as chips. */
export function LeverageChips({
  leverages,
  value,
  onChange,
}: {
  leverages: readonly number[];
  value: number;
  onChange: (leverage: number) => void;
}): ReactElement {
  const { t } = useTranslation();
  return (
    <fieldset className="lever-leverages">
      <legend className="lever-label">{t('lever.ticket.leverage')}</legend>
      <ChoiceChips
        choices={leverages}
        value={value}
        onChange={onChange}
        label={t('lever.ticket.leverage')}
        text={(l) => t('lever.ticket.times', { n: l })}
        testId={(l) => `leverage-${l}`}
        rowClassName="lever-chips"
        chipClassName="lever-chip"
      />
    </fieldset>
  );
}
