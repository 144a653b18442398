/**
 * Recording as a second output of the ffmpeg that decodes (docs/decisions.md, "Recordings: a
 * second output of the decoding ffmpeg"). The ingest only appends the arguments a recorder hands
 * it and says when that ffmpeg ended; what the segments are, where they go and how they are
 * sealed belongs to the recorder (org/recordings). Without a recorder nothing changes.
 */
export interface RecordingSession {
  /** output arguments appended after the decode output (`-map 0:v:0 … -f segment …`) */
  readonly args: readonly string[];
  /** the ffmpeg these arguments went to has exited (asked to, crashed or killed) */
  ended(): void;
}

/** A pulled camera's recorder: opened before each ffmpeg start (it may probe the source's codec). */
export interface CameraRecorder {
  /** null: do not record this run (muted, left alone, recordings off or unwritable) */
  open(sourceUrl: string): Promise<RecordingSession | null>;
}
