import { SearchAnswers } from './search.controller.js';

describe('SearchAnswers', () => {
  it('keeps answers gzipped, served at most maxAgeMs, and answers the JSON as built', () => {
    const answers = new SearchAnswers(1024 * 1024, 15_000);
    expect(answers.put('/api/2.0/search/kettle', '3', { search: 'kettle' }, null)).toMatchObject({ json: '{"search":"kettle"}', gzipped: false });
    expect(answers.get('/api/2.0/search/kettle', '3')).toMatchObject({ gzipped: true });
    expect(answers.put('/api/2.0/search/old', '3', { search: 'old' }, null, Date.now() - 15_000)).toMatchObject({ gzipped: false });
    expect(answers.get('/api/2.0/search/old', '3')).toBeNull();
  });
});
