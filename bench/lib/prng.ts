// The simulator's seeded generator (mulberry32): the same seed gives the same campaign. Values in [0, 1).
export { seededRandom } from '../../src/simulator/faults.js';

export function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length) % items.length]!;
}
