// Loaded into the service by bench:memory: on SIGUSR2 it prints the main thread's heap figures.
process.on('SIGUSR2', () => console.log(`Memory: ${JSON.stringify(process.memoryUsage())}`));
