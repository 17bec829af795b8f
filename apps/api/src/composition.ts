import { catalogMigrations, catalogSchemas } from '@rc/catalog-infra-mikro-orm';
import { communityMigrations, communitySchemas } from '@rc/community-infra-mikro-orm';
import { guidesMigrations, guidesSchemas } from '@rc/guides-infra-mikro-orm';
import { identityMigrations, identitySchemas } from '@rc/identity-infra-mikro-orm';
import { mediaMigrations, mediaSchemas } from '@rc/media-infra-mikro-orm';
import { reputationMigrations, reputationSchemas } from '@rc/reputation-infra-mikro-orm';
import { teamsMigrations, teamsSchemas } from '@rc/teams-infra-mikro-orm';
import { webhooksMigrations, webhooksSchemas } from '@rc/webhooks-infra-mikro-orm';
import { ProvisioningMarks } from '@rc/demo-data';

/** Every context's schemas and migrations (and the app's own provisioning marks): the one list the ORM, the CLI and the tests use. */
export const allSchemas = [...identitySchemas, ...catalogSchemas, ...guidesSchemas, ...reputationSchemas, ...teamsSchemas, ...mediaSchemas, ...communitySchemas, ...webhooksSchemas];
export const allMigrations = [...identityMigrations, ...catalogMigrations, ...guidesMigrations, ...reputationMigrations, ...teamsMigrations, ...mediaMigrations, ...communityMigrations, ...webhooksMigrations, { name: '20261126100000-provisioning-marks', class: ProvisioningMarks }];
