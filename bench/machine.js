// The machine a benchmark ran on, for its report: figures mean little without it.
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg, platform, release, totalmem } from 'node:os';

export function describeMachine() {
  const cpuinfo = existsSync('/proc/cpuinfo') ? readFileSync('/proc/cpuinfo', 'utf8') : '';
  return {
    cpuModel: /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1] ?? 'unknown CPU model',
    cpus: availableParallelism(),
    memoryGiB: (totalmem() / 2 ** 30).toFixed(1),
    // Other work on the machine shows in the figures; say how busy it was.
    loadAverage: loadavg()[0].toFixed(2),
    node: process.version,
    platform: `${platform()} ${release()}`,
  };
}
