import { describe, expect, it } from 'vitest';
import { wrapText } from './poster';

// One unit per character: the wrapping logic, without a canvas.
const measure = (s: string) => Array.from(s).length;

describe('poster text wrapping', () => {
  it('breaks at spaces and keeps what fits on one line', () => {
    expect(wrapText(measure, 'Trade with me', 20, 3)).toEqual(['Trade with me']);
    expect(wrapText(measure, 'Handle mit mir auf TradeWave', 12, 3)).toEqual(['Handle mit', 'mir auf', 'TradeWave']);
  });

  it('breaks inside a word or a script without spaces where nothing else fits', () => {
    expect(wrapText(measure, '一緒にトレードしましょう', 5, 3)).toEqual(['一緒にトレ', 'ードしまし', 'ょう']);
  });

  it('cuts to the most lines allowed with an ellipsis', () => {
    expect(wrapText(measure, 'one two three four five', 9, 2)).toEqual(['one two', 'three…']);
  });
});
