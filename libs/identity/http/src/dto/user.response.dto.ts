import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ImageResponseDto } from '@rc/shared-http';

export class BadgeCountsDto {
  @ApiProperty() bronze!: number;
  @ApiProperty() silver!: number;
  @ApiProperty() gold!: number;
  @ApiProperty() total!: number;
}

export class UserLinksDto {
  @ApiPropertyOptional({ example: '/Manage', description: 'Only for viewers allowed to manage the site' })
  manage?: string;
}

/** UserInfo (reference §3.3). */
export class UserResponseDto {
  @ApiProperty({ type: 'integer', example: 1 }) userid!: number;
  @ApiProperty({ example: 'Alice Fixwell' }) username!: string;
  @ApiProperty({ example: 'alice', nullable: true, type: String }) unique_username!: string | null;
  @ApiProperty({ example: 1767225600, description: 'UNIX seconds' }) join_date!: number;
  @ApiProperty({ type: ImageResponseDto, nullable: true, description: 'The avatar' }) image!: ImageResponseDto | null;
  @ApiProperty({ example: 0 }) reputation!: number;
  @ApiProperty({ type: [Number] }) teams!: number[];
  @ApiProperty({ type: [String], example: ['User'] }) privileges!: string[];
  @ApiProperty({ example: 'User' }) greatest_privilege!: string;
  @ApiProperty() certification_count!: number;
  @ApiProperty({ type: BadgeCountsDto }) badge_counts!: BadgeCountsDto;
  @ApiProperty({ nullable: true, type: String }) summary!: string | null;
  @ApiProperty({ description: 'Wiki markup, or false when empty', oneOf: [{ type: 'string' }, { type: 'boolean', enum: [false] }] })
  about_raw!: string | false;
  @ApiProperty({ description: 'HTML, or false when empty', oneOf: [{ type: 'string' }, { type: 'boolean', enum: [false] }] })
  about_rendered!: string | false;
  @ApiProperty({ nullable: true, type: String }) location!: string | null;
  @ApiProperty({ example: 'en' }) langid!: string;
  @ApiPropertyOptional({ type: UserLinksDto, description: 'Only when the viewer is this user' }) links?: UserLinksDto;
  @ApiPropertyOptional({ description: 'Only when the viewer is this user' }) unread_notification_count?: number;
}

export class AuthenticatedUserResponseDto extends UserResponseDto {
  @ApiProperty({ description: 'Send as `Authorization: api <authToken>`' }) authToken!: string;
}

export class MessageResponseDto {
  @ApiProperty() message!: string;
}
