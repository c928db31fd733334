// The baseline: a bare node:http server in its own process. It receives the two bodies over
// IPC, answers every GET with a query string with the list body and every other GET with the
// get-one body, and reports its port back. It exits when the parent goes away.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

type Bodies = { readonly getOne: string; readonly list: string };

function serve(bodies: Bodies): void {
  const getOne = Buffer.from(bodies.getOne);
  const list = Buffer.from(bodies.list);
  const server = createServer((req, res) => {
    if (req.method !== 'GET') {
      res.writeHead(405).end();
      return;
    }
    const body = req.url?.includes('?') ? list : getOne;
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
  server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
}

process.once('message', (message) => serve(message as Bodies));
process.once('disconnect', () => process.exit(0));
