import { cpus, totalmem, platform, release } from 'node:os';

/** Where the numbers were measured. */
export function machineInfo() {
  const cpu = cpus();
  return {
    node: process.version,
    platform: `${platform()} ${release()}`,
    cpus: cpu.length,
    cpu_model: cpu[0]?.model ?? 'unknown',
    memory_mb: Math.round(totalmem() / 1024 / 1024),
    date: new Date().toISOString(),
  };
}
