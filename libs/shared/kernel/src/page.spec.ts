import { parsePage } from './page.js';
import { InvalidParameterError } from './errors.js';

describe('parsePage', () => {
  it('defaults to limit 20, offset 0', () => {
    expect(parsePage({})).toEqual({ limit: 20, offset: 0 });
  });

  it('reads explicit values', () => {
    expect(parsePage({ limit: '5', offset: '40' })).toEqual({ limit: 5, offset: 40 });
  });

  it('clamps a limit above 200 to 200', () => {
    expect(parsePage({ limit: '100000' })).toEqual({ limit: 200, offset: 0 });
  });

  it('takes the last value of a repeated parameter', () => {
    expect(parsePage({ limit: ['3', '7'] })).toEqual({ limit: 7, offset: 0 });
  });

  it.each(['-1', '1.5', 'abc', '', ' 3', '1e3', '99999999999999999999'])('rejects limit %p', (raw) => {
    expect(() => parsePage({ limit: raw })).toThrow(InvalidParameterError);
  });

  it.each(['-20', '0.5', 'x'])('rejects offset %p', (raw) => {
    expect(() => parsePage({ offset: raw })).toThrow(InvalidParameterError);
  });
});
