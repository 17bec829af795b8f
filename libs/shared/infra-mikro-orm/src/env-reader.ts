// Reading configuration from environment variables, shared by the API and the contexts whose adapters take settings.
/** Configuration as the environment gives it: names to raw text. */
export type Env = Record<string, string | undefined>;

/** Reads typed values from an environment, collecting what is wrong in `problems` (a start reports them all at once). */
export interface EnvReader {
  /** The trimmed value; `undefined` when unset or blank. */
  read(name: string): string | undefined;
  /** A whole number from `min` to `max`; the fallback when unset (or wrong, after noting it). */
  int(name: string, fallback: number, min: number, max: number): number;
  /** `true|1|yes|on` or `false|0|no|off`, any case. */
  bool(name: string, fallback: boolean): boolean;
  /** A URL with one of these protocols (e.g. `https:`), as given; `null` when unset or wrong. */
  url(name: string, protocols: readonly string[]): string | null;
}

export function envReader(env: Env, problems: string[]): EnvReader {
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value ? value : undefined;
  };
  return {
    read,
    int(name, fallback, min, max) {
      const raw = read(name);
      if (raw === undefined) return fallback;
      if (!/^[0-9]+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
        problems.push(`${name} must be an integer from ${min} to ${max} (got '${raw}')`);
        return fallback;
      }
      return Number(raw);
    },
    bool(name, fallback) {
      const raw = read(name)?.toLowerCase();
      if (raw === undefined) return fallback;
      if (['true', '1', 'yes', 'on'].includes(raw)) return true;
      if (['false', '0', 'no', 'off'].includes(raw)) return false;
      problems.push(`${name} must be true or false (got '${raw}')`);
      return fallback;
    },
    url(name, protocols) {
      const raw = read(name);
      if (raw === undefined) return null;
      try {
        if (!protocols.includes(new URL(raw).protocol)) throw new Error('protocol');
        return raw;
      } catch {
        problems.push(`${name} must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`);
        return null;
      }
    },
  };
}
