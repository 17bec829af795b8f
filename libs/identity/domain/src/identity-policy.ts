/** The tunable rules of the identity context, with the defaults the service ships. */
export interface IdentityPolicy {
  /** `false`: only an Admin may register accounts. */
  readonly publicRegistration: boolean;
  readonly tokenTtlSeconds: number;
  /** Live tokens one user may hold; logging in beyond that revokes the oldest. */
  readonly maxTokensPerUser: number;
  readonly resetCodeTtlSeconds: number;
  /**
   * Attempts counted over a sliding window. Login failures are refused per email *and* client
   * address, so that failures from one address never lock the account for the others; the limit
   * per email alone is far higher, reached only by guesses spread over many addresses.
   */
  readonly throttle: {
    readonly windowSeconds: number;
    /** Login failures for one email from one client address (past it, even the right password from there is refused). */
    readonly loginFailuresPerEmailAndAddress: number;
    /** Login failures for one email from all addresses together. */
    readonly loginFailuresPerEmail: number;
    /** Login failures from one client address, whatever the emails. */
    readonly loginFailuresPerAddress: number;
    readonly resetRequestsPerEmail: number;
    readonly resetRequestsPerAddress: number;
    /** Registration requests from one client address (an Admin registering accounts is not counted). */
    readonly registrationsPerAddress: number;
  };
}

export const DEFAULT_IDENTITY_POLICY: IdentityPolicy = {
  publicRegistration: true,
  tokenTtlSeconds: 30 * 24 * 3600,
  maxTokensPerUser: 10,
  resetCodeTtlSeconds: 3600,
  throttle: {
    windowSeconds: 15 * 60,
    loginFailuresPerEmailAndAddress: 5,
    loginFailuresPerEmail: 100,
    loginFailuresPerAddress: 50,
    resetRequestsPerEmail: 3,
    resetRequestsPerAddress: 20,
    registrationsPerAddress: 10,
  },
};
