import type { CompanionWrite } from '../../platform/db/index.ts';
import { detectionRepository, type DetectionInsert } from './detection.repository.ts';

/*
 * The detections table belongs to this module: what other modules need of it, through these
 * functions rather than its repository (docs/architecture.md).
 */

/** Retention: deletes detections older than the cutoff; returns how many. */
export function deleteDetectionsOlderThan(
  ...args: Parameters<typeof detectionRepository.deleteOlderThan>
): ReturnType<typeof detectionRepository.deleteOlderThan> {
  return detectionRepository.deleteOlderThan(...args);
}

export function latestReadings(...args: Parameters<typeof detectionRepository.latestReadings>): ReturnType<typeof detectionRepository.latestReadings> {
  return detectionRepository.latestReadings(...args);
}

export function detectionPageForStream(...args: Parameters<typeof detectionRepository.pageForStream>): ReturnType<typeof detectionRepository.pageForStream> {
  return detectionRepository.pageForStream(...args);
}

export function detectionsInRangeWithState(
  ...args: Parameters<typeof detectionRepository.inRangeWithState>
): ReturnType<typeof detectionRepository.inRangeWithState> {
  return detectionRepository.inRangeWithState(...args);
}

export function lastSighting(...args: Parameters<typeof detectionRepository.lastSighting>): ReturnType<typeof detectionRepository.lastSighting> {
  return detectionRepository.lastSighting(...args);
}

export function animalSubtypes(...args: Parameters<typeof detectionRepository.animalSubtypes>): ReturnType<typeof detectionRepository.animalSubtypes> {
  return detectionRepository.animalSubtypes(...args);
}

export function personSightings(...args: Parameters<typeof detectionRepository.personSightings>): ReturnType<typeof detectionRepository.personSightings> {
  return detectionRepository.personSightings(...args);
}

export function readingsBefore(...args: Parameters<typeof detectionRepository.readingsBefore>): ReturnType<typeof detectionRepository.readingsBefore> {
  return detectionRepository.readingsBefore(...args);
}

export function latestDetectionOfTypes(...args: Parameters<typeof detectionRepository.latestOfTypes>): ReturnType<typeof detectionRepository.latestOfTypes> {
  return detectionRepository.latestOfTypes(...args);
}

/**
 * The pipeline's batch insert, to ride with its audit append in one transaction: prepared
 * statements on SQLite's raw connection, or one json_to_recordset() statement on PostgreSQL
 * (see detectionRepository.insertManySqlite and insertStatementPg).
 */
export function detectionInsert(rows: readonly DetectionInsert[]): CompanionWrite {
  return { sqlite: (raw) => detectionRepository.insertManySqlite(raw, rows), postgres: () => detectionRepository.insertStatementPg(rows) };
}
