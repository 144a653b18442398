/** One file a generator writes, path relative to the repository root. */
export interface GeneratedFile {
  path: string;
  content: string;
}
