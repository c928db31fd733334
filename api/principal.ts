/** The authenticated caller, set by the management authentication middleware. */
export type Principal = {
  readonly actor_type: 'user' | 'apikey';
  readonly actor: Readonly<Record<string, unknown>>;
  readonly organization: string;
  readonly is_admin: boolean;
  /** An API key works in its own environment only. */
  readonly environment: string | null;
};
