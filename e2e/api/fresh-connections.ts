// Setup file of the API project: every fetch a test sends opens its own connection.
//
// With keep-alive, a test that blocks its event loop (spawnSync of the admin CLI or of a validator,
// several seconds on a busy machine) can send its next request on a socket the server is closing
// at that moment: its 5 s idle timer fired while the test could not see the FIN. The request then
// fails with "other side closed" (UND_ERR_SOCKET), though the server never read it. On a 2-core
// machine running two test files at a time this failed a CI run (admin-cli.test.ts). A connection per
// request costs ~0.1 ms on loopback and leaves no idle socket to race with; it also leaves none
// open for a server's graceful stop to wait on.
import { Agent, setGlobalDispatcher } from "undici";

// undici's own setGlobalDispatcher also sets the symbol Node's built-in fetch reads
setGlobalDispatcher(new Agent({ pipelining: 0 }));
