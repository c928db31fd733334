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
 * The most each of V8's two young-generation semi-spaces may grow to, in MB: Node 20's default
 * of 16, pinned. V8 applies this flag to every isolate of the process, each worker thread's
 * included (it overrides a worker's `resourceLimits`), so each thread's young generation may
 * grow to twice this. 0291 had doubled it for the creates' collections; with the text search
 * thread on by default that cost about 90 MB of resident memory in the search service and no
 * CPU a create that pairs could show (docs/decisions/0312).
 */
export const SEMI_SPACE_MB = 16;
export const SEMI_SPACE_FLAG = `--max-semi-space-size=${SEMI_SPACE_MB}`;

/** Every V8 flag a start of the service passes, in this order. */
export const SERVICE_V8_FLAGS: readonly string[] = [HEAP_LIMIT_FLAG, SEMI_SPACE_FLAG];
