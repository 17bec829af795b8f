import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class ErrorResponseDto {
  @ApiProperty({ example: true, enum: [true] })
  error!: true;

  @ApiProperty({ example: 'Not found' })
  message!: string;

  @ApiPropertyOptional({ type: [String], example: ['Admin'], description: 'On 403: privileges that would allow the request' })
  requiredPrivileges?: string[];
}

export class FieldErrorDto {
  @ApiProperty({ example: 'email' })
  field!: string;

  @ApiProperty({ example: 'Email address is not valid' })
  message!: string;

  @ApiPropertyOptional({ example: 0, description: 'Position of the failing item (step, line) when the field is a list' })
  index?: number;
}

export class ValidationErrorResponseDto extends ErrorResponseDto {
  @ApiProperty({ type: [FieldErrorDto] })
  errors!: FieldErrorDto[];
}
