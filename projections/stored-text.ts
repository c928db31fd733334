/**
 * The JSON text of a document's payload as the delivery index returned it, carried beside the
 * document (docs/decisions/0235): a list answer that serves the payload unchanged splices this
 * text into the page instead of parsing and serializing it again. Not an enumerable property,
 * so the document compares, copies and serializes as before.
 */
const STORED_TEXT = Symbol('stored payload text');

export function withStoredText<T extends object>(doc: T, text: string): T {
  Object.defineProperty(doc, STORED_TEXT, { value: text });
  return doc;
}

/** The payload's stored JSON text, when the adapter that read the document carried it. */
export function storedText(doc: object): string | undefined {
  return (doc as { [STORED_TEXT]?: string })[STORED_TEXT];
}
