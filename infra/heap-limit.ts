/**
 * The V8 flag every start of the service passes (`npm start`, the container's NODE_OPTIONS, the
 * benchmark's service): a 1 GiB old space. V8 scales how far it lets the heap grow past its
 * live size between full collections with this limit (up to 4 times on a machine with much
 * memory, about 1.6 times at 1 GiB), so the service's peak follows its live data instead of
 * the machine's size (docs/decisions/0220). V8 reads it only when the process starts.
 */
export const HEAP_LIMIT_MB = 1024;
export const HEAP_LIMIT_FLAG = `--max-old-space-size=${HEAP_LIMIT_MB}`;
