import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';

// Field names are checked here (an unknown field is a 422); the catalog domain checks the values.

export class WikiEditDto {
  @ApiPropertyOptional({ description: 'Wiki markup (write name; reads show contents_raw/contents_rendered)' }) @Allow() contents?: unknown;
  @ApiPropertyOptional() @Allow() display_title?: unknown;
  @ApiPropertyOptional() @Allow() description?: unknown;
  @ApiPropertyOptional({ type: Number, nullable: true }) @Allow() image?: unknown;
  @ApiPropertyOptional({ type: [String] }) @Allow() flags?: unknown;
  @ApiPropertyOptional({ description: '[{name, value}] info box rows', type: 'array', items: { type: 'object' } }) @Allow() info?: unknown;
  @ApiPropertyOptional({ description: 'CATEGORY only: the parent category title (null = a root). Moves that would make a cycle are refused.', type: String, nullable: true })
  @Allow()
  parent?: unknown;
  @ApiPropertyOptional({
    description:
      'Related pages (read back as related_wikis), a full replacement: at most 50 titles of pages of the same namespace, or {namespace, title} objects; each newly named page must exist. null or [] clears them.',
    type: 'array',
    items: { oneOf: [{ type: 'string' }, { type: 'object', properties: { namespace: { type: 'string', enum: ['CATEGORY', 'WIKI', 'INFO', 'ITEM'] }, title: { type: 'string' } } }] },
    nullable: true,
  })
  @Allow()
  related?: unknown;
}

export class WikiCreateDto extends WikiEditDto {
  @ApiPropertyOptional({ enum: ['CATEGORY', 'WIKI', 'INFO', 'ITEM'] }) @Allow() namespace?: unknown;
  @ApiPropertyOptional({ example: 'iPhone 13' }) @Allow() title?: unknown;
}

export class WikiTagDto {
  @ApiPropertyOptional({ example: 'battery' }) @Allow() tag?: unknown;
}
