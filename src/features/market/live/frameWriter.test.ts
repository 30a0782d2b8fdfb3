import { afterEach, describe, expect, it } from 'vitest';
import { type CellRender, FrameWriter } from './frameWriter';

/** A fake requestAnimationFrame: frames run when the test says so. */
function fakeFrames() {
  const pending = new Map<number, () => void>();
  let next = 1;
  return {
    request: (callback: () => void) => {
      const handle = next++;
      pending.set(handle, callback);
      return handle;
    },
    cancel: (handle: number) => {
      pending.delete(handle);
    },
    get pending() {
      return pending.size;
    },
    /** Runs the frame's callbacks (those asked for during it wait for the next). */
    run() {
      const callbacks = [...pending.values()];
      pending.clear();
      for (const callback of callbacks) callback();
    },
  };
}

/** Every DOM change under `root` (text, nodes, attributes) since the last call. */
function recorder(root: Node) {
  const observer = new MutationObserver(() => {});
  observer.observe(root, { subtree: true, childList: true, characterData: true, attributes: true });
  return {
    take: () => observer.takeRecords(),
    stop: () => observer.disconnect(),
  };
}

interface Price {
  last: string;
  dir: 'up' | 'down';
}
const text: CellRender<Price> = (p) => ({ text: p.last });
const badge: CellRender<Price> = (p) => ({ text: p.dir, className: `badge badge-${p.dir}`, data: { dir: p.dir } });
const prices = (entries: Record<string, Price>) => new Map(Object.entries(entries));

const span = (content = '') => {
  const el = document.createElement('span');
  el.textContent = content;
  document.body.append(el);
  return el;
};

afterEach(() => {
  document.body.replaceChildren();
});

describe('FrameWriter', () => {
  it('writes each cell once per frame, with the newest of several updates', () => {
    const frames = fakeFrames();
    const writer = new FrameWriter<Price>(frames.request, frames.cancel);
    const btc = span('1');
    const eth = span('2');
    writer.register('BTC', btc, text);
    writer.register('ETH', eth, text);
    const dom = recorder(document.body);

    writer.update(prices({ BTC: { last: '10', dir: 'up' }, ETH: { last: '20', dir: 'up' } }));
    writer.update(prices({ BTC: { last: '11', dir: 'up' }, ETH: { last: '21', dir: 'up' } }));
    writer.update(prices({ BTC: { last: '12', dir: 'up' }, ETH: { last: '21', dir: 'up' } }));
    expect(frames.pending).toBe(1); // one frame asked for, however many updates
    expect(dom.take()).toHaveLength(0); // nothing written between frames
    expect(btc.textContent).toBe('1');

    frames.run();
    const writes = dom.take();
    expect(writes).toHaveLength(2); // one per cell
    expect(writes.every((w) => w.type === 'characterData')).toBe(true); // the text node is changed in place
    expect(btc.textContent).toBe('12');
    expect(eth.textContent).toBe('21');
    expect(frames.pending).toBe(0);
    dom.stop();
  });

  it('leaves a cell whose text did not change alone, and writes class and data only when they change', () => {
    const frames = fakeFrames();
    const writer = new FrameWriter<Price>(frames.request, frames.cancel);
    const last = span('100');
    const change = span();
    writer.register('BTC', last, text);
    writer.register('BTC', change, badge);
    const dom = recorder(document.body);

    writer.update(prices({ BTC: { last: '100', dir: 'up' } }));
    frames.run();
    // The price already showed 100: only the badge's text, class and data-dir were written.
    expect(dom.take().map((w) => (w.type === 'attributes' ? w.attributeName : w.type))).toEqual([
      'childList',
      'class',
      'data-dir',
    ]);
    expect(change.className).toBe('badge badge-up');
    expect(change.dataset.dir).toBe('up');

    writer.update(prices({ BTC: { last: '100', dir: 'up' } })); // a new value object, the same texts
    frames.run();
    expect(dom.take()).toHaveLength(0);

    writer.update(prices({ BTC: { last: '101', dir: 'down' } }));
    frames.run();
    expect(dom.take()).toHaveLength(4); // price text, badge text, class, data-dir
    expect(last.textContent).toBe('101');
    expect(change.outerHTML).toBe('<span class="badge badge-down" data-dir="down">down</span>');
    dom.stop();
  });

  it('fills a cell when it registers, and ignores it once unregistered', () => {
    const frames = fakeFrames();
    const writer = new FrameWriter<Price>(frames.request, frames.cancel);
    const early = span();
    writer.register('BTC', early, text); // no value yet: left as it is
    expect(early.textContent).toBe('');
    writer.update(prices({ BTC: { last: '5', dir: 'up' } }));

    const late = span();
    const unregister = writer.register('BTC', late, text);
    expect(late.textContent).toBe('5'); // written at once, not a frame later
    frames.run();
    expect(early.textContent).toBe('5');

    unregister();
    writer.update(prices({ BTC: { last: '6', dir: 'up' } }));
    frames.run();
    expect(early.textContent).toBe('6');
    expect(late.textContent).toBe('5');
  });

  it('asks for no frame without cells, cancels it when the last cell goes, and skips missing keys', () => {
    const frames = fakeFrames();
    const writer = new FrameWriter<Price>(frames.request, frames.cancel);
    writer.update(prices({ BTC: { last: '1', dir: 'up' } }));
    expect(frames.pending).toBe(0);

    const btc = span('x');
    const unregister = writer.register('BTC', btc, text);
    writer.update(prices({ BTC: { last: '2', dir: 'up' } }));
    expect(frames.pending).toBe(1);
    unregister();
    expect(frames.pending).toBe(0);

    const eth = span('7');
    writer.register('ETH', eth, text);
    writer.update(prices({ BTC: { last: '3', dir: 'up' } }));
    frames.run();
    expect(eth.textContent).toBe('7');
  });

  it('replaces mixed content with a single text node', () => {
    const frames = fakeFrames();
    const writer = new FrameWriter<Price>(frames.request, frames.cancel);
    const el = span();
    el.append('a', document.createElement('b'));
    writer.update(prices({ BTC: { last: '9', dir: 'up' } }));
    writer.register('BTC', el, text);
    expect(el.innerHTML).toBe('9');
  });
});
