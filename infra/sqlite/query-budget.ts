/**
 * The condition every list and search statement holds first: `budget_left()`, which the query
 * threads answer with 1 until the task's deadline and then fail, ending the statement (a SQLite
 * statement cannot otherwise be interrupted through the driver). Other connections answer 1.
 */
export const BUDGET_CHECK = 'budget_left()';

export const BUDGET_EXCEEDED = 'query time budget exceeded';

