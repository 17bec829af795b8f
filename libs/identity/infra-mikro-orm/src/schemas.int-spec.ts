import { createTestOrm, schemaDrift, type TestOrm } from '@rc/shared-infra-mikro-orm/testing';
import { identityMigrations } from './migrations/index.js';
import { identitySchemas } from './schemas/identity.schemas.js';

describe('identity migrations', () => {
  let db: TestOrm;

  beforeAll(async () => {
    db = await createTestOrm({ entities: identitySchemas, migrations: identityMigrations });
  });

  afterAll(() => db.close());

  it('create every table and column the schemas map, with the mapped types', async () => {
    expect(await schemaDrift(db.orm)).toEqual([]);
  });
});
