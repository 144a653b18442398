// The module's public face: what other modules may import (docs/architecture.md).
export { DEMO_HOME_LOCATION, mergeHomeSettings, parseHomeSettings, toLocationKey, type HomeSettings } from './home-settings.ts';
export { capitalize, describeSensorName } from './home-words.ts';
export { householdBoundaries } from './household-boundaries.ts';
export { HouseholdDirectory, type KnownHome, type KnownSensor, type KnownWatch } from './household-directory.ts';
export { householdRepository, type BoundaryRow, type RoomRow, type SensorRow } from './household.repository.ts';
