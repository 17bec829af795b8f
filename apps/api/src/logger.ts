import type { LoggerService } from '@nestjs/common';
import { pino, type DestinationStream, type Logger } from 'pino';
import type { LogLevel } from './config/config.js';
import { REDACTION, requestIdMixin } from '@rc/shared-ops';

/**
 * One JSON line per event on stdout (or `destination`), with the process id (which worker, in
 * cluster mode), the id of the request being handled, and credentials redacted.
 */
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  const options = { level, base: { service: 'repair-content-api', pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime, mixin: requestIdMixin, redact: REDACTION };
  return destination ? pino(options, destination) : pino(options);
}

/** Nest's own messages (start-up, route mapping, errors) go through the same logger. */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string): void {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string): void {
    this.logger.trace({ context }, String(message));
  }
}
