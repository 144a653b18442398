/**
 * Errors the video module raises on bad input from a client (phone frames). The HTTP layer maps
 * `code` onto the error catalogue: invalid_image → 400, payload_too_large → 413.
 */
export class VideoInputError extends Error {
  constructor(
    readonly code: 'invalid_image' | 'payload_too_large' | 'image_too_large',
    message: string,
  ) {
    super(message);
    this.name = 'VideoInputError';
  }
}
