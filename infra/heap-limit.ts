/**
 * The V8 flag every start of the service passes (`npm start`, the container's NODE_OPTIONS, the
 * benchmark's service): a 1 GiB old space. V8 scales how far it lets the heap grow past its
 * live size between full collections with this limit (up to 4 times on a machine with much
 * memory, about 1.6 times at 1 GiB), so the service's peak follows its live data instead of
 * the machine's size (docs/decisions/0220). V8 reads it only when the process starts.
 */
export const HEAP_LIMIT_MB = 1024;
export const HEAP_LIMIT_FLAG = `--max-old-space-size=${HEAP_LIMIT_MB}`;

/**
 * The most each of V8's two young-generation semi-spaces may grow to, in MB: twice Node 20's
 * default of 16. A create allocates about 110 KB that mostly dies young; with 32 writers in
 * flight a larger young generation is collected half as often, and a young collection costs
 * what survives it, not what died, so fewer collections do less work (docs/decisions/0291).
 * At most 32 MB more resident memory once the young generation has grown.
 */
export const SEMI_SPACE_MB = 32;
export const SEMI_SPACE_FLAG = `--max-semi-space-size=${SEMI_SPACE_MB}`;

/** Every V8 flag a start of the service passes, in this order. */
export const SERVICE_V8_FLAGS: readonly string[] = [HEAP_LIMIT_FLAG, SEMI_SPACE_FLAG];
