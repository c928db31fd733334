/** A domain event or command: a readonly `{ type, data }` object. */
export type Message<Type extends string = string, Data = unknown> = { readonly type: Type; readonly data: Data };

/** An aggregate as three plain functions (Emmett's decider). */
export type Decider<State, Command extends Message, Event extends Message> = {
  readonly decide: (command: Command, state: State) => readonly Event[];
  readonly evolve: (state: State, event: Event) => State;
  readonly initialState: () => State;
};
