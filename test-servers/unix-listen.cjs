// Preload for `node -r`: the first server the process starts listens on the unix domain socket named by
// the environment's MCP_UNIX_SOCKET instead of its TCP port (server-everything, modern-fixture.mjs), so the
// reference servers can be tested behind a socket unchanged. What the server prints about its port is then
// meaningless; callers wait for the socket file instead. Without MCP_UNIX_SOCKET nothing changes.
'use strict';
const net = require('net');
const socketPath = process.env.MCP_UNIX_SOCKET;
if (socketPath) {
  const listen = net.Server.prototype.listen;
  let taken = false;
  net.Server.prototype.listen = function (...args) {
    if (taken) {
      return listen.apply(this, args);
    }
    taken = true;
    const callback = args.find((a) => typeof a === 'function');
    return callback ? listen.call(this, socketPath, callback) : listen.call(this, socketPath);
  };
}
