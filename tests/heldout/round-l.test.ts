/**
 * Round L of the rolling fresh sets for language precision: household cases written blind, committed
 * as written (round-l-household*.json, never edited; round-l-README.md says who wrote them and what
 * they read). Its first run is the round's figure: household correct 131/146 (89.7%), asked 9,
 * missed 3, wrong 3 (round-l.first-run.txt). It is now tuned: its failures were fixed by their
 * general causes (docs/decisions.md, "Round L household: times" and "Round L household: places and
 * words"), after which it scores 145/146; the one left, l137, is disputed: "watch the attic tonight"
 * in a home with a loft watches the loft (attic and loft are one word in the lexicon), where the
 * writer expected a question. This gate holds that level and may only be tightened. A tuned set no
 * longer measures precision blind: the first-run figure above is the round's.
 */
import { test } from 'node:test';
import { gateHousehold } from './household-heldout.ts';

test('round L household set: correct ≥ 145, wrong ≤ 1 (tuned; l137 disputed)', { timeout: 900_000 }, async () => {
  await gateHousehold('L', { size: 146, minCorrect: 145, maxWrong: 1 });
});
