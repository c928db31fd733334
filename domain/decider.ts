/** A domain event or command: a readonly `{ type, data }` object. */
export type Message<Type extends string = string, Data = unknown> = { readonly type: Type; readonly data: Data };

/** An aggregate as three plain functions (Emmett's decider). */
export type Decider<State, Command extends Message, Event extends Message> = {
  readonly decide: (command: Command, state: State) => readonly Event[];
  readonly evolve: (state: State, event: Event) => State;
  /**
   * Optional: the same as folding `evolve` over `events`, for aggregates whose state is a large
   * record (a replay after a restart copies it once instead of once per event).
   */
  readonly evolveMany?: (state: State, events: readonly Event[]) => State;
  readonly initialState: () => State;
};

/** The state after `events`: `evolveMany` when the decider has it, else a fold of `evolve`. */
export const evolveAll = <S, C extends Message, E extends Message>(decider: Decider<S, C, E>, state: S, events: readonly E[]): S =>
  decider.evolveMany ? decider.evolveMany(state, events) : events.reduce(decider.evolve, state);
