import { identityMigrations, identitySchemas } from '@rc/identity-infra-mikro-orm';

/** Every context's schemas and migrations: the one list the ORM, the CLI and the tests use. */
export const allSchemas = [...identitySchemas];
export const allMigrations = [...identityMigrations];
