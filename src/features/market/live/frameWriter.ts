import { cancelFrame, type FrameCancel, type FrameRequest, nextFrame } from '../../../../streams/frame';

/** What one live cell shows. */
export interface CellView {
  text: string;
  /** The element's whole class attribute, when the cell owns it. */
  className?: string;
  /** data-* attributes, named without the prefix, when the cell owns them. */
  data?: Readonly<Record<string, string>>;
}

/** A cell's view of its key's value; called only when the value changed, so it may be a cache lookup. */
export type CellRender<V> = (value: V) => CellView;

interface Cell<V> {
  readonly element: HTMLElement;
  readonly render: CellRender<V>;
  /** The value last applied; undefined before the first. */
  value: V | undefined;
  /** What the element shows now (as last written or found), to write only differences. */
  text: string;
  className: string | null;
  data: Map<string, string | null>;
}

/**
 * Writes live values straight into registered DOM elements, once per animation frame (DESIGN "Realtime"): a list
 * renders its rows with React only when its rows change, and each live cell (a price, a change badge) registers here.
 * However many updates arrive in a frame, each cell is written at most once, with the newest value, and only what
 * differs from what it shows; no React state changes per tick. A hidden tab, whose frames stop, writes nothing.
 */
export class FrameWriter<V> {
  private values: ReadonlyMap<string, V> = new Map();
  private readonly cells = new Map<string, Set<Cell<V>>>();
  private handle: number | undefined;

  constructor(
    private readonly request: FrameRequest = nextFrame,
    private readonly cancel: FrameCancel = cancelFrame,
  ) {}

  /** The newest value per key, written at the next frame; cells whose key is missing keep what they show. */
  update(values: ReadonlyMap<string, V>): void {
    this.values = values;
    if (this.handle === undefined && this.cells.size > 0) this.handle = this.request(this.flush);
  }

  /**
   * Registers `element` as a cell of `key`, shown through `render`; it is written at once when a value is known (so a
   * cell mounted by React is filled before it is painted), then at each frame its value changed. Returns the
   * unregistration: from then on the element is left alone.
   */
  register(key: string, element: HTMLElement, render: CellRender<V>): () => void {
    const cell: Cell<V> = {
      element,
      render,
      value: undefined,
      text: element.textContent ?? '',
      className: element.getAttribute('class'),
      data: new Map(),
    };
    let group = this.cells.get(key);
    if (!group) {
      group = new Set();
      this.cells.set(key, group);
    }
    group.add(cell);
    const value = this.values.get(key);
    if (value !== undefined) apply(cell, value);
    return () => {
      const cells = this.cells.get(key);
      if (!cells?.delete(cell) || cells.size > 0) return;
      this.cells.delete(key);
      if (this.cells.size === 0 && this.handle !== undefined) {
        this.cancel(this.handle);
        this.handle = undefined;
      }
    };
  }

  private readonly flush = (): void => {
    this.handle = undefined;
    for (const [key, cells] of this.cells) {
      const value = this.values.get(key);
      if (value === undefined) continue;
      for (const cell of cells) if (cell.value !== value) apply(cell, value);
    }
  };
}

function apply<V>(cell: Cell<V>, value: V): void {
  cell.value = value;
  const view = cell.render(value);
  const { element } = cell;
  if (view.text !== cell.text) {
    cell.text = view.text;
    writeText(element, view.text);
  }
  if (view.className !== undefined && view.className !== cell.className) {
    cell.className = view.className;
    element.className = view.className;
  }
  if (view.data) {
    for (const [name, next] of Object.entries(view.data)) {
      const attribute = `data-${name}`;
      let shown = cell.data.get(name);
      if (shown === undefined) shown = element.getAttribute(attribute);
      if (shown !== next) element.setAttribute(attribute, next);
      cell.data.set(name, next);
    }
  }
}

/**
 * A text write: the element's one text node is changed in place (cheaper for the browser to lay out again than a new
 * node, and it keeps the node a framework may hold); anything else is replaced by a single text node.
 */
function writeText(element: HTMLElement, text: string): void {
  const node = element.firstChild;
  if (node !== null && node === element.lastChild && node.nodeType === Node.TEXT_NODE) node.nodeValue = text;
  else element.textContent = text;
}
