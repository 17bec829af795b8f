import { flagDefinition, GUIDE_FLAGS, timeRequiredText } from './guide-vocabulary.js';

describe('timeRequiredText', () => {
  it.each([
    [0, 0, 'No estimate'],
    [1800, 1800, '30 minutes'],
    [60, 60, '1 minute'],
    [3600, 3600, '1 hour'],
    [7200, 7200, '2 hours'],
    [5400, 5400, '1.5 hours'],
    [1200, 1800, '20 minutes - 30 minutes'],
    [1800, 3600, '30 minutes - 1 hour'],
    [3600, 5400, '1 hour - 1.5 hours'],
    [0, 1800, '30 minutes'],
    [0, 5400, '1.5 hours'],
    [1800, 0, '30 minutes'],
    [3660, 3660, '1 hour'],
    [3700, 7200, '1 hour - 2 hours'],
    [3599, 3599, '1 hour'],
    [3540, 3599, '59 minutes - 1 hour'],
  ])('reads %i to %i seconds as %j', (min, max, text) => {
    expect(timeRequiredText(min, max)).toBe(text);
  });

  it('shows at least one minute', () => {
    expect(timeRequiredText(20, 20)).toBe('1 minute');
  });
});

describe('flags', () => {
  it('knows the flags and which are privileged', () => {
    expect(GUIDE_FLAGS.map((f) => f.flagid)).toEqual(['GUIDE_STARRED', 'GUIDE_ARCHIVED', 'GUIDE_IN_PROGRESS', 'GUIDE_USER_CONTRIBUTED', 'GUIDE_PREREQ_ONLY']);
    expect(flagDefinition('GUIDE_STARRED')?.privileged).toBe(true);
    expect(flagDefinition('GUIDE_ARCHIVED')?.privileged).toBe(true);
    expect(flagDefinition('GUIDE_IN_PROGRESS')?.privileged).toBe(false);
    expect(flagDefinition('GUIDE_UNKNOWN')).toBeUndefined();
  });
});
