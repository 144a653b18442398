import { householdRepository } from './household.repository.ts';

/*
 * The household tables (rooms, sensors, boundaries) belong to this module: the household module
 * that edits them and the modules that read them use these functions rather than its repository
 * (docs/architecture.md). A write takes the caller's transaction.
 */

export function listRooms(...args: Parameters<typeof householdRepository.listRooms>): ReturnType<typeof householdRepository.listRooms> {
  return householdRepository.listRooms(...args);
}

export function insertRoom(...args: Parameters<typeof householdRepository.insertRoom>): ReturnType<typeof householdRepository.insertRoom> {
  return householdRepository.insertRoom(...args);
}

export function renameRoom(...args: Parameters<typeof householdRepository.renameRoom>): ReturnType<typeof householdRepository.renameRoom> {
  return householdRepository.renameRoom(...args);
}

export function hasSensor(...args: Parameters<typeof householdRepository.hasSensor>): ReturnType<typeof householdRepository.hasSensor> {
  return householdRepository.hasSensor(...args);
}

export function insertSensor(...args: Parameters<typeof householdRepository.insertSensor>): ReturnType<typeof householdRepository.insertSensor> {
  return householdRepository.insertSensor(...args);
}

export function setSensorMuted(...args: Parameters<typeof householdRepository.setMuted>): ReturnType<typeof householdRepository.setMuted> {
  return householdRepository.setMuted(...args);
}

export function listSensors(...args: Parameters<typeof householdRepository.listSensors>): ReturnType<typeof householdRepository.listSensors> {
  return householdRepository.listSensors(...args);
}

export function listActiveBoundaries(
  ...args: Parameters<typeof householdRepository.listActiveBoundaries>
): ReturnType<typeof householdRepository.listActiveBoundaries> {
  return householdRepository.listActiveBoundaries(...args);
}

export function insertBoundary(...args: Parameters<typeof householdRepository.insertBoundary>): ReturnType<typeof householdRepository.insertBoundary> {
  return householdRepository.insertBoundary(...args);
}

export function clearBoundary(...args: Parameters<typeof householdRepository.clearBoundary>): ReturnType<typeof householdRepository.clearBoundary> {
  return householdRepository.clearBoundary(...args);
}

/** Of these sensors, those out of reach (muted, or in a place left alone). */
export function listOutOfReach(...args: Parameters<typeof householdRepository.listOutOfReach>): ReturnType<typeof householdRepository.listOutOfReach> {
  return householdRepository.listOutOfReach(...args);
}

export function listLeftAloneSensorIds(
  ...args: Parameters<typeof householdRepository.listLeftAloneSensorIds>
): ReturnType<typeof householdRepository.listLeftAloneSensorIds> {
  return householdRepository.listLeftAloneSensorIds(...args);
}

export function earliestDetectionAt(
  ...args: Parameters<typeof householdRepository.earliestDetectionAt>
): ReturnType<typeof householdRepository.earliestDetectionAt> {
  return householdRepository.earliestDetectionAt(...args);
}

export function latestDetections(...args: Parameters<typeof householdRepository.latestDetections>): ReturnType<typeof householdRepository.latestDetections> {
  return householdRepository.latestDetections(...args);
}
