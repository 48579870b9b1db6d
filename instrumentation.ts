export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    // first, so that no request is ever served without its socket address
    const { recordPeerAddresses } = await import("./lib/runtime/record-peer-address");
    recordPeerAddresses();
    const { startServer } = await import("./lib/server/start-server");
    await startServer();
  }
}
