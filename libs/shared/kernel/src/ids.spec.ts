import { parseId, MAX_ID } from './ids.js';

describe('parseId', () => {
  it.each([
    ['1', 1],
    ['42', 42],
    [7, 7],
    [String(MAX_ID), MAX_ID],
  ])('accepts %p', (raw, expected) => {
    expect(parseId(raw)).toBe(expected);
  });

  it.each(['0', '-1', '01', '1.0', 'abc', '', String(MAX_ID + 1), 0, -3, 1.5, null, undefined, {}])(
    'rejects %p',
    (raw) => {
      expect(parseId(raw)).toBeNull();
    },
  );
});
