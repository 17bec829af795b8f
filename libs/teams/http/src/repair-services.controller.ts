import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiProperty, ApiPropertyOptional, ApiTags } from '@nestjs/swagger';
import { Allow } from 'class-validator';
import { WikiDirectory } from '@rc/catalog-contracts';
import type { Caller } from '@rc/identity-contracts';
import { CurrentPrincipal, Endpoint, IdParam } from '@rc/shared-http';
import { parseId } from '@rc/shared-kernel';
import { RepairServiceNotFoundError, RepairServicePages, TeamRepairServices } from '@rc/teams-domain';
import { actorOf, teamIdOf } from './teams.controller.js';

export class RepairServiceDto {
  @ApiPropertyOptional({ type: 'integer', minimum: 1, description: 'The id of a wiki page (required)', example: 1 }) @Allow() wikiid?: number;
}

export class RepairServiceOrderDto {
  @ApiPropertyOptional({ type: 'array', items: { type: 'integer', minimum: 1 }, description: "Every one of the team's repair services, in the new order (required)", example: [1] }) @Allow() wikiids?: number[];
}

export class RepairServiceResponseDto {
  @ApiProperty({ type: 'integer', example: 1 }) wikiid!: number;
  @ApiProperty({ example: 'Phone' }) displayTitle!: string;
  @ApiProperty({ format: 'uri', example: 'http://localhost:3000/Device/Phone' }) url!: string;
}

/** The teams' RepairServicePages port, answered by the catalog's published directory. */
export class CatalogRepairServicePages extends RepairServicePages {
  constructor(private readonly wikis: WikiDirectory) {
    super();
  }

  async existing(ids: readonly number[]): Promise<Set<number>> {
    return new Set((await this.wikis.byIds(ids)).keys());
  }
}

const LIST = { description: 'The repair services in the team\'s order (pages deleted since are left out)', type: RepairServiceResponseDto, isArray: true };
const NOT_FOUND = 'Team not found';
/** The 403 of a change to the list by someone else than the team's owner or an Admin. */
const MANAGE = 'Only the team owner or an Admin may change its repair services';

/** A team's repair services: wiki pages the team lists, in its order. */
@ApiTags('Teams')
@Controller('teams/:teamid/repair_services')
export class RepairServicesController {
  constructor(
    private readonly services: TeamRepairServices,
    private readonly wikis: WikiDirectory,
  ) {}

  @Get()
  @IdParam('teamid', 'The team id')
  @Endpoint({ summary: "A team's repair services (its members, Admin)", token: true, errors: [403, 404], notFound: NOT_FOUND, forbidden: 'Only the team members or an Admin may see its repair services' })
  @ApiOkResponse(LIST)
  async list(@Param('teamid') raw: string, @CurrentPrincipal() principal: Caller) {
    return this.present(await this.services.list(actorOf(principal), teamIdOf(raw)));
  }

  @Post()
  @HttpCode(200)
  @IdParam('teamid', 'The team id')
  @Endpoint({ summary: 'Add a repair service (team owner, Admin)', description: 'Appended; a page already listed stays where it is. An unknown page is a 422.', token: true, errors: [403, 404, 422], forbidden: MANAGE, notFound: NOT_FOUND })
  @ApiBody({ type: RepairServiceDto }) @ApiOkResponse(LIST)
  async add(@Param('teamid') raw: string, @Body() body: RepairServiceDto, @CurrentPrincipal() principal: Caller) {
    return this.present(await this.services.change(actorOf(principal), teamIdOf(raw), { add: body.wikiid }));
  }

  @Put()
  @IdParam('teamid', 'The team id')
  @Endpoint({ summary: 'Reorder the repair services (team owner, Admin)', description: "`wikiids` lists each of the team's repair services once (422 otherwise).", token: true, errors: [403, 404, 422], forbidden: MANAGE, notFound: NOT_FOUND })
  @ApiBody({ type: RepairServiceOrderDto }) @ApiOkResponse(LIST)
  async reorder(@Param('teamid') raw: string, @Body() body: RepairServiceOrderDto, @CurrentPrincipal() principal: Caller) {
    return this.present(await this.services.change(actorOf(principal), teamIdOf(raw), { reorder: body.wikiids }));
  }

  @Delete(':wikiid')
  @IdParam('teamid', 'The team id')
  @IdParam('wikiid', 'The wiki page id')
  @Endpoint({ summary: 'Remove a repair service (team owner, Admin)', token: true, errors: [403, 404], notFound: 'Repair service not found', forbidden: MANAGE })
  @ApiOkResponse(LIST)
  async remove(@Param('teamid') raw: string, @Param('wikiid') rawWiki: string, @CurrentPrincipal() principal: Caller) {
    const teamId = teamIdOf(raw);
    const wikiId = parseId(rawWiki);
    if (wikiId === null) throw new RepairServiceNotFoundError();
    return this.present(await this.services.change(actorOf(principal), teamId, { remove: wikiId }));
  }

  private async present(ids: readonly number[]): Promise<RepairServiceResponseDto[]> {
    const pages = await this.wikis.byIds(ids);
    return ids.flatMap((id) => {
      const page = pages.get(id);
      return page ? [{ wikiid: id, displayTitle: page.displayTitle, url: page.url }] : [];
    });
  }
}
