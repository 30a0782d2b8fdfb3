import { Subject } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { latestPerFrame } from './frame';

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
