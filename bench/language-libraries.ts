import { performance } from 'node:perf_hooks';
import nlp from 'compromise';
import * as chrono from 'chrono-node';

/** The limit the household planner benches compare with: the language libraries alone on the same messages. */
export const LIBRARIES_LIMIT = 'compromise nlp(message).compute("root") + chrono-node parse(message), alone, same messages';

/**
 * The libraries alone, on the same messages, the same number of rounds (one warm-up call first,
 * as the planner's first call is left out): wall and CPU ms per message.
 */
export function measureLibraries(messages: readonly string[], rounds: number): { samples: number[]; cpu: number[] } {
  const samples: number[] = [];
  const cpu: number[] = [];
  const instant = new Date();
  const libraries = (message: string) => {
    nlp(message.toLowerCase()).compute('root');
    chrono.parse(message, { instant }, { forwardDate: true });
  };
  libraries(messages[0]);
  for (let round = 0; round < rounds; round++) {
    for (const message of messages) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      libraries(message);
      samples.push(performance.now() - t0);
      const used = process.cpuUsage(c0);
      cpu.push((used.user + used.system) / 1000);
    }
  }
  return { samples, cpu };
}
