/** New GUIDs (see `GUID_PATTERN`): random, so file URLs cannot be guessed from ids. */
export abstract class GuidSource {
  abstract next(): string;
}
