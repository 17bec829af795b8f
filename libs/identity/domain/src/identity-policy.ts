/** The tunable rules of the identity context, with the defaults the service ships. */
export interface IdentityPolicy {
  /** `false`: only an Admin may register accounts. */
  readonly publicRegistration: boolean;
  readonly tokenTtlSeconds: number;
  /** Live tokens one user may hold; logging in beyond that revokes the oldest. */
  readonly maxTokensPerUser: number;
  readonly resetCodeTtlSeconds: number;
  /** Attempts counted over a sliding window, per email address and per client address. */
  readonly throttle: {
    readonly windowSeconds: number;
    readonly loginFailuresPerEmail: number;
    readonly loginFailuresPerAddress: number;
    readonly resetRequestsPerEmail: number;
    readonly resetRequestsPerAddress: number;
  };
}

export const DEFAULT_IDENTITY_POLICY: IdentityPolicy = {
  publicRegistration: true,
  tokenTtlSeconds: 30 * 24 * 3600,
  maxTokensPerUser: 10,
  resetCodeTtlSeconds: 3600,
  throttle: {
    windowSeconds: 15 * 60,
    loginFailuresPerEmail: 5,
    loginFailuresPerAddress: 50,
    resetRequestsPerEmail: 3,
    resetRequestsPerAddress: 20,
  },
};
