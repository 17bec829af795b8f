import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { EditStory, ListStories, PostStory, ViewStory, type StoryId } from '@rc/community-domain';
import type { Caller } from '@rc/identity-contracts';
import { CurrentPrincipal, Endpoint, flag, IdParam, optionalId, order } from '@rc/shared-http';
import { parseId, parsePage } from '@rc/shared-kernel';
import type { Response } from 'express';
import { EditStoryDto, PostStoryDto, StoryResponseDto } from './dto/story.dto.js';
import { actorOf } from './comments.controller.js';
import { CommunityReader } from './community.presenter.js';

type Query = Record<string, unknown>;

/** At most this many stories a page (the original's maximum). */
export const STORIES_MAX_LIMIT = 50;

const last = (value: unknown): unknown => (Array.isArray(value) ? value[value.length - 1] : value);
const text = (query: Query, name: string): string | undefined => {
  const value = last(query[name]);
  return typeof value === 'string' && value ? value : undefined;
};
const storyIdOf = (raw: string) => parseId(raw) as StoryId | null;

const STORY = { description: 'The Story (reference §3.18)', type: StoryResponseDto };

@ApiTags('Stories')
@Controller('stories')
export class StoriesController {
  constructor(
    private readonly reader: CommunityReader,
    private readonly listStories: ListStories,
    private readonly viewStory: ViewStory,
    private readonly postStory: PostStory,
    private readonly editStory: EditStory,
  ) {}

  @Get()
  @Endpoint({
    summary: 'List stories',
    description:
      'Open stories by `storyid` (`order` ASC or DESC), paged with at most 50 a page (a larger `limit` is clamped). `product` keeps the stories that mention ' +
      'a product code, `guideid` those that mention a guide, `requireImages` (present, any value) those with images; `langid` puts stories in that language first.',
    errors: [400],
  })
  @ApiQuery({ name: 'product', required: false, type: String, example: 'IF145-307' }) @ApiQuery({ name: 'guideid', required: false, type: 'integer' })
  @ApiQuery({ name: 'requireImages', required: false, type: String, description: 'Presence flag' }) @ApiQuery({ name: 'langid', required: false, type: String, example: 'en' })
  @ApiQuery({ name: 'order', required: false, enum: ['ASC', 'DESC'] }) @ApiQuery({ name: 'limit', required: false, type: 'integer', description: '1 to 50 (default 20)' }) @ApiQuery({ name: 'offset', required: false, type: 'integer' })
  @ApiOkResponse({ ...STORY, isArray: true })
  async list(@Query() query: Query) {
    const filter = { order: order(query), product: text(query, 'product'), guideId: optionalId(query, 'guideid'), requireImages: flag(query, 'requireImages'), langid: text(query, 'langid') };
    return this.reader.stories(await this.listStories.execute({ filter, page: parsePage(query, STORIES_MAX_LIMIT) }));
  }

  @Get(':storyid')
  @IdParam('storyid', 'The story id')
  @Endpoint({ summary: 'A story', description: 'Only open stories (Admins see any).', errors: [404], notFound: 'Story not found' })
  @ApiOkResponse(STORY)
  async get(@Param('storyid') raw: string, @CurrentPrincipal() principal: Caller | null) {
    const [body] = await this.reader.stories([await this.viewStory.execute({ viewer: actorOf(principal), storyId: storyIdOf(raw) })]);
    return body;
  }

  @Post()
  @HttpCode(201)
  @Endpoint({
    summary: 'Post a story',
    description:
      'A repair story: `title`, `intro`, `body` and `conclusion` are required wiki markup (shown as safe HTML in the `_rendered` fields). `images` must be your own images of at ' +
      'least 800×600, `guides` public guides (422 otherwise). One story per user per minute: another one within the minute is a 429 whose body is your latest story, with Retry-After.',
    token: true,
    errors: [422],
  })
  @ApiBody({ type: PostStoryDto }) @ApiCreatedResponse(STORY)
  @ApiResponse({ status: 429, description: 'Posted less than a minute after your previous story: the body is that latest story (see Retry-After)', type: StoryResponseDto })
  async create(@Body() body: PostStoryDto, @CurrentPrincipal() principal: Caller, @Res({ passthrough: true }) res: Response) {
    const outcome = await this.postStory.execute({ actor: actorOf(principal)!, fields: body });
    const [story] = await this.reader.stories([outcome.created ? outcome.story : outcome.latest]);
    if (!outcome.created) {
      res.status(429);
      res.setHeader('Retry-After', String(outcome.retryAfterSeconds));
    }
    return story;
  }

  @Patch(':storyid')
  @IdParam('storyid', 'The story id')
  @Endpoint({
    summary: 'Edit a story',
    description: 'Any of the fields. Its author or an Admin; anyone else gets a 403, even for a story that does not exist (an Admin gets a 404 then). Images added must be the author\'s own, at least 800×600.',
    token: true,
    errors: [403, 404, 422],
    notFound: 'Story not found',
    forbidden: { message: 'Only the author of a story or an Admin may edit it', requiredPrivileges: ['Admin'] },
  })
  @ApiBody({ type: EditStoryDto }) @ApiOkResponse(STORY)
  async edit(@Param('storyid') raw: string, @Body() body: EditStoryDto, @CurrentPrincipal() principal: Caller) {
    const [story] = await this.reader.stories([await this.editStory.execute({ actor: actorOf(principal)!, storyId: storyIdOf(raw), fields: body })]);
    return story;
  }
}
