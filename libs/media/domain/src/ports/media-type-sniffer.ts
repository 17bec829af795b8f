/** The type of a file from its first bytes (magic numbers), for non-image media. */
export abstract class MediaTypeSniffer {
  /** `{ext, mime}` as detected (e.g. `mp4`, `video/mp4`), or `null` when unknown. */
  abstract sniff(head: Uint8Array): Promise<{ readonly ext: string; readonly mime: string } | null>;
}
