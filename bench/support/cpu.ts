import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';

/**
 * CPU time from Linux's /proc, to say where a phase's time went: the work process, the receiver,
 * the PostgreSQL server's processes, and how busy the whole machine was. Elsewhere every reading is
 * undefined and the report leaves the figures out.
 */

/** /proc's clock ticks per second (USER_HZ): 100 on every Linux this runs on. */
const TICKS_PER_SECOND = 100;

interface ProcStat {
  ppid: number;
  /** user + system, in ticks. */
  ticks: number;
  /** user + system of its children that have exited and been waited for. */
  reapedTicks: number;
}

function procStat(pid: number): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: fields are counted after the last ')'.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return {
      ppid: Number(fields[1]),
      ticks: Number(fields[11]) + Number(fields[12]),
      reapedTicks: Number(fields[13]) + Number(fields[14]),
    };
  } catch {
    return undefined;
  }
}

/**
 * The CPU time of `pid` and, with `withChildren`, of its direct children (those alive now and those
 * that exited), in ms.
 */
function cpuMs(pid: number, withChildren: boolean): number | undefined {
  const own = procStat(pid);
  if (!own) return undefined;
  let ticks = own.ticks;
  if (withChildren) ticks += own.reapedTicks;
  if (withChildren) {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const child = procStat(Number(entry));
      if (child?.ppid === pid) ticks += child.ticks;
    }
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/** Busy and total ticks of all cores (/proc/stat's first line). */
function machineTicks(): { busy: number; total: number } | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const values = line.trim().split(/\s+/).slice(1).map(Number);
    const total = values.reduce((sum, value) => sum + value, 0);
    const idle = (values[3] ?? 0) + (values[4] ?? 0);
    return { busy: total - idle, total };
  } catch {
    return undefined;
  }
}

/** A process to watch; `withChildren` for a server whose work happens in its children (PostgreSQL). */
export interface Watched {
  name: string;
  pid: number;
  withChildren?: boolean;
}

export interface CpuUse {
  /** CPU ms per watched process (absent when unreadable). */
  byProcess: Record<string, number>;
  /** Share of the machine's cores busy, 0..1, all processes of the machine. */
  machineBusy: number | undefined;
  /**
   * Share of the machine's cores busy with processes not watched, 0..1: other work on a shared
   * machine, which the figures of the phase suffered from.
   */
  othersBusy: number | undefined;
}

/** Starts counting; `stop()` gives what each watched process and the machine used since. */
export function meterCpu(watched: readonly Watched[]): { stop(): CpuUse } {
  const read = () => watched.map((process) => cpuMs(process.pid, process.withChildren === true));
  const before = read();
  const machineBefore = machineTicks();
  const started = performance.now();
  return {
    stop() {
      const after = read();
      const machineAfter = machineTicks();
      const byProcess: Record<string, number> = {};
      watched.forEach((process, index) => {
        const start = before[index];
        const end = after[index];
        if (start !== undefined && end !== undefined) byProcess[process.name] = end - start;
      });
      const machineBusy =
        machineBefore && machineAfter && machineAfter.total > machineBefore.total
          ? (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total)
          : undefined;
      const watchedMs = Object.values(byProcess).reduce((sum, value) => sum + value, 0);
      const capacityMs = (performance.now() - started) * os.availableParallelism();
      const othersBusy =
        machineBusy === undefined ? undefined : Math.max(0, machineBusy - watchedMs / capacityMs);
      return { byProcess, machineBusy, othersBusy };
    },
  };
}

/** The parent of `pid` (for a PostgreSQL backend: the postmaster, whose children are the server). */
export function parentPid(pid: number): number | undefined {
  return procStat(pid)?.ppid;
}
