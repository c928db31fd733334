import { expect } from 'chai';
import type { Decider, Message } from '../../domain/decider.js';
import { DomainError } from '../../domain/errors.js';

/** given(past events).when(command).then(new events) or .thenThrows(error code), as Emmett's DeciderSpecification. */
export function deciderSpec<S, C extends Message, E extends Message>(decider: Decider<S, C, E>) {
  return {
    given: (events: readonly E[]) => ({
      when: (command: C) => {
        const run = () => decider.decide(command, events.reduce(decider.evolve, decider.initialState()));
        return {
          then: (expected: readonly E[]) => expect(run()).to.deep.equal(expected),
          thenReturns: () => run(),
          thenThrows: (code: string, detail?: Record<string, unknown>) => {
            let thrown: unknown;
            try {
              run();
            } catch (error) {
              thrown = error;
            }
            expect(thrown, 'decide should refuse').to.be.instanceOf(DomainError);
            expect((thrown as DomainError).code).to.equal(code);
            if (detail) expect((thrown as DomainError).detail).to.deep.include(detail);
          },
        };
      },
    }),
  };
}
