import { ApiProperty } from '@nestjs/swagger';

/** The Team object (reference §3.14). */
export class TeamResponseDto {
  @ApiProperty({ type: 'integer' }) teamid!: number;
  @ApiProperty() name!: string;
  @ApiProperty({ description: 'User id of the owner' }) owner!: number;
  @ApiProperty({ description: "Sum of the active members' reputation, computed when read" }) reputation!: number;
  @ApiProperty({ type: 'string', nullable: true, enum: [null], example: null, description: 'Always null: teams have no image yet' }) image!: null;
  @ApiProperty({ format: 'uri', example: 'http://localhost:3000/Team/1/Fixers+Guild' }) url!: string;
  @ApiProperty() member_count!: number;
  @ApiProperty() description!: string;
  @ApiProperty({ description: 'UNIX seconds: when the newest member joined' }) new_member_since!: number;
}
