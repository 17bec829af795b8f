import { parseRange } from './stored-file.js';
import { parseImageFile } from './media.presenter.js';

describe('image file names', () => {
  it('reads <guid>[-<version>].<size>', () => {
    expect(parseImageFile('FucWIkw2ZEBiIJHk.medium')).toEqual({ guid: 'FucWIkw2ZEBiIJHk', version: 1, size: 'medium' });
    expect(parseImageFile('FucWIkw2ZEBiIJHk-3.full')).toEqual({ guid: 'FucWIkw2ZEBiIJHk', version: 3, size: 'full' });
    expect(parseImageFile('FucWIkw2ZEBiIJHk.140x105')).toEqual({ guid: 'FucWIkw2ZEBiIJHk', version: 1, size: '140x105' });
  });

  it.each(['i12.medium', 'FucWIkw2ZEBiIJHk', 'FucWIkw2ZEBiIJHk-0.full', '1ucWIkw2ZEBiIJHk.full', 'FucWIkw2ZEBiIJHk.me/dium', '../x.full'])('refuses %p', (name) => {
    expect(parseImageFile(name)).toBeNull();
  });
});

describe('Range headers', () => {
  it.each([
    [undefined, null],
    ['bytes=0-9', { start: 0, end: 9 }],
    ['bytes=90-', { start: 90, end: 99 }],
    ['bytes=95-200', { start: 95, end: 99 }],
    ['bytes=-10', { start: 90, end: 99 }],
    ['bytes=-500', { start: 0, end: 99 }],
    ['bytes=100-', 'unsatisfiable'],
    ['bytes=-0', 'unsatisfiable'],
    ['bytes=9-3', 'unsatisfiable'],
    ['bytes=0-1,5-6', null],
    ['items=0-9', null],
  ])('%p of 100 bytes → %p', (header, expected) => {
    expect(parseRange(header, 100)).toEqual(expected);
  });
});
