// Loaded into the service by the memory benchmarks: on SIGUSR2 it prints the heap figures of
// the main thread and of each dynalite thread (shared/local/dynalite.ts), which has a heap of its own.
process.on('SIGUSR2', async () => {
  const { threadHeaps } = await import(new URL('../../shared/local/dynalite.ts', import.meta.url).href);
  console.log(`Memory: ${JSON.stringify({ main: process.memoryUsage(), dynalite: await threadHeaps() })}`);
});
