import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';

// The class declares the body's types; only the field names are checked here (an unknown field is
// a 422): the teams domain checks the values, with one error per field. Until then the values are
// what the client sent.

/** POST /teams (an extension: the original API has no way to create a team). */
export class CreateTeamDto {
  @ApiProperty({ description: '1 to 255 characters, trimmed', example: 'Fixers Guild', type: String }) @Allow() name?: string;
  @ApiPropertyOptional({ description: 'Up to 2000 characters (default empty)', example: 'We repair phones on Saturdays.', type: String }) @Allow() description?: string;
  @ApiPropertyOptional({
    description: 'What others must send as `join_code` to join by themselves (1 to 64 characters); absent or null: anyone may join. Never shown in responses.',
    example: 'solder-2026',
    type: String,
    nullable: true,
  })
  @Allow()
  join_code?: string | null;
}
