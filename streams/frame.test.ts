import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createFrameLoop, latestPerFrame } from './frame';

describe('latestPerFrame', () => {
  it('passes on only the newest value of each frame, and nothing in a frame without values', () => {
    const frames: (() => void)[] = [];
    const request = (cb: () => void) => frames.push(cb);
    const source = new Subject<number>();
    const seen: number[] = [];
    const sub = source.pipe(latestPerFrame<number>(request, () => {})).subscribe((v) => seen.push(v));
    source.next(1);
    source.next(2);
    source.next(3);
    expect(frames).toHaveLength(1); // one frame asked for, however many values
    frames.shift()?.();
    expect(seen).toEqual([3]);
    source.next(4);
    frames.shift()?.();
    expect(frames).toHaveLength(0);
    expect(seen).toEqual([3, 4]);
    sub.unsubscribe();
  });

  it('cancels its pending frame when unsubscribed', () => {
    const cancelled: number[] = [];
    const source = new Subject<number>();
    const sub = source
      .pipe(
        latestPerFrame<number>(
          () => 7,
          (h) => cancelled.push(h),
        ),
      )
      .subscribe();
    source.next(1);
    sub.unsubscribe();
    expect(cancelled).toEqual([7]);
  });
});

describe('createFrameLoop', () => {
  const browser = () => {
    const asked: (() => void)[] = [];
    const cancelled: number[] = [];
    let handles = 0;
    const reported: unknown[] = [];
    return {
      asked,
      cancelled,
      reported,
      loop: createFrameLoop(
        (error) => reported.push(error),
        (run) => {
          asked.push(run);
          handles += 1;
          return handles;
        },
        (h) => cancelled.push(h),
      ),
    };
  };

  it('asks the browser once per frame for every view, and runs them in the order asked', () => {
    const { asked, loop } = browser();
    const ran: string[] = [];
    loop.nextFrame(() => ran.push('quotes'));
    loop.nextFrame(() => ran.push('cells'));
    loop.nextFrame(() => ran.push('figures'));
    expect(asked).toHaveLength(1);
    asked.shift()?.();
    expect(ran).toEqual(['quotes', 'cells', 'figures']);
    expect(asked).toHaveLength(0);
  });

  it('runs a callback asked for during a frame at the next frame, not in the same one', () => {
    const { asked, loop } = browser();
    const ran: string[] = [];
    loop.nextFrame(() => {
      ran.push('first');
      loop.nextFrame(() => ran.push('again'));
    });
    asked.shift()?.();
    expect(ran).toEqual(['first']);
    expect(asked).toHaveLength(1);
    asked.shift()?.();
    expect(ran).toEqual(['first', 'again']);
  });

  it('skips a cancelled callback, and gives the browser frame back when nothing is due', () => {
    const { asked, cancelled, loop } = browser();
    const ran: string[] = [];
    const a = loop.nextFrame(() => ran.push('a'));
    loop.nextFrame(() => ran.push('b'));
    loop.cancelFrame(a);
    expect(cancelled).toEqual([]);
    asked.shift()?.();
    expect(ran).toEqual(['b']);
    const c = loop.nextFrame(() => ran.push('c'));
    loop.cancelFrame(c);
    expect(cancelled).toEqual([2]);
  });

  it('runs the rest of a frame when one view throws, reports the error, and serves that view again', () => {
    const { asked, reported, loop } = browser();
    const ran: string[] = [];
    const broken = new Error('format failed');
    loop.nextFrame(() => {
      throw broken;
    });
    loop.nextFrame(() => ran.push('quotes'));
    asked.shift()?.();
    expect(ran).toEqual(['quotes']);
    expect(reported).toEqual([broken]);
    loop.nextFrame(() => ran.push('cells'));
    expect(asked).toHaveLength(1);
    asked.shift()?.();
    expect(ran).toEqual(['quotes', 'cells']);
  });
});
