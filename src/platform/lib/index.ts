// The module's public face: what other modules may import (docs/architecture.md).

export { Container, defineServiceModule, token, type ServiceModule, type Token } from './container.ts';
export { LOG, PLAIN_LINES, createProcessLogger, droppedLogLines, processLogDestination, type Log } from './log.ts';
export { ERROR_CATALOGUE, ERROR_CODES, VigilError, invalid, notFound, type ErrorCode, type FieldError } from './errors.ts';
export { newId } from './ids.ts';
export { takeRandomBytes, takeRandomHex } from './random-pool.ts';

export { startTsxWorker } from './tsx-worker.ts';
export { isWellFormedText, toWellFormedText } from './text.ts';
export { BoundedQueue, IMAGE_DECODES } from './bounded-queue.ts';
export { decodeRequestJpeg, MAX_INPUT_PIXELS, type DecodedRgb, type JpegInputCode } from './jpeg-input.ts';
