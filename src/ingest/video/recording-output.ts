/**
 * Recording as a second output of the ffmpeg that decodes (docs/decisions.md, "Recordings: a
 * second output of the decoding ffmpeg"). The ingest only appends the arguments a recorder hands
 * it and says when that ffmpeg ended; what the segments are, where they go and how they are
 * sealed belongs to the recorder (org/recordings). Without a recorder nothing changes.
 */
export interface RecordingSession {
  /**
   * output arguments appended after the decode output (`-map 0:v:0 … -f segment …`); none: this
   * run is not recorded, but the recorder hears when it ends (a stream waiting for a transcoding slot)
   */
  readonly args: readonly string[];
  /** the ffmpeg these arguments went to has exited (asked to, crashed or killed) */
  ended(): void;
}

/** A pulled camera's recorder: opened before each ffmpeg start (it may probe the source's codec). */
export interface CameraRecorder {
  /**
   * null: do not record this run (muted, left alone, recordings off or unwritable). `restart`: the
   * recorder calls it when a run it did not record could now be (a transcoding slot came free); the
   * source then restarts its ffmpeg, which opens the recorder again.
   */
  open(sourceUrl: string, restart?: () => void): Promise<RecordingSession | null>;
}
