/**
 * A refusal the specification names: `code` is its `error_code`. The HTTP layer owns
 * the one map from code to status (infra/http/errors.ts); `status` overrides it for the
 * one code the specification answers with two statuses (422 plan_limit_exceeded on a
 * resource create, docs/decisions/0031).
 */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly detail: Record<string, unknown> | null = null,
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const notFound = (code: string, what: string): DomainError => new DomainError(code, `${what} not found.`);

/**
 * 422: a schema-version or field request in the collection form (`collections/:key/model/...`)
 * names a component of the environment, which is not a collection (decision 0024).
 */
export const nonCollectionCannotHaveModel = (key: string): DomainError =>
  new DomainError(
    'non_collection_cannot_have_model',
    `${key} is a component, not a collection: its model is under components/${key}/model/versions/.`,
  );
