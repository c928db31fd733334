/**
 * A refusal the specification names: `code` is its `error_code`. The HTTP layer owns
 * the one map from code to status (infra/http/errors.ts).
 */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly detail: Record<string, unknown> | null = null,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (code: string, what: string): DomainError => new DomainError(code, `${what} not found.`);
