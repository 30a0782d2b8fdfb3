import type { ReactElement } from 'react';
import type { SpotOrder } from '../../../../protocol/spot';

/**
 * The slot for a fill's "re-checked" mark: the client recomputing the fill from its recorded tick with the published
 * rule code (DESIGN "Fair outcomes"). That check comes with a later change; until it exists this shows nothing,
 * because a mark that checked nothing would tell the user something untrue.
 */
export function RecheckMark(_props: { order: SpotOrder }): ReactElement | null {
  return null;
}
