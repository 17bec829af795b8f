import { isDatabaseUnavailable } from './database-unavailable.js';
import { isReplicaUnavailable } from './read-replicas.js';

const withCode = (code: string, message = 'failed'): Error => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it.each(['08006', '08001', '57P01', '57P02', '57P03', '53300'])('knows SQLSTATE %s as unavailable', (code) => {
    expect(isDatabaseUnavailable(withCode(code))).toBe(true);
  });

  it.each(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND'])('knows the socket error %s as unavailable', (code) => {
    expect(isDatabaseUnavailable(withCode(code))).toBe(true);
  });

  it('knows node-postgres errors without a code by their message', () => {
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
  });

  it('finds the cause in wrapped and aggregated errors', () => {
    expect(isDatabaseUnavailable(new Error('query failed', { cause: withCode('57P01') }))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([new Error('a'), withCode('ECONNREFUSED')]))).toBe(true);
  });

  it('does not take a refused statement, or a message quoting input under an SQLSTATE, for an outage', () => {
    expect(isDatabaseUnavailable(withCode('23505', 'duplicate key'))).toBe(false);
    expect(isDatabaseUnavailable(withCode('22P02', 'invalid input: "Connection terminated"'))).toBe(false);
    expect(isDatabaseUnavailable(withCode('40001'))).toBe(false);
    expect(isDatabaseUnavailable(new Error('bug'))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });

  it('stops on a cycle of causes', () => {
    const a = new Error('a') as Error & { cause?: unknown };
    a.cause = a;
    expect(isDatabaseUnavailable(a)).toBe(false);
  });
});

describe('isReplicaUnavailable', () => {
  it('is everything that makes a database unavailable', () => {
    expect(isReplicaUnavailable(withCode('57P03'))).toBe(true);
    expect(isReplicaUnavailable(new Error('Client was closed and is not queryable'))).toBe(true);
  });

  it('adds a conflict with recovery, which only a standby reports for a read', () => {
    expect(isReplicaUnavailable(withCode('40001', 'canceling statement due to conflict with recovery'))).toBe(true);
    expect(isReplicaUnavailable(new Error('wrapped', { cause: withCode('40P01') }))).toBe(true);
  });

  it('leaves a statement error to its caller', () => {
    expect(isReplicaUnavailable(withCode('42P01', 'relation does not exist'))).toBe(false);
    expect(isReplicaUnavailable(withCode('25006'))).toBe(false);
  });
});
