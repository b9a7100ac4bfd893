import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

export interface Memory {
  rssAnon: number;
  rssFile: number;
  /** The heap figures of the main thread and the dynalite thread, as the service's probe printed them. */
  heap: string;
}

/**
 * Reads a service's memory: its resident memory by kind (Linux /proc), then the heaps as
 * its probe reports them (scripts/bench/memory-probe.mjs, on SIGUSR2). `reports` collects
 * the probe's lines from the service's output (`watchProbe`).
 */
export async function readMemory(child: ChildProcess, reports: string[]): Promise<Memory> {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) * 1024;
  return { rssAnon: kb('RssAnon'), rssFile: kb('RssFile'), heap: await heapReport(child, reports) };
}

/** Collects the probe's reports from the service's output. */
export function watchProbe(child: ChildProcess): string[] {
  const reports: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n')) if (line.startsWith('Memory: ')) reports.push(line.slice(8));
  });
  return reports;
}

async function heapReport(child: ChildProcess, reports: string[]): Promise<string> {
  const before = reports.length;
  child.kill('SIGUSR2');
  for (let i = 0; i < 50 && reports.length === before; i++) await new Promise((resolve) => setTimeout(resolve, 100));
  const report = reports[before];
  if (!report) return '?';
  const { main, dynalite } = JSON.parse(report) as { main: NodeJS.MemoryUsage; dynalite: NodeJS.MemoryUsage[] };
  const heap = (figures: NodeJS.MemoryUsage) => `${mb(figures.heapUsed)}/${mb(figures.heapTotal)}`;
  return `${heap(main)}, ${mb(main.external)}, ${mb(main.arrayBuffers)}; ${dynalite.map(heap).join(' ') || 'none'}`;
}

export function mb(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(0)} MB`;
}
