// Verifies an audit evidence bundle (`npm run audit:bundle`) with Node.js alone (18 or newer):
//   node verify-bundle.mjs BUNDLE [PUBLIC_KEY.pem]
// Give the public key you were handed by the operator: without it the bundle's own key is used,
// and a bundle made by someone else would carry their key. Exit code 0: every event chains and
// every checkpoint's signature and head hash hold; 1: the first failure is printed.
import { createHash, createPublicKey, verify } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const [file, keyFile] = process.argv.slice(2);
if (!file) {
  console.error('usage: node verify-bundle.mjs BUNDLE [PUBLIC_KEY.pem]');
  process.exit(2);
}
const fail = (message) => {
  console.error(`NOT VERIFIED: ${message}`);
  process.exit(1);
};
const sha256 = (data) => createHash('sha256').update(data).digest('hex');

/** The bundle's lines, parsed, with their line numbers: a header, then one event a line. */
async function* lines() {
  let number = 0;
  for await (const text of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    number += 1;
    if (text !== '') yield { number, value: JSON.parse(text) };
  }
}
async function* events() {
  for await (const { number, value } of lines()) if (number > 1) yield { number, event: value };
}

let header = null;
for await (const { value } of lines()) {
  header = value;
  break;
}
if (header?.bundle !== 'audit-evidence-v1') fail('not an audit evidence bundle (first line)');
const key = createPublicKey(keyFile ? readFileSync(keyFile) : header.public_key);
const keyId = sha256(key.export({ type: 'spki', format: 'der' }));

// The checkpoints are events of their own stream; each signs ["audit-checkpoint", position, events, head_hash, time].
const checkpoints = [];
for await (const { number, event } of events()) if (event.stream === 'audit-checkpoints') checkpoints.push({ number, ...event.data });
checkpoints.sort((a, b) => a.events - b.events);
for (const c of checkpoints) {
  const message = JSON.stringify(['audit-checkpoint', c.position, c.events, c.head_hash, c.time]);
  if (c.key !== keyId || !verify(null, Buffer.from(message), key, Buffer.from(c.signature, 'base64'))) {
    fail(`checkpoint on line ${c.number} (position ${c.position}, ${c.events} events): not signed by key ${keyId}`);
  }
}

// The chain: each hash is SHA-256 over the previous hash and the event's fields, data and metadata as JSON text.
let previous = '0'.repeat(64);
let count = 0;
let next = 0;
for await (const { number, event } of events()) {
  const hash = sha256(JSON.stringify([previous, event.id, event.stream, event.revision, event.type, JSON.stringify(event.data), JSON.stringify(event.metadata)]));
  if (event.hash !== hash) fail(`line ${number} (position ${event.position}): the stored hash does not chain; this event or one before it was changed`);
  previous = hash;
  count += 1;
  for (; next < checkpoints.length && checkpoints[next].events === count; next++) {
    const c = checkpoints[next];
    if (c.head_hash !== hash) fail(`checkpoint on line ${c.number} (position ${c.position}, ${c.events} events): the log's hash there is ${hash}, the signed one ${c.head_hash}; the history before it was rewritten`);
  }
}
if (next < checkpoints.length) fail(`checkpoint on line ${checkpoints[next].number} signs ${checkpoints[next].events} events; the bundle has ${count}`);
const last = checkpoints[checkpoints.length - 1];
console.log(`verified: ${count} events chain; ${checkpoints.length} checkpoints signed by key ${keyId}`);
console.log(last ? `the last checkpoint vouches for the first ${last.events} events (signed ${last.time}); ${count - last.events} events after it are unsigned` : 'no checkpoint: nothing vouches for the events');
