import type { Provider } from '@nestjs/common';

/** The process's pino logger, provided by the app to every context module. */
export const LOGGER = Symbol('Logger');

type Token<T> = abstract new (...args: never[]) => T;

/** A provider that builds an undecorated class (use case, adapter) from other providers. */
export function factory<T>(provide: Token<T>, build: (...deps: never[]) => T, inject: unknown[]): Provider {
  return { provide, inject: inject as Provider[] as never, useFactory: build };
}
