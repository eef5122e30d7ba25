import { cutToSyncRecord } from '../../src/storage/index.js';
import type { BridgeKeeper } from './bridge-keeper.js';

/** The setting the bridge under test needs for this fault: it writes down what each sync made durable. */
export const POWER_LOSS_ENV = { BRIDGE_DEBUG_SYNC_RECORD: 'on' } as const;

export type Interruption = 'kill' | 'power-loss';

/** What the power cuts of a campaign took away, for the report (`faults.power_loss…`). */
export interface PowerLossTally {
  count: number;
  /** Journal bytes written but not synced when the power went (records no caller had been told about). */
  journalBytesCut: number;
  /** Snapshot core renames undone because their directory sync had not returned. */
  coreRenamesUndone: number;
}

export function emptyPowerLossTally(): PowerLossTally {
  return { count: 0, journalBytesCut: 0, coreRenamesUndone: 0 };
}

/**
 * `kills` plain kill -9 and `powerLosses` power cuts, interleaved (a power cut every so often among the kills),
 * in the order they are spread over the messages sent.
 */
export function interruptionPlan(kills: number, powerLosses: number): Interruption[] {
  const total = kills + powerLosses;
  const plan: Interruption[] = [];
  let placed = 0;
  for (let i = 0; i < total; i++) {
    // Power cuts at evenly spaced places among all interruptions, the first one not first (when there are kills).
    const due = Math.floor(((i + 1) * powerLosses) / total);
    if (due > placed) {
      plan.push('power-loss');
      placed++;
    } else {
      plan.push('kill');
    }
  }
  return plan;
}

/**
 * A power cut: kill -9, then the data directory taken back to what the disk had synced (the bridge's own sync
 * record, `src/storage/sync-record.ts`): journal records not yet synced are gone, a snapshot rename not yet synced
 * is undone. The campaign then starts the bridge again as after any kill.
 */
export async function powerLoss(keeper: BridgeKeeper, dataDir: string, tally: PowerLossTally): Promise<void> {
  await keeper.kill();
  const cut = await cutToSyncRecord(dataDir);
  tally.count++;
  tally.journalBytesCut += cut.journalBytes;
  if (cut.coreRenameUndone) tally.coreRenamesUndone++;
}
