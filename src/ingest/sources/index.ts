// The module's public face: what other modules may import (docs/architecture.md).
export { LiveVideoSources, type LiveVideoTuning } from './live-video-sources.ts';
export { SourceManager } from './source-manager.ts';
