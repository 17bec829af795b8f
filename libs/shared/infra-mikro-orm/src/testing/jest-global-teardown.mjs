const KEY = Symbol.for('rc.test-postgres');

export default async function globalTeardown() {
  const running = globalThis[KEY];
  globalThis[KEY] = undefined;
  if (running && running !== 'external') {
    delete process.env.DATABASE_URL;
    await running.stop();
  }
}
