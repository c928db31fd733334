/** API requests of an organization in a usage window (`YYYY-MM`), counted as they are answered. */
export interface RequestCounter {
  count(organization: string, window: string): number;
}
