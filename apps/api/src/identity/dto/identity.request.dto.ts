import { ApiProperty } from '@nestjs/swagger';
import { IsInt, IsString, Max, MaxLength, Min } from 'class-validator';

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
  @ApiProperty({ description: 'The code from the reset mail' })
  @MaxLength(1024)
  @IsString()
  code!: string;

  @ApiProperty({ minLength: 10, maxLength: 1024, format: 'password' })
  @MaxLength(4096)
  @IsString()
  password!: string;
}

export class ImpersonateRequestDto {
  @ApiProperty({ example: 2 })
  @Min(1)
  @Max(2_147_483_647)
  @IsInt()
  userid!: number;
}
