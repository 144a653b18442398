/**
 * Measures a face embedder's ROC on your own labelled photos and suggests its match threshold
 * (README, 'Bring your own face embedder'). Photos are JPEGs in one folder per person:
 *
 *   photos/ann/1.jpg photos/ann/2.jpg photos/bob/1.jpg …
 *   VIGIL_FACE_EMBEDDER=/models/arcface.onnx VIGIL_FACE_MATCH_THRESHOLD=0.3 \
 *     node --import tsx scripts/face-roc.ts photos
 *
 * Unset VIGIL_FACE_EMBEDDER measures the shipped FaceRes. Each photo must hold one face (the
 * enrolment rules); photos that do not are listed and left out. Prints TAR at FAR 0 and at FAR 1%
 * and the FAR-0 threshold rounded up to 0.01 (how the shipped threshold was set: docs/decisions.md,
 * 'Faces: the threshold from a measured ROC'). More people and photos make the figure worth more.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readFaceConfig } from '../src/platform/config/index.ts';
import { createFaceEngine, loadFaceModel, pairSimilarities, roc, type LabelledDescriptor } from '../src/ingest/faces/index.ts';

const root = process.argv[2];
if (!root) {
  console.error('usage: node --import tsx scripts/face-roc.ts <folder with one sub-folder of JPEGs per person>');
  process.exit(2);
}
const env = { ...process.env };
// the threshold is what this measures: a placeholder lets an embedder of one's own load
if (env.VIGIL_FACE_EMBEDDER && !env.VIGIL_FACE_MATCH_THRESHOLD) env.VIGIL_FACE_MATCH_THRESHOLD = '0.5';
const model = await loadFaceModel(readFaceConfig(env));
const engine = await createFaceEngine({ model });
const set: LabelledDescriptor[] = [];
try {
  for (const person of readdirSync(root).sort()) {
    const dir = join(root, person);
    if (!statSync(dir).isDirectory()) continue;
    for (const photo of readdirSync(dir)
      .filter((f) => /\.jpe?g$/i.test(f))
      .sort()) {
      try {
        const best = await engine.bestFace(readFileSync(join(dir, photo)));
        set.push({ person, source: `${person}/${photo}`, descriptor: best.descriptor });
      } catch (err) {
        console.error(`left out ${person}/${photo}: ${(err as Error).message}`);
      }
    }
  }
} finally {
  await engine.close();
}
const { genuine, impostor } = pairSimilarities(set);
const r = roc(genuine, impostor);
const r3 = (n: number) => Math.round(n * 1000) / 1000;
console.log(
  JSON.stringify(
    {
      model: model.id,
      people: new Set(set.map((s) => s.person)).size,
      photos: set.length,
      same_person_pairs: r.genuine,
      different_person_pairs: r.impostor,
      lowest_same_person: r3(r.genuineMin),
      highest_different_person: r3(r.impostorMax),
      at_far_0: { threshold: r3(r.atFar0.threshold), tar: r3(r.atFar0.tar) },
      at_far_1_percent: { threshold: r3(r.atFar1.threshold), tar: r3(r.atFar1.tar), far: r3(r.atFar1.far) },
      suggested_threshold: Math.ceil(r.atFar0.threshold * 100) / 100,
    },
    null,
    2,
  ),
);
