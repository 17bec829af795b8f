import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ABOUT_MAX_LENGTH, LOCATION_MAX_LENGTH, SUMMARY_MAX_LENGTH, USERNAME_MAX_LENGTH } from '@rc/identity-domain';
import { Allow, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

// Bounds here only stop absurd input early; the account rules themselves live in the domain.
// class-validator checks the decorator nearest the property first: the type comes first.

export class LoginRequestDto {
  @ApiProperty({ example: 'alice@example.com' })
  @MaxLength(1024)
  @IsString()
  email!: string;

  @ApiProperty({ example: 'alice-demo-password', format: 'password' })
  @MaxLength(4096)
  @IsString()
  password!: string;
}

export class RegisterRequestDto {
  @ApiProperty({ example: 'carol@example.com', maxLength: 254 })
  @MaxLength(1024)
  @IsString()
  email!: string;

  @ApiProperty({ example: 'Carol', description: 'Display name; an unusable one is replaced by one derived from the email' })
  @MaxLength(1024)
  @IsString()
  username!: string;

  @ApiProperty({ example: 'carol', description: '3 to 30 letters, digits, `_` or `-`; unique, case-insensitively' })
  @MaxLength(1024)
  @IsString()
  unique_username!: string;

  @ApiProperty({ example: 'a long enough password', minLength: 10, maxLength: 1024, format: 'password' })
  @MaxLength(4096)
  @IsString()
  password!: string;
}

export class ResetPasswordRequestDto {
  @ApiProperty({ example: 'alice@example.com' })
  @MaxLength(1024)
  @IsString()
  email!: string;
}

export class ConfirmResetRequestDto {
  @ApiProperty({ description: 'The code from the reset mail', example: 'the code from the mail' })
  @MaxLength(1024)
  @IsString()
  code!: string;

  @ApiProperty({ minLength: 10, maxLength: 1024, format: 'password', example: 'a new long enough password' })
  @MaxLength(4096)
  @IsString()
  password!: string;
}

export class ImpersonateRequestDto {
  @ApiProperty({ type: 'integer', minimum: 1, example: 2 })
  @Min(1)
  @Max(2_147_483_647)
  @IsInt()
  userid!: number;
}

/**
 * PATCH /user: any subset of the profile fields. `null` (or blank text) clears `about`,
 * `summary` and `location`. Any other field is a 422.
 */
export class ProfileEditRequestDto {
  @ApiPropertyOptional({ example: 'Alice Fixwell', maxLength: USERNAME_MAX_LENGTH, description: 'Display name: trimmed, white space folded' })
  @IsOptional()
  @MaxLength(4 * USERNAME_MAX_LENGTH)
  @IsString()
  username?: string;

  @ApiPropertyOptional({ example: "I fix '''phones''' and laptops.", maxLength: ABOUT_MAX_LENGTH, type: String, nullable: true, description: 'Wiki markup; shown as `about_raw` and `about_rendered`' })
  @IsOptional()
  @MaxLength(4 * ABOUT_MAX_LENGTH)
  @IsString()
  about?: string | null;

  @ApiPropertyOptional({ example: 'Phone repair enthusiast', maxLength: SUMMARY_MAX_LENGTH, type: String, nullable: true, description: 'Plain text, one line' })
  @IsOptional()
  @MaxLength(4 * SUMMARY_MAX_LENGTH)
  @IsString()
  summary?: string | null;

  @ApiPropertyOptional({ example: 'Lyon, France', maxLength: LOCATION_MAX_LENGTH, type: String, nullable: true, description: 'Plain text, one line' })
  @IsOptional()
  @MaxLength(4 * LOCATION_MAX_LENGTH)
  @IsString()
  location?: string | null;

  @ApiPropertyOptional({ example: 'fr', pattern: '^[a-z]{2}$', description: 'Preferred language: two lower-case letters' })
  @IsOptional()
  @MaxLength(16)
  @IsString()
  langid?: string;
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    nullable: true,
    example: null,
    description: 'The avatar: the id of an image of your library (or one shown by content you may view), or null for none; any other id is a 422',
  })
  @Allow()
  image?: number | null;
}
