import type { Usage } from '../../projections/usage.js';

/**
 * The billing guard's usage reads, kept until the usage projection commits its next batch
 * (docs/decisions/0270): the counters in the read store change only then, so every write of a
 * round reads the same documents. Before, each write queried and parsed its organization's
 * usage documents again (1.5% of the main thread with 32 writers).
 */
export class UsageMeter {
  private readonly kept = new Map<string, Promise<Readonly<Usage>>>();

  constructor(private readonly read: (organization: string, window: string) => Promise<Usage>) {}

  /** The usage of an organization in a window, as the read store held it after the last usage batch. */
  readonly of = (organization: string, window: string): Promise<Readonly<Usage>> => {
    const id = `${window} ${organization}`;
    let usage = this.kept.get(id);
    if (usage === undefined) {
      usage = this.read(organization, window).then((read) => Object.freeze({ ...read }));
      // A failed read is not kept: the next write reads again.
      usage.catch(() => {
        if (this.kept.get(id) === usage) this.kept.delete(id);
      });
      this.kept.set(id, usage);
    }
    return usage;
  };

  /** After each usage batch: the next reads see what it wrote. */
  forget(): void {
    this.kept.clear();
  }
}
