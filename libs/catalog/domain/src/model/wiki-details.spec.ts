import { RuleViolationError } from '@rc/shared-kernel';
import { NO_DETAILS } from './wiki-details.js';
import { WikiPage, type WikiEditor, type WikiId, type WikiInput } from './wiki-page.js';

const admin: WikiEditor = { userId: 1, isAdmin: true };
const T0 = new Date('2026-01-01T00:00:00Z');
const T1 = new Date('2026-01-02T00:00:00Z');
const create = (input: WikiInput) => WikiPage.create(7 as WikiId, admin, input, null, T0);

/** The violations a call throws, as `field[index]: message`. */
function problems(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    if (!(error instanceof RuleViolationError)) throw error;
    return error.violations.map((v) => `${v.field}${v.index === undefined ? '' : `[${v.index}]`}: ${v.message}`);
  }
  throw new Error('no violation');
}

const SCHEDULE = { task: 'Replace the battery', triggers: [{ trigger_type: 'time', metric: 'age', unit: 'months', first_interval: 12, repeat_interval: 12 }], parts: ['Battery'] };

describe('the compatibility fields of a page', () => {
  it('are stored as written, with defaults for the rest', () => {
    const page = create({
      namespace: 'CATEGORY',
      title: 'Phone',
      page_title: ' Phone Repair ',
      repairability_score: 7,
      source_revisionid: 12,
      documents: [3, { documentid: 4 }, 3],
      maintenance_schedule: [SCHEDULE],
      table_of_contents: true,
    });
    expect(page.state.details).toEqual({
      pageTitle: 'Phone Repair',
      repairabilityScore: 7,
      sourceRevisionid: 12,
      suppliers: [],
      documentIds: [3, 4],
      maintenanceSchedule: [
        {
          wiki_maintenance_scheduleid: 1,
          task: 'Replace the battery',
          status: 'active',
          triggers: [{ trigger_type: 'time', metric: 'age', unit: 'months', first_interval: 12, repeat_interval: 12, comparator: null, threshold: null }],
          guideid: null,
          parts: ['Battery'],
        },
      ],
      tableOfContents: true,
    });
    expect(create({ namespace: 'WIKI', title: 'Plain' }).state.details).toEqual(NO_DETAILS);
    expect(create({ namespace: 'ITEM', title: 'Battery', suppliers: [{ 'part_#': 'B-1', supplier: 'Parts Ltd', url: 'https://parts.example.com/b1' }] }).state.details.suppliers).toEqual([
      { 'part_#': 'B-1', type: '', supplier: 'Parts Ltd', url: 'https://parts.example.com/b1' },
    ]);
  });

  it('keep a schedule id sent back, number new schedules after the highest, and an identical edit is a no-op', () => {
    const page = create({ namespace: 'CATEGORY', title: 'Phone', maintenance_schedule: [SCHEDULE, { task: 'Clean the port' }] });
    page.markStored(10);
    page.edit(admin, { maintenance_schedule: [{ ...SCHEDULE, wiki_maintenance_scheduleid: 2 }, { task: 'New' }] }, undefined, T1);
    expect(page.state.details.maintenanceSchedule.map((s) => [s.wiki_maintenance_scheduleid, s.task])).toEqual([
      [2, 'Replace the battery'],
      [3, 'New'],
    ]);
    page.markStored(11);
    page.edit(admin, { maintenance_schedule: page.state.details.maintenanceSchedule, repairability_score: null, table_of_contents: false }, undefined, T1);
    expect(page.hasChanges).toBe(false);
    page.edit(admin, { page_title: 'Other' }, undefined, T1);
    expect(page.hasChanges).toBe(true);
    expect(page.state.details.maintenanceSchedule).toHaveLength(2);
  });

  it('refuse bad values, each with its field and row, and the fields of another namespace unless empty', () => {
    expect(
      problems(() =>
        create({
          namespace: 'WIKI',
          title: 'Bad',
          page_title: 5,
          repairability_score: 11,
          source_revisionid: -1,
          suppliers: [{ supplier: '' }, { supplier: 'x', url: 'javascript:alert(1)' }, { supplier: 'x', price: 3 }],
          documents: [0],
          maintenance_schedule: [{ task: '' }, { task: 'x', status: 'later' }, { task: 'x', triggers: [{ trigger_type: 'moon' }] }, { task: 'x', triggers: [{ trigger_type: 'usage', threshold: -1 }] }],
          table_of_contents: 'yes',
        }),
      ),
    ).toEqual([
      'page_title: page_title must be a string of at most 255 characters, or null',
      'repairability_score: repairability_score must be an integer from 0 to 10, or null',
      'repairability_score: repairability_score is for CATEGORY pages',
      'source_revisionid: source_revisionid must be a revision id or null',
      'suppliers[0]: supplier is required',
      'suppliers[1]: url must be an http(s) URL',
      "suppliers[2]: unknown field 'price'",
      'suppliers: suppliers is for ITEM pages',
      'documents: documents must be a list of at most 50 document ids (or {documentid} objects)',
      'documents: documents is for CATEGORY pages',
      'maintenance_schedule[0]: task is required: 1 to 255 characters',
      'maintenance_schedule[1]: status must be one of active, muted, archived, done',
      'maintenance_schedule[2]: trigger_type must be one of usage, time, condition',
      'maintenance_schedule[3]: first_interval, repeat_interval and threshold are numbers from 0 to 1000000000, or null',
      'maintenance_schedule: maintenance_schedule is for CATEGORY pages',
      'table_of_contents: table_of_contents must be true or false',
    ]);
    expect(problems(() => create({ namespace: 'WIKI', title: 'W', repairability_score: 3 }))).toEqual(['repairability_score: repairability_score is for CATEGORY pages']);
    // Empty values of another namespace's fields are accepted (a client sending every field).
    expect(create({ namespace: 'WIKI', title: 'W', repairability_score: null, suppliers: [], documents: [], maintenance_schedule: [] }).state.details).toEqual(NO_DETAILS);
    expect(problems(() => create({ namespace: 'CATEGORY', title: 'C', maintenance_schedule: Array.from({ length: 51 }, () => ({ task: 'x' })) }))).toEqual([
      'maintenance_schedule: maintenance_schedule must be a list of at most 50 items',
    ]);
  });

  it('title USER pages by a user id and TEAM pages by a team id', () => {
    expect(create({ namespace: 'USER', title: '42' }).state.title).toBe('42');
    expect(create({ namespace: 'TEAM', title: '3' }).state.title).toBe('3');
    expect(problems(() => create({ namespace: 'USER', title: 'alice' }))).toEqual(['title: a USER page is titled by the user id']);
    expect(problems(() => create({ namespace: 'TEAM', title: '0' }))).toEqual(['title: a TEAM page is titled by the team id']);
  });
});
