import type { LoggerService } from '@nestjs/common';
import { pino, type Logger } from 'pino';
import type { LogLevel } from './config/config.js';

/** One JSON line per event on stdout, with the process id (which worker, in cluster mode). */
export function createLogger(level: LogLevel): Logger {
  return pino({ level, base: { service: 'repair-content-api', pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime });
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
