'use strict';
// autocannon setupClient (workers mode needs a file): each connection takes its own session token from
// BENCH_SESSION_TOKENS, so concurrent requests do not all touch the same auth_sessions row.
const tokens = (process.env.BENCH_SESSION_TOKENS ?? '').split(',').filter(Boolean);
let next = 0;

module.exports = (client) => {
  if (tokens.length === 0) return;
  const token = tokens[next % tokens.length];
  next += 1;
  client.setHeaders({ authorization: `Bearer ${token}`, accept: 'application/json' });
};
