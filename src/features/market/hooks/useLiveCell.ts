import { type RefCallback, useCallback } from 'react';
import type { CellRender, FrameWriter } from '../live/frameWriter';

/**
 * A ref that registers its element as a live cell of `key` with `writer` while it is mounted: React renders the
 * element once and the writer keeps its content current. `render` should be stable (memoised): a new one registers
 * the cell again.
 */
export function useLiveCell<V, E extends HTMLElement = HTMLElement>(
  writer: FrameWriter<V>,
  key: string,
  render: CellRender<V>,
): RefCallback<E> {
  return useCallback(
    (element: E | null) => (element ? writer.register(key, element, render) : undefined),
    [writer, key, render],
  );
}
