import { tagsInOrder } from './tags.controller.js';

const at = (tag: string, seconds: number) => ({ tag, firstUsedAt: new Date(seconds * 1000) });

describe('tagsInOrder', () => {
  it('counts a tag from its earliest use in any source, ties by name, each once', () => {
    const guides = [at('battery', 10), at('screen', 30)];
    const pages = [at('screen', 5), at('hinge', 20), at('apple', 20)];
    expect(tagsInOrder([guides, pages], 'ASC')).toEqual(['screen', 'battery', 'apple', 'hinge']);
    expect(tagsInOrder([guides, pages], 'DESC')).toEqual(['apple', 'hinge', 'battery', 'screen']);
    expect(tagsInOrder([[], []], 'ASC')).toEqual([]);
  });
});
