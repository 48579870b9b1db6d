export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { startServer } = await import("./lib/runtime/start-server");
    await startServer();
  }
}
