import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { INTEGRATION_EVENT_TYPES } from '@rc/shared-kernel';
import { Allow } from 'class-validator';

// The classes declare the bodies' types; only the field names are checked here (an unknown field
// is a 422): the webhooks domain checks the values, with one error per field.

const URL_DOC = 'Where events are POSTed: an http or https URL, at most 2048 characters, without credentials. A private or loopback address (or a name resolving to one) is refused.';
const EVENTS_DOC = 'The events to receive: one or more of the names listed.';

/** POST /webhooks. */
export class CreateWebhookDto {
  @ApiProperty({ description: URL_DOC, example: 'https://hooks.example.com/repair-content', type: String }) @Allow() url?: string;
  @ApiProperty({ description: EVENTS_DOC, example: ['guide.published', 'wiki.edited'], type: String, isArray: true, enum: INTEGRATION_EVENT_TYPES }) @Allow() events?: string[];
  @ApiPropertyOptional({ description: 'A note for administrators, at most 500 characters', example: 'Search index updater', type: String }) @Allow() description?: string;
  @ApiPropertyOptional({ description: 'Whether events are sent (default true)', example: true, type: Boolean }) @Allow() enabled?: boolean;
}

/** PATCH /webhooks/{webhookid}: the fields present change. */
export class UpdateWebhookDto {
  @ApiPropertyOptional({ description: URL_DOC, example: 'https://hooks.example.com/repair-content/v2', type: String }) @Allow() url?: string;
  @ApiPropertyOptional({ description: EVENTS_DOC, example: ['guide.published', 'guide.unpublished'], type: String, isArray: true, enum: INTEGRATION_EVENT_TYPES }) @Allow() events?: string[];
  @ApiPropertyOptional({ description: 'A note for administrators, at most 500 characters', example: 'Search index updater', type: String }) @Allow() description?: string;
  @ApiPropertyOptional({ description: 'Whether events are sent (false pauses: events published meanwhile are not sent)', example: true, type: Boolean }) @Allow() enabled?: boolean;
}

export class WebhookResponseDto {
  @ApiProperty({ type: 'integer', example: 1 }) webhookid!: number;
  @ApiProperty({ example: 'https://hooks.example.com/repair-content' }) url!: string;
  @ApiProperty({ example: ['guide.published', 'wiki.edited'], type: String, isArray: true, enum: INTEGRATION_EVENT_TYPES }) events!: string[];
  @ApiProperty({ example: 'Search index updater' }) description!: string;
  @ApiProperty({ example: true }) enabled!: boolean;
  @ApiProperty({ description: 'UNIX seconds', example: 1764151200 }) created_date!: number;
  @ApiProperty({ description: 'UNIX seconds', example: 1764151200 }) modified_date!: number;
}

export class CreatedWebhookResponseDto extends WebhookResponseDto {
  @ApiProperty({
    description: 'The signing secret (Standard Webhooks: `whsec_` and the base64 of the key). Shown here only: keep it.',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  secret!: string;
}

export class DeliveryResponseDto {
  @ApiProperty({ type: 'integer', example: 42 }) deliveryid!: number;
  @ApiProperty({ description: 'The `webhook-id` header of every attempt of this delivery: receivers drop repeats by it', example: '0f3c9c8e-3f1b-4a52-9a55-6b8f3f2f9c11', format: 'uuid' }) webhook_id!: string;
  @ApiProperty({ example: 'guide.published', enum: INTEGRATION_EVENT_TYPES }) event!: string;
  @ApiProperty({ description: 'What the event is about: events of one resource arrive in order', example: 'guide:12' }) resource!: string;
  @ApiProperty({ enum: ['pending', 'delivered', 'failed'], example: 'delivered', description: '`failed`: given up after the last retry (a day of attempts)' }) status!: string;
  @ApiProperty({ example: 1 }) attempts!: number;
  @ApiProperty({ description: 'UNIX seconds: when the next attempt is due (pending only)', example: null, type: Number, nullable: true }) next_attempt_date!: number | null;
  @ApiProperty({ description: 'UNIX seconds', example: 1764151201, type: Number, nullable: true }) last_attempt_date!: number | null;
  @ApiProperty({ description: "The target's status at the last attempt (null: no answer)", example: 200, type: Number, nullable: true }) last_response_status!: number | null;
  @ApiProperty({ description: 'Why the last attempt failed', example: null, type: String, nullable: true }) last_error!: string | null;
  @ApiProperty({ description: 'UNIX seconds', example: 1764151201, type: Number, nullable: true }) delivered_date!: number | null;
  @ApiProperty({ description: 'UNIX seconds', example: 1764151200 }) created_date!: number;
}
