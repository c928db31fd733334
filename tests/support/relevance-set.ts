/**
 * A small relevance set for delivery search: documents, and queries with the document that
 * must rank in the top 3. `paraphrase` queries share no word with their target (checked by
 * the test), so only the vector side can find them.
 */
export const DOCUMENTS: Record<string, { title: string; body: string }> = {
  sourdough: { title: 'Baking sourdough bread', body: 'Feed the starter, knead the dough and bake a crusty loaf in a hot oven.' },
  bicycle: { title: 'Repairing a flat bicycle tyre', body: 'Remove the inner tube, find the puncture, patch it and pump the tyre up again.' },
  tomatoes: { title: 'Growing tomatoes', body: 'Plant seedlings in sunny soil, water them daily and tie the stems to stakes.' },
  puppy: { title: 'Training a puppy', body: 'Reward the young dog with treats when it sits, stays and comes when called.' },
  retirement: { title: 'Investing for retirement', body: 'Index funds and pensions grow savings over decades through compound interest.' },
  marathon: { title: 'Preparing for a marathon', body: 'Build weekly mileage slowly, do long runs on weekends and rest before the race.' },
  coffee: { title: 'Brewing espresso', body: 'Grind the beans finely, tamp the grounds and extract a shot with a crema.' },
  guitar: { title: 'Learning guitar chords', body: 'Practise finger positions for major and minor chords and strum slowly at first.' },
  sleep: { title: 'Sleeping better', body: 'Keep a regular bedtime, avoid screens at night and keep the bedroom dark and cool.' },
  python: { title: 'Writing Python scripts', body: 'Use functions, modules and virtual environments to organise the program code.' },
  paris: { title: 'A weekend in Paris', body: 'Visit the Louvre museum, climb the Eiffel Tower and eat croissants in a cafe.' },
  painting: { title: 'Painting a bedroom wall', body: 'Protect the floor, apply primer with a roller and add two coats of emulsion.' },
  vaccines: { title: 'How vaccines work', body: 'An injection teaches the immune system to recognise a virus and produce antibodies.' },
  chess: { title: 'Chess openings', body: 'Control the centre with pawns, develop knights and bishops, and castle early.' },
  sushi: { title: 'Making sushi at home', body: 'Season the rice with vinegar, slice raw fish and roll everything in seaweed.' },
  solar: { title: 'Installing solar panels', body: 'Roof panels turn sunlight into electricity and an inverter feeds the house.' },
};

export type RelevanceQuery = { readonly query: string; readonly target: string };

/** Queries that share words with their target: full text must find them. */
export const TEXT_QUERIES: readonly RelevanceQuery[] = [
  { query: 'sourdough loaf', target: 'sourdough' },
  { query: 'bicycle puncture', target: 'bicycle' },
  { query: 'espresso beans', target: 'coffee' },
  { query: 'guitar chords', target: 'guitar' },
  { query: 'Eiffel Tower', target: 'paris' },
  { query: 'solar electricity', target: 'solar' },
];

/** Paraphrases that share no word with their target. */
export const PARAPHRASE_QUERIES: readonly RelevanceQuery[] = [
  { query: 'mending punctured cycle wheels', target: 'bicycle' },
  { query: 'obedience lessons for pets', target: 'puppy' },
  { query: 'putting money aside in old age', target: 'retirement' },
  { query: 'jogging endurance competition', target: 'marathon' },
  { query: 'insomnia remedies', target: 'sleep' },
  { query: 'japanese cuisine recipe', target: 'sushi' },
  { query: 'immunisation against disease', target: 'vaccines' },
  { query: 'renewable energy for homes', target: 'solar' },
];
