import { ApiProperty } from '@nestjs/swagger';
import { IsInt, IsString, Max, MaxLength, Min } from 'class-validator';

// Bounds here only stop absurd input early; the account rules themselves live in the domain.

export class LoginRequestDto {
  @ApiProperty({ example: 'alice@example.com' })
  @IsString()
  @MaxLength(1024)
  email!: string;

  @ApiProperty({ example: 'alice-demo-password', format: 'password' })
  @IsString()
  @MaxLength(4096)
  password!: string;
}

export class RegisterRequestDto {
  @ApiProperty({ example: 'carol@example.com', maxLength: 254 })
  @IsString()
  @MaxLength(1024)
  email!: string;

  @ApiProperty({ example: 'Carol', description: 'Display name; an unusable one is replaced by one derived from the email' })
  @IsString()
  @MaxLength(1024)
  username!: string;

  @ApiProperty({ example: 'carol', description: '3 to 30 letters, digits, `_` or `-`; unique, case-insensitively' })
  @IsString()
  @MaxLength(1024)
  unique_username!: string;

  @ApiProperty({ example: 'a long enough password', minLength: 10, maxLength: 1024, format: 'password' })
  @IsString()
  @MaxLength(4096)
  password!: string;
}

export class ResetPasswordRequestDto {
  @ApiProperty({ example: 'alice@example.com' })
  @IsString()
  @MaxLength(1024)
  email!: string;
}

export class ConfirmResetRequestDto {
  @ApiProperty({ description: 'The code from the reset mail' })
  @IsString()
  @MaxLength(1024)
  code!: string;

  @ApiProperty({ minLength: 10, maxLength: 1024, format: 'password' })
  @IsString()
  @MaxLength(4096)
  password!: string;
}

export class ImpersonateRequestDto {
  @ApiProperty({ example: 2 })
  @IsInt()
  @Min(1)
  @Max(2_147_483_647)
  userid!: number;
}
