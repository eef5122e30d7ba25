/** A clock that only moves when the code under test sleeps, recording each sleep. */
export interface FakeTime {
  clock: () => number;
  sleep: (ms: number) => Promise<void>;
  sleeps: number[];
  advance(ms: number): void;
}

export function fakeTime(startMs = 1_700_000_000_000): FakeTime {
  let now = startMs;
  const sleeps: number[] = [];
  return {
    clock: () => now,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
    },
    sleeps,
    advance: (ms: number) => {
      now += ms;
    },
  };
}
