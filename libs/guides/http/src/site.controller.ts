import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiProperty, ApiPropertyOptional, ApiTags, getSchemaPath } from '@nestjs/swagger';
import { GUIDE_FLAGS, GUIDE_TYPES } from '@rc/guides-domain';
import type { Caller } from '@rc/identity-contracts';
import { CurrentPrincipal, Endpoint, PAGE_BAD_REQUEST, PageQuery } from '@rc/shared-http';
import { parsePage } from '@rc/shared-kernel';

/** What the site routes read of the service's configuration. */
export abstract class SiteSettings {
  abstract readonly publicBaseUrl: string;
  abstract readonly publicRegistration: boolean;
}

/** The guide types that prompt for a subject (the part replaced, installed, repaired or taken apart). */
const PROMPTS: Partial<Record<(typeof GUIDE_TYPES)[number], string>> = {
  replacement: 'What part are you replacing?',
  installation: 'What are you installing?',
  repair: 'What are you repairing?',
  disassembly: 'What are you taking apart?',
};

const capitalised = (type: string) => type.charAt(0).toUpperCase() + type.slice(1);

class GuideTypeResponseDto {
  @ApiProperty({ example: 'Replacement' }) title!: string;
  @ApiProperty({ description: 'The question asking for the subject; empty: the type has no subject', example: 'What part are you replacing?' }) prompt!: string;
}

class SiteAuthenticationResponseDto {
  @ApiProperty({ description: 'Email and password logins', example: true }) standard!: boolean;
  @ApiProperty({ description: 'Single sign-on: never here', example: false }) sso!: boolean;
  @ApiProperty({ description: 'Anyone may register (PUBLIC_REGISTRATION)', example: true }) 'public-registration'!: boolean;
}

/** The current site (the older clients' `/sites/info` and `/info`). */
export class SiteInfoResponseDto {
  @ApiProperty({ type: 'integer', example: 1 }) siteid!: number;
  @ApiProperty({ description: 'The host of the public base URL', example: 'localhost' }) name!: string;
  @ApiProperty({ example: 'localhost' }) domain!: string;
  @ApiProperty({ type: 'string', nullable: true, enum: [null], example: null }) custom_domain!: null;
  @ApiProperty({ example: 'Repair-Content API' }) title!: string;
  @ApiProperty({ example: 'custom' }) theme!: string;
  @ApiProperty({ example: false }) private!: boolean;
  @ApiProperty({ example: 'Repair guides and device pages.' }) description!: string;
  @ApiProperty({ description: 'Questions and answers: never here', example: false }) answers!: boolean;
  @ApiProperty({ description: 'A store: never here', example: false }) store!: boolean;
  @ApiProperty({ type: SiteAuthenticationResponseDto }) authentication!: SiteAuthenticationResponseDto;
  @ApiProperty({ type: 'object', additionalProperties: { $ref: getSchemaPath(GuideTypeResponseDto) }, description: 'Every guide type, keyed by its API name' })
  'guide-types'!: Record<string, GuideTypeResponseDto>;
  @ApiProperty({ example: 'Device' }) 'object-name-singular'!: string;
  @ApiProperty({ example: 'Devices' }) 'object-name-plural'!: string;
  @ApiProperty({ example: false }) 'feature-mobile-scanner'!: boolean;
  @ApiProperty({ type: 'string', nullable: true, enum: [null], example: null }) 'google-oauth2-clientid'!: null;
  @ApiProperty({ type: 'string', nullable: true, enum: [null], example: null, description: 'No logo is kept' }) logo!: null;
}

class FlagDefinitionResponseDto {
  @ApiProperty({ example: 'GUIDE_IN_PROGRESS' }) flagid!: string;
  @ApiProperty({ example: 'In Progress' }) title!: string;
  @ApiProperty({ example: 'This guide is a work in progress.' }) text!: string;
}

/** `GET /user/flags`: the guide flags the caller may set, by id. */
export class UserFlagsResponseDto {
  @ApiProperty({ type: 'object', additionalProperties: { $ref: getSchemaPath(FlagDefinitionResponseDto) }, description: 'Flag id → its definition' })
  guide!: Record<string, FlagDefinitionResponseDto>;
}

/** A featured collection of guides (none are kept here). */
export class CollectionResponseDto {
  @ApiProperty({ type: 'integer' }) collectionid!: number;
  @ApiProperty() title!: string;
  @ApiProperty({ description: 'UNIX seconds' }) date!: number;
  @ApiPropertyOptional({ type: 'string', nullable: true, enum: [null] }) image!: null;
  @ApiProperty({ type: 'array', items: { $ref: '#/components/schemas/GuideSummaryResponseDto' } }) guides!: unknown[];
}

/**
 * The site-wide reads older clients make before anything else: the site's settings (its guide
 * types above all), the guide flags a user may set, and featured collections of guides.
 */
@ApiTags('Site')
@ApiExtraModels(GuideTypeResponseDto, FlagDefinitionResponseDto)
@Controller()
export class SiteController {
  constructor(@Inject(SiteSettings) private readonly settings: SiteSettings) {}

  @Get('sites/info')
  @Endpoint({ summary: "The site's settings and guide types", description: 'Read by older mobile clients (also at `/info`).' })
  @ApiOkResponse({ type: SiteInfoResponseDto })
  siteInfo(): SiteInfoResponseDto {
    const host = new URL(this.settings.publicBaseUrl).hostname;
    return {
      siteid: 1,
      name: host,
      domain: host,
      custom_domain: null,
      title: 'Repair-Content API',
      theme: 'custom',
      private: false,
      description: 'Repair guides and device pages.',
      answers: false,
      store: false,
      authentication: { standard: true, sso: false, 'public-registration': this.settings.publicRegistration },
      'guide-types': Object.fromEntries(GUIDE_TYPES.map((type) => [type, { title: capitalised(type), prompt: PROMPTS[type] ?? '' }])),
      'object-name-singular': 'Device',
      'object-name-plural': 'Devices',
      'feature-mobile-scanner': false,
      'google-oauth2-clientid': null,
      logo: null,
    };
  }

  @Get('info')
  @Endpoint({ summary: "The site's settings (the same as /sites/info)" })
  @ApiOkResponse({ type: SiteInfoResponseDto })
  info(): SiteInfoResponseDto {
    return this.siteInfo();
  }

  @Get('user/flags')
  @Endpoint({ summary: 'The guide flags the caller may set', description: 'Admins may set every flag; others the flags that are not privileged.', token: true })
  @ApiOkResponse({ type: UserFlagsResponseDto })
  flags(@CurrentPrincipal() principal: Caller): UserFlagsResponseDto {
    const settable = GUIDE_FLAGS.filter((f) => principal.role === 'Admin' || !f.privileged);
    return { guide: Object.fromEntries(settable.map(({ flagid, title, text }) => [flagid, { flagid, title, text }])) };
  }

  @Get('collections')
  @Endpoint({ summary: 'Featured collections of guides', description: 'Always an empty list: this service keeps no collections. `limit` and `offset` are checked as on every list.', errors: [400], badRequest: PAGE_BAD_REQUEST })
  @ApiOkResponse({ type: CollectionResponseDto, isArray: true })
  @PageQuery()
  collections(@Query() query: Record<string, unknown>): CollectionResponseDto[] {
    parsePage(query);
    return [];
  }
}
