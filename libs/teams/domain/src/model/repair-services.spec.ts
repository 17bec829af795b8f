import { InvalidTeamError, RepairServiceNotFoundError } from '../teams.errors.js';
import { MAX_REPAIR_SERVICES, RepairServices } from './repair-services.js';

describe('RepairServices', () => {
  const list = new RepairServices([3, 1, 2]);

  it('appends a page once, keeping one already listed where it is', () => {
    expect(list.add(9).wikiIds).toEqual([3, 1, 2, 9]);
    expect(list.add(1)).toBe(list);
    expect(list.add(9).addedSince(list)).toEqual([9]);
    for (const bad of [0, -1, 1.5, '4', null]) expect(() => list.add(bad)).toThrow(InvalidTeamError);
    const full = new RepairServices(Array.from({ length: MAX_REPAIR_SERVICES }, (_, i) => i + 1));
    expect(() => full.add(MAX_REPAIR_SERVICES + 1)).toThrow(InvalidTeamError);
  });

  it('reorders to a permutation of the same pages only', () => {
    expect(list.reorder([1, 2, 3]).wikiIds).toEqual([1, 2, 3]);
    for (const bad of [[1, 2], [1, 2, 3, 3], [1, 2, 4], 'all', [1, 2, '3']]) expect(() => list.reorder(bad)).toThrow(InvalidTeamError);
  });

  it('removes a listed page; another is not found', () => {
    expect(list.remove(1).wikiIds).toEqual([3, 2]);
    expect(() => list.remove(7)).toThrow(RepairServiceNotFoundError);
  });
});
