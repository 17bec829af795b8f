import { ApiProperty } from '@nestjs/swagger';
import { BADGE_CATEGORIES, BADGE_TYPES } from '@rc/reputation-domain';

export class BadgeResponseDto {
  @ApiProperty({ type: 'integer', example: 1 }) badgeid!: number;
  @ApiProperty({ example: 'Author' }) name!: string;
  @ApiProperty({ enum: BADGE_TYPES }) type!: string;
  @ApiProperty({ enum: BADGE_CATEGORIES }) category!: string;
  @ApiProperty({ example: 'Published a first guide.' }) description!: string;
  @ApiProperty({ description: 'Can be earned more than once (once per guide)' }) multiple!: boolean;
  @ApiProperty({ description: 'How many users hold it' }) num_users!: number;
  @ApiProperty({ nullable: true, type: String, example: 'fa-pencil', description: 'Font Awesome class' }) icon!: string | null;
  @ApiProperty({ description: 'Image URL, or an empty string' }) image!: string;
  @ApiProperty({ example: '#cd7f32' }) secondary_color!: string;
}

/** A BadgeList item (reference §3.15). */
export class BadgeListItemResponseDto {
  @ApiProperty() earned!: boolean;
  @ApiProperty() times_earned!: number;
  @ApiProperty({ nullable: true, type: Number, description: 'UNIX seconds of the latest award, or null' }) date!: number | null;
  @ApiProperty({ type: BadgeResponseDto }) badge!: BadgeResponseDto;
}
