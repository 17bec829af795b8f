import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiQuery, ApiTags } from '@nestjs/swagger';
import { parseId, parsePage } from '@rc/shared-kernel';
import { Endpoint, IdParam, PAGE_BAD_REQUEST } from '@rc/shared-http';
import {
  ChangeSubscription,
  DeleteSubscription,
  GetSubscription,
  ListDeliveries,
  ListSubscriptions,
  RegisterSubscription,
  RetryDelivery,
  SubscriptionNotFoundError,
} from '@rc/webhooks-domain';
import { CreatedWebhookResponseDto, CreateWebhookDto, DeliveryResponseDto, UpdateWebhookDto, WebhookResponseDto } from './dto/webhook.dto.js';
import { presentDelivery, presentWebhook } from './webhook.presenter.js';

/** A path id that is not a positive integer names no webhook. */
function webhookIdOf(raw: string): number {
  const id = parseId(raw);
  if (id === null) throw new SubscriptionNotFoundError();
  return id;
}

const NOT_FOUND = 'Webhook not found';
const SIGNED =
  'Each event is POSTed as JSON `{type, timestamp, data}` with the Standard Webhooks headers `webhook-id` (the delivery\'s `webhook_id`), `webhook-timestamp` (UNIX seconds) and ' +
  '`webhook-signature` (`v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` under the secret). ';

@ApiTags('Webhooks')
@Controller('webhooks')
export class WebhooksController {
  constructor(
    private readonly register: RegisterSubscription,
    private readonly listAll: ListSubscriptions,
    private readonly getOne: GetSubscription,
    private readonly change: ChangeSubscription,
    private readonly remove: DeleteSubscription,
    private readonly deliveries: ListDeliveries,
    private readonly retryOne: RetryDelivery,
  ) {}

  @Post()
  @HttpCode(201)
  @Endpoint({
    summary: 'Subscribe to events (Admin; an extension)',
    description: SIGNED + 'The answer carries the signing secret, shown this once. Delivery is at least once, in order per resource, retried with backoff for a day.',
    admin: true,
    errors: [422],
  })
  @ApiBody({ type: CreateWebhookDto }) @ApiCreatedResponse({ description: 'The subscription, with its secret', type: CreatedWebhookResponseDto })
  async create(@Body() body: CreateWebhookDto) {
    const s = await this.register.execute(body);
    return { ...presentWebhook(s), secret: s.state.secret };
  }

  @Get()
  @Endpoint({ summary: 'The subscriptions (Admin)', description: 'Every subscription by id, without secrets.', admin: true })
  @ApiOkResponse({ type: WebhookResponseDto, isArray: true })
  async list() {
    return (await this.listAll.execute()).map(presentWebhook);
  }

  @Get(':webhookid')
  @IdParam('webhookid', 'The webhook id')
  @Endpoint({ summary: 'A subscription (Admin)', admin: true, errors: [404], notFound: NOT_FOUND })
  @ApiOkResponse({ type: WebhookResponseDto })
  async one(@Param('webhookid') raw: string) {
    return presentWebhook(await this.getOne.execute(webhookIdOf(raw)));
  }

  @Patch(':webhookid')
  @IdParam('webhookid', 'The webhook id')
  @Endpoint({ summary: 'Change a subscription (Admin)', description: 'The fields present change; the secret stays.', admin: true, errors: [404, 422], notFound: NOT_FOUND })
  @ApiBody({ type: UpdateWebhookDto }) @ApiOkResponse({ type: WebhookResponseDto })
  async update(@Param('webhookid') raw: string, @Body() body: UpdateWebhookDto) {
    return presentWebhook(await this.change.execute(webhookIdOf(raw), body));
  }

  @Delete(':webhookid')
  @IdParam('webhookid', 'The webhook id')
  @HttpCode(204)
  @Endpoint({ summary: 'Delete a subscription (Admin)', description: 'Its pending deliveries are dropped.', admin: true, errors: [404], notFound: NOT_FOUND })
  @ApiNoContentResponse({ description: 'Deleted' })
  async delete(@Param('webhookid') raw: string): Promise<void> {
    await this.remove.execute(webhookIdOf(raw));
  }

  @Get(':webhookid/deliveries')
  @IdParam('webhookid', 'The webhook id')
  @Endpoint({ summary: "A subscription's deliveries (Admin)", description: 'Newest event first, paged.', admin: true, errors: [400, 404], notFound: NOT_FOUND, badRequest: PAGE_BAD_REQUEST })
  @ApiQuery({ name: 'limit', required: false, type: 'integer' }) @ApiQuery({ name: 'offset', required: false, type: 'integer' })
  @ApiOkResponse({ type: DeliveryResponseDto, isArray: true })
  async listDeliveries(@Param('webhookid') raw: string, @Query() query: Record<string, unknown>) {
    const id = webhookIdOf(raw);
    const page = parsePage(query);
    return (await this.deliveries.execute(id, page.limit, page.offset)).map(presentDelivery);
  }

  @Post(':webhookid/deliveries/:deliveryid/retry')
  @IdParam('webhookid', 'The webhook id')
  @IdParam('deliveryid', 'The delivery id')
  @HttpCode(200)
  @Endpoint({
    summary: 'Send a delivery again (Admin)',
    description: 'Makes it pending and due now, with its attempts counted afresh (a given-up one too); it is sent in its place in its resource\'s order.',
    admin: true,
    errors: [404],
    notFound: NOT_FOUND,
  })
  @ApiOkResponse({ type: DeliveryResponseDto })
  async retry(@Param('webhookid') raw: string, @Param('deliveryid') deliveryId: string) {
    return presentDelivery(await this.retryOne.execute(webhookIdOf(raw), deliveryId));
  }
}
