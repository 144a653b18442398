// The module's public face: what other modules may import (docs/architecture.md).
export { HOME_SENSORS, createScenario, parseSandboxUrl, type ScenarioGenerator, type ScenarioName } from './scenarios.ts';
